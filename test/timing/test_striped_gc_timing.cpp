// Striped GC relocation in time (controller.gc.relocation: striped): a GC page program on one
// die that carries units read from a victim on another die starts only after those reads have
// finished (controller/sched/relocation_gate.h). A probe sees every op the firmware plans, in the
// firmware's order (Probe::nand_ops_planned), and every op's timing when it completes: for each
// relocated program, the GC reads of its source die planned before it must have finished by the
// time it starts. Foreground GC (random overwrites) and idle-time GC, plain and with read
// priority and preemptible background GC (where the scheduler holds ops too).
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "app/run/scenario_runner.h"
#include "controller/sched/op_ticket.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

std::uint64_t page_key(const NandOp& op) { return std::uint64_t(op.block) << 32 | op.page; }

struct RelocationOrder : Probe {
  explicit RelocationOrder(std::uint32_t dies) : planned_reads(dies), read_ends(dies) {}
  struct Dependency {
    std::uint32_t source;
    std::uint64_t reads;  // of the source die's GC reads planned before the program
  };
  std::vector<std::vector<std::uint64_t>> planned_reads;   // per die: its GC reads (block, page), in order
  std::vector<std::vector<Picos>> read_ends;               // per die: the GC reads' finish times, in order
  std::unordered_map<std::uint64_t, Dependency> programs;  // relocated programs planned, not yet done
  std::uint64_t checked = 0, waited = 0, out_of_order_reads = 0,
                too_early = 0;  // waited: planned before its reads were done

  void nand_ops_planned(const NandOp* ops, std::size_t count) override {
    for (std::size_t i = 0; i < count; ++i) {
      const NandOp& op = ops[i];
      if (op.origin == OpOrigin::kGc && op.kind == NandOpKind::kRead) planned_reads[op.die].push_back(page_key(op));
      const std::int64_t source = relocation_source(op);
      if (source >= 0) {
        const auto s = static_cast<std::uint32_t>(source);
        programs[page_key(op)] = Dependency{s, planned_reads[s].size()};
        waited += read_ends[s].size() < planned_reads[s].size();  // its last read is not done yet
      }
    }
  }
  void nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t*, std::uint32_t) override {
    if (op.origin == OpOrigin::kGc && op.kind == NandOpKind::kRead) {
      std::vector<Picos>& ends = read_ends[op.die];
      // A die's GC reads complete in the order they were planned (what the gate relies on).
      if (planned_reads[op.die][ends.size()] != page_key(op)) ++out_of_order_reads;
      ends.push_back(t.finished);
    }
    if (relocation_source(op) < 0) return;
    const auto it = programs.find(page_key(op));
    REQUIRE(it != programs.end());
    const Dependency d = it->second;
    programs.erase(it);
    ++checked;
    if (d.reads == 0) return;
    const std::vector<Picos>& ends = read_ends[d.source];
    // Its last read must be done, and done no later than the program's start on its own die.
    if (ends.size() < d.reads || t.started < ends[d.reads - 1]) {
      ++too_early;
    }
  }
};

// Fill, random overwrites mixed with reads (foreground GC on every die, host reads that may go
// ahead of held GC ops), idle (background GC), random reads.
ScenarioSpec age_and_idle() {
  PhaseSpec age = job_phase("age", RwMode::kRandRw, 4096, 32, percent(100));
  age.job.io_size = percent(400);
  age.job.io_size_set = true;
  return scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)), age,
                   idle_phase(3 * kPicosPerSec),
                   job_phase("read", RwMode::kRandRead, 4096, 32, percent(100), kPicosPerSec / 20)});
}

// Slow reads (400 us) and 16 KiB pages of four units: a relocated program's reads take long, so
// a program that did not wait for them would start before they end.
DriveConfig striped_drive(const std::string& extra) {
  const std::string gc = "  gc:\n    relocation: striped\n    idle_delay: 10ms\n    idle_free_blocks: 1000\n" + extra;
  std::string yaml = drive_yaml("2", "2", "48", "400us", "100MB/s", "3Gbps", "0.15", gc);
  const std::string page = "page_size: 4KiB";
  REQUIRE(yaml.find(page) != std::string::npos);
  return drive_from_yaml(yaml.replace(yaml.find(page), page.size(), "page_size: 16KiB"));
}

}  // namespace

TEST_CASE("a relocated GC program starts only after its source die's reads have finished", "[timing][striped]") {
  const DriveConfig plain = striped_drive("");
  const DriveConfig held =
      striped_drive("    background: {preemptible: true}\n  scheduler: {read_priority: over_gc}\n");
  const std::uint32_t dies = plain.nand.dies();
  RelocationOrder order[2] = {RelocationOrder(dies), RelocationOrder(dies)};
  std::unique_ptr<ScenarioRunner> run[2];
  const ScenarioSpec s = age_and_idle();
  run[0] = std::make_unique<ScenarioRunner>("a", s, plain);
  run[1] = std::make_unique<ScenarioRunner>("b", s, held);
  for (int i = 0; i < 2; ++i) run[i]->ssd.add_probe(order[i]);
  sc_core::sc_start();
  for (int i = 0; i < 2; ++i) {
    CAPTURE(i, order[i].checked, order[i].waited, order[i].too_early, order[i].out_of_order_reads);
    REQUIRE(run[i]->finished());
    const std::vector<PhaseResult>& r = run[i]->results();
    CAPTURE(r[2].gc_erases(), r[3].background_gc_ops(), r[2].iops());
    REQUIRE(r[2].gc_erases() > 0);          // foreground GC relocated
    REQUIRE(r[3].background_gc_ops() > 0);  // and idle GC
    CHECK(order[i].checked > 1000);         // many relocated programs were seen
    CHECK(order[i].waited > 0);             // many were planned before their reads were done
    CHECK(order[i].out_of_order_reads == 0);
    CHECK(order[i].too_early == 0);
    CHECK(order[i].programs.empty());  // every planned program was executed
    CHECK(run[i]->ssd.controller.ftl().check_invariants().empty());
    CHECK(run[i]->ssd.controller.ftl().relocation().cross_die_units > 0);
  }
  // The hold rules changed the order of work (reads went ahead of held GC ops).
  CHECK(run[0]->results()[2].iops() != run[1]->results()[2].iops());
}
