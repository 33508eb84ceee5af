// Program/erase suspend (nand.suspend, docs/suspend.md): on one die, a host read that arrives
// during an erase's (a program's) array time suspends it, runs after the suspend latency and
// finishes at exactly latency + t_cmd + tR + data-out; the suspended op resumes at the read's end
// and ends later by exactly that span; GC reads, reads behind queued ops and reads past the
// per-op limit do not suspend; without suspend the read waits for the whole erase.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "base/config/config.h"
#include "base/core/bus_calendar.h"
#include "base/time/timeline.h"
#include "nand/die.h"

using namespace ssdlab;

namespace {

constexpr Picos kUs = kPicosPerUs;

NandConfig suspend_nand(bool erase, bool program) {
  NandConfig n;
  n.channels = 1;
  n.dies_per_channel = 1;
  n.blocks_per_plane = 8;
  n.pages_per_block = 64;
  n.page_size_bytes = 4096;
  n.cell = CellType::kMlc;
  n.t_read_ps = {50 * kUs, 50 * kUs, 0};
  n.t_prog_ps = {250 * kUs, 900 * kUs, 0};
  n.t_erase_ps = 2000 * kUs;
  n.bus_bytes_per_s = 100000000;  // 4 KiB in 40.96 us
  n.t_cmd_ps = 200000;            // 0.2 us
  n.suspend.erase = erase;
  n.suspend.program = program;
  n.suspend.erase_latency_ps = 300 * kUs;
  n.suspend.program_latency_ps = 20 * kUs;
  n.suspend.max_per_op = 2;
  return n;
}

// Dies on buses of their own, each with its config, on one timeline (one simulation per process);
// ops submitted at given times; completions recorded with their times.
struct Bench : TimerClient, DieListener {
  struct Done {
    NandOp op;
    Picos at;
    OpTiming timing;
  };
  struct Submit {
    Picos at;
    NandOp op;
  };
  explicit Bench(const std::vector<NandConfig>& configs)
      : nand(configs), timeline("timeline"), bus(configs.size()), dies(new Die[configs.size()]) {
    for (std::uint32_t d = 0; d < configs.size(); ++d) dies[d].init(nand[d], timeline, bus[d], *this, d, d);
  }
  // Op `id` (its index in the plan) for die `die` at `at`.
  std::uint32_t add(std::uint32_t die, Picos at, NandOpKind kind, OpOrigin origin, std::uint32_t page,
                    std::uint32_t bytes) {
    const auto id = static_cast<std::uint32_t>(plan.size());
    plan.push_back({at, NandOp(kind, origin, die, 0, page, bytes, kOpTimedBit | id)});
    timeline.at(at, *this, id);
    return id;
  }
  void on_timer(std::uint32_t what) override { dies[plan[what].op.die].submit(plan[what].op); }
  void die_done(const NandOp& op) override { done.push_back({op, now_picos(), dies[op.die].finished_timing(op)}); }
  void die_done_in_batch(const NandOp& op) override { die_done(op); }
  const Done& of(std::uint32_t id) const {
    for (const Done& d : done)
      if ((d.op.cookie & ~kOpTimedBit) == id) return d;
    FAIL("op " << id << " never finished");
    return done.front();
  }

  std::vector<NandConfig> nand;
  Timeline timeline;
  std::vector<BusCalendar> bus;
  std::unique_ptr<Die[]> dies;
  std::vector<Submit> plan;
  std::vector<Done> done;
};

Picos out_time(const NandConfig& n) { return transfer_picos(4096, n.bus_bytes_per_s * 8); }

}  // namespace

TEST_CASE("suspend: a host read during an erase runs after the suspend latency, and the erase ends later by its span",
          "[suspend]") {
  Bench b({suspend_nand(true, false)});
  const NandConfig& n = b.nand[0];
  const Picos t0 = 10 * kUs, t_read_at = t0 + 700 * kUs;
  b.add(0, t0, NandOpKind::kErase, OpOrigin::kGc, 0, 0);                       // 0: ends at t0 + t_cmd + 2 ms
  b.add(0, t_read_at, NandOpKind::kRead, OpOrigin::kHost, 3, 4096);            // 1: suspends it
  b.add(0, t_read_at + kUs, NandOpKind::kRead, OpOrigin::kHost, 5, 4096);      // 2: queued: runs in the suspension
  b.add(0, t_read_at + 2 * kUs, NandOpKind::kRead, OpOrigin::kHost, 7, 4096);  // 3: past max_per_op: after the erase
  sc_core::sc_start();
  REQUIRE(b.done.size() == 4);
  const Picos out = out_time(n);
  const Picos read = n.t_cmd_ps + n.t_read_ps[1] + out;  // page 3: an MSB page (same tR here)
  const Picos erase_alone = n.t_cmd_ps + n.t_erase_ps;
  // The read: the suspend latency, then its command, tR and data-out, exactly.
  const Picos read1_end = t_read_at + n.suspend.erase_latency_ps + read;
  CHECK(b.of(1).at == read1_end);
  CHECK(b.of(1).timing.started == t_read_at + n.suspend.erase_latency_ps);
  // It waited the suspend latency behind the erase (GC), nothing else.
  CHECK(b.of(1).timing.behind[1] == n.suspend.erase_latency_ps);
  CHECK(b.of(1).timing.behind[0] == 0);
  // The second read, queued behind the first, runs before the erase resumes.
  const Picos read2_end = read1_end + read;
  CHECK(b.of(2).at == read2_end);
  // The erase: the time it had left when suspended, from the second read's end.
  const Picos left = t0 + erase_alone - t_read_at;
  CHECK(b.of(0).at == read2_end + left);
  CHECK(b.of(0).at == t0 + erase_alone + (read2_end - t_read_at));
  // The third read was over the limit of two per op: it waited for the erase.
  CHECK(b.of(3).at == b.of(0).at + read);
  CHECK(b.dies[0].stats().suspends == 1);
  CHECK(b.dies[0].stats().erases == 1);
  CHECK(b.dies[0].stats().reads == 3);
  // The die's busy time is its ops' time, suspend latency counted once (the erase's).
  CHECK(b.dies[0].stats().busy_ps() == erase_alone + n.suspend.erase_latency_ps + 3 * read);
  CHECK(b.dies[0].stats().busy_by_origin_ps[1] == erase_alone + n.suspend.erase_latency_ps);
}

