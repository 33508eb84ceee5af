// Host reads and GC work at a die (controller.scheduler.read_priority,
// gc.background.preemptible; the rules are in controller/sched/flash_scheduler.h): a read that
// arrives during background GC waits less for GC when it is preemptible, and GC still
// completes; with read priority a read queued behind foreground GC copies goes ahead of them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// The reads' GC wait (their anatomy's die_wait_gc) and latency.
struct ReadWaits : Probe {
  std::uint64_t reads = 0, gc_waited = 0;
  Picos gc_wait_ps = 0, latency_ps = 0, max_gc_wait_ps = 0;
  void command_done(const IoRequest& r) override {
    if (r.command != AtaCommand::kReadFpdma) return;
    ++reads;
    const Picos gc = r.anatomy[Part::kDieWaitGc];
    gc_wait_ps += gc;
    max_gc_wait_ps = std::max(max_gc_wait_ps, gc);
    gc_waited += gc > 0;
    latency_ps += r.completed_ps - r.issued_ps;
  }
};

// Random 4 KiB overwrites of `pct` % of the drive at QD32.
PhaseSpec age_phase(double pct) {
  PhaseSpec age = job_phase("age", RwMode::kRandWrite, 4096, 32, percent(100));
  age.job.io_size = percent(pct);
  age.job.io_size_set = true;
  return age;
}

// Two drives on the same scenario, run side by side (SystemC elaborates once per process),
// each with its reads' waits recorded.
struct Pair {
  ReadWaits waits[2];
  std::unique_ptr<ScenarioRunner> run[2];
  Pair(const ScenarioSpec& s, const DriveConfig& a, const DriveConfig& b) {
    run[0] = std::make_unique<ScenarioRunner>("a", s, a);
    run[1] = std::make_unique<ScenarioRunner>("b", s, b);
    for (int i = 0; i < 2; ++i) run[i]->ssd.add_probe(waits[i]);
    sc_core::sc_start();
    for (const auto& r : run) REQUIRE(r->finished());
  }
};

// Fill, age with random writes, idle long enough for background GC to be busy, then random
// reads at QD32 that arrive while the dies have GC steps queued (a command stops new steps, the
// queued ones finish: the reads of the first milliseconds meet them); then idle again. Phases:
// 3 idle, 4 read, 5 second idle.
ScenarioSpec idle_then_read() {
  return scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)), age_phase(300),
                   idle_phase(40 * kPicosPerMs),
                   job_phase("read", RwMode::kRandRead, 4096, 32, percent(100), kPicosPerSec / 50),
                   idle_phase(2 * kPicosPerSec)});
}

// 16 KiB pages of four 4 KiB units: a background step reads up to four pages for a page of
// copies, then programs it (and erases the victim after its last page), so a read that arrives
// mid-step has several ops queued ahead of it without preemption. Slow reads (tR 400 us) make
// the copy reads most of a step, so that the host's reads are likely to arrive during them.
DriveConfig idle_gc_drive(const std::string& background) {
  const std::string gc = "  gc:\n    idle_delay: 10ms\n    idle_free_blocks: 1000\n" + background;
  std::string yaml = drive_yaml("2", "2", "64", "400us", "100MB/s", "3Gbps", "0.25", gc);
  const std::string page = "page_size: 4KiB";
  REQUIRE(yaml.find(page) != std::string::npos);
  return drive_from_yaml(yaml.replace(yaml.find(page), page.size(), "page_size: 16KiB"));
}

}  // namespace