TEST_CASE("suspend: without it, or for a GC read, or in the erase's command cycles, the read waits for the erase",
          "[suspend]") {
  // Die 0: suspend off; die 1: a GC read; die 2: a host read during the erase's command cycles;
  // die 3: a host read behind a queued op (suspend preempts the op in progress, not the queue).
  Bench b(
      {suspend_nand(false, false), suspend_nand(true, false), suspend_nand(true, false), suspend_nand(true, false)});
  const NandConfig& n = b.nand[0];
  const Picos t0 = 10 * kUs;
  std::vector<std::uint32_t> erase, read;
  for (std::uint32_t d = 0; d < 4; ++d) {
    erase.push_back(b.add(d, t0, NandOpKind::kErase, OpOrigin::kGc, 0, 0));
    if (d == 3) b.add(d, t0 + 100 * kUs, NandOpKind::kProgram, OpOrigin::kGc, 0, 4096);
    const Picos at = d == 2 ? t0 + 100000 : t0 + 700 * kUs;
    read.push_back(b.add(d, at, NandOpKind::kRead, d == 1 ? OpOrigin::kGc : OpOrigin::kHost, 3, 4096));
  }
  sc_core::sc_start();
  REQUIRE(b.done.size() == 9);
  const Picos erase_end = t0 + n.t_cmd_ps + n.t_erase_ps;
  const Picos out = out_time(n);
  for (std::uint32_t d = 0; d < 4; ++d) {
    INFO("die " << d);
    CHECK(b.of(erase[d]).at == erase_end);
    const Picos before = d == 3 ? n.t_cmd_ps + out + n.t_prog_ps[0] : 0;  // the queued program first
    CHECK(b.of(read[d]).at == erase_end + before + n.t_cmd_ps + n.t_read_ps[1] + out);
    CHECK(b.dies[d].stats().suspends == 0);
  }
}

TEST_CASE("suspend: a host read suspends a program for the program latency, and erase suspend alone does not",
          "[suspend]") {
  Bench b({suspend_nand(true, true), suspend_nand(true, false)});
  const Picos t0 = 10 * kUs;
  const Picos at = t0 + 500 * kUs;
  for (std::uint32_t d = 0; d < 2; ++d) {
    b.add(d, t0, NandOpKind::kProgram, OpOrigin::kHost, 1, 4096);  // an MSB page: 900 us after its data-in
    b.add(d, at, NandOpKind::kRead, OpOrigin::kHost, 2, 4096);
  }
  sc_core::sc_start();
  REQUIRE(b.done.size() == 4);
  for (std::uint32_t d = 0; d < 2; ++d) {
    const bool program = d == 0;
    INFO("program suspend " << program);
    const NandConfig& n = b.nand[d];
    const std::uint32_t prog = 2 * d, rd = 2 * d + 1;
    const Picos out = out_time(n);
    const Picos read = n.t_cmd_ps + n.t_read_ps[0] + out;
    const Picos prog_end = t0 + n.t_cmd_ps + out + n.t_prog_ps[1];
    if (program) {
      const Picos read_end = at + n.suspend.program_latency_ps + read;
      CHECK(b.of(rd).at == read_end);
      CHECK(b.of(prog).at == prog_end + (read_end - at));
      // The program's own timing: its array time stretched by the suspension.
      CHECK(b.of(prog).timing.array_end == b.of(prog).at);
      CHECK(b.of(prog).timing.finished == b.of(prog).at);
      CHECK(b.of(prog).timing.array_start == t0 + n.t_cmd_ps + out);
      CHECK(b.dies[d].stats().suspends == 1);
    } else {
      CHECK(b.of(prog).at == prog_end);
      CHECK(b.of(rd).at == prog_end + read);
      CHECK(b.dies[d].stats().suspends == 0);
    }
  }
}