TEST_CASE("a host read arriving during background GC waits less for GC when background GC is preemptible",
          "[timing][priority]") {
  const Pair p(idle_then_read(), idle_gc_drive(""), idle_gc_drive("    background: {preemptible: true}\n"));
  const ReadWaits& plain = p.waits[0];
  const ReadWaits& yielding = p.waits[1];
  const std::vector<PhaseResult>& a = p.run[0]->results();
  const std::vector<PhaseResult>& b = p.run[1]->results();
  CAPTURE(plain.reads, plain.gc_waited, plain.gc_wait_ps, plain.max_gc_wait_ps, plain.latency_ps, yielding.reads,
          yielding.gc_waited, yielding.gc_wait_ps, yielding.max_gc_wait_ps, yielding.latency_ps,
          a[3].background_gc_ops(), b[3].background_gc_ops());
  // Both were collecting when the reads came, and the reads found GC work on the dies.
  REQUIRE(a[3].background_gc_ops() > 0);
  REQUIRE(b[3].background_gc_ops() > 0);
  REQUIRE(plain.gc_waited > 0);
  // Without preemption a read waits for the rest of the step queued on its die (copy reads, a
  // program, perhaps an erase); with it only for the GC op in progress when it was queued
  // (held ops go to the die only when it has nothing else, so never ahead of a queued read).
  // The longest single GC op here is the erase: tBERS 2 ms plus its command cycles, and a
  // little bus wait for them behind the die's channel neighbour (one 16 KiB transfer at most).
  const Picos longest_gc_op = 2 * kPicosPerMs + 200 * kPicosPerNs + 164 * kPicosPerUs;
  CHECK(yielding.max_gc_wait_ps <= longest_gc_op);
  CHECK(yielding.gc_wait_ps < plain.gc_wait_ps);
  // The dies do the same work: at QD32 they stay busy, so the reads overall are not slower
  // (what they no longer wait for GC they wait for each other).
  CHECK(yielding.latency_ps <= plain.latency_ps);
  // The host being back stops new steps either way; GC resumes and completes when it is idle
  // again, and the mapping is intact.
  CHECK(a[4].background_gc_ops() == 0);
  CHECK(b[4].background_gc_ops() == 0);
  CHECK(b[5].background_gc_ops() > 0);
  CHECK(b[5].free_blocks_end() > b[4].free_blocks_end());
  CHECK(p.run[1]->ssd.controller.ftl().check_invariants().empty());
}

namespace {

// A full drive under random 4 KiB reads and writes at QD32: foreground GC on every die. Phase 3: the mix.
ScenarioSpec mix_after_aging() {
  return scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)), age_phase(150),
                   job_phase("mix", RwMode::kRandRw, 4096, 32, percent(100), kPicosPerSec / 5)});
}

DriveConfig mix_drive(const std::string& scheduler) {
  return drive_from_yaml(drive_yaml("2", "2", "64", "50us", "100MB/s", "3Gbps", "0.12", scheduler));
}

double per_read(const ReadWaits& w, Picos ReadWaits::*field) { return double(w.*field) / double(w.reads); }

}  // namespace

TEST_CASE("with read priority over GC a host read queued behind GC copies goes ahead of them", "[timing][priority]") {
  const Pair p(mix_after_aging(), mix_drive(""), mix_drive("  scheduler: {read_priority: over_gc}\n"));
  const ReadWaits& fifo = p.waits[0];
  const ReadWaits& priority = p.waits[1];
  const PhaseResult& a = p.run[0]->results()[3];
  const PhaseResult& b = p.run[1]->results()[3];
  const double fifo_gc = per_read(fifo, &ReadWaits::gc_wait_ps),
               priority_gc = per_read(priority, &ReadWaits::gc_wait_ps);
  CAPTURE(fifo.reads, fifo_gc, per_read(fifo, &ReadWaits::latency_ps), a.gc_erases(), priority.reads, priority_gc,
          per_read(priority, &ReadWaits::latency_ps), b.gc_erases());
  REQUIRE(a.gc_erases() > 0);
  REQUIRE(fifo.gc_waited > 0);
  // Per read, far less waiting behind GC: only the op in progress (and at most
  // kMaxOvertakes reads per held op pass it, so some still queue behind GC).
  CHECK(priority_gc * 2 < fifo_gc);
  CHECK(per_read(priority, &ReadWaits::latency_ps) < per_read(fifo, &ReadWaits::latency_ps));
  // GC is not starved: it still collects and the writes go on.
  CHECK(b.gc_erases() > 0);
  CHECK(b.io.writes > 0);
  CHECK(p.run[1]->ssd.controller.ftl().check_invariants().empty());
}
