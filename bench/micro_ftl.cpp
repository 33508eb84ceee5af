// Google Benchmark micro-benchmarks of the FTL hot paths (plain C++, no SystemC):
//   BM_Lookup              Ftl::lookup of random LPNs (a filled 512 MiB and 16 GiB drive)
//   BM_WriteAndPlace       write_to_buffer + place of one 4 KiB unit on a pre-aged drive at
//                          steady state (map update, invalidation, pay-as-you-go GC copies)
//   BM_NextVictim          Ftl::next_victim of every die in turn (victim selection)
//   BM_CollectOne          Ftl::collect_one: one whole victim relocated and erased (timed by
//                          hand: wall time of the collection alone)
//   BM_PauseResume         an empty PauseTiming/ResumeTiming pair (a timer system call each)
//   BM_Fill                a sequential fill of a fresh 16 GiB drive, per mapping unit:
//                          /0 the reference, both mapping tables written once in order;
//                          /1 PageWriter::write_sequential (Ftl::fill_fresh_pages);
//                          /2 the same LPNs through PageWriter::write, one at a time
// Each policy (greedy, cost_benefit, fifo) is a separate argument where it matters.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "base/config/config.h"
#include "base/core/rng.h"
#include "bench/bench_support.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/precondition.h"

namespace ssdlab::bench {
namespace {

// 2 channels x 4 dies, 64-page blocks of 4 KiB, 7 % OP. `blocks` per die sets the size:
// 256 -> 512 MiB raw, 8192 -> 16 GiB raw.
DriveConfig micro_drive(std::uint32_t blocks, GcPolicyKind policy) {
  DriveConfig c;
  c.name = "micro";
  c.nand.channels = 2;
  c.nand.dies_per_channel = 4;
  c.nand.blocks_per_plane = blocks;
  c.nand.pages_per_block = 64;
  c.nand.page_size_bytes = 4096;
  c.nand.cell = CellType::kMlc;
  c.nand.t_read_ps = {50 * kPicosPerUs, 50 * kPicosPerUs, 0};
  c.nand.t_prog_ps = {250 * kPicosPerUs, 900 * kPicosPerUs, 0};
  c.nand.t_erase_ps = 2 * kPicosPerMs;
  c.nand.bus_bytes_per_s = 400000000;
  c.controller.op = 0.07;
  c.controller.mapping_unit_bytes = 4096;
  c.controller.write_buffer_bytes = 16 << 20;
  c.controller.gc.policy = policy;
  c.controller.user_bytes = static_cast<std::uint64_t>(double(c.nand.raw_bytes()) * 0.93) / 4096 * 4096;
  return c;
}

GcPolicyKind policy_arg(std::int64_t a) {
  return a == 0 ? GcPolicyKind::kGreedy : a == 1 ? GcPolicyKind::kCostBenefit : GcPolicyKind::kFifo;
}
const char* policy_label(std::int64_t a) { return to_string(policy_arg(a)); }

// One FTL per (size, policy, aged), built once per process and shared by the benchmarks:
// `aged` = filled, then 2x capacity of random overwrites (steady state, GC active).
Ftl& drive(std::uint32_t blocks, GcPolicyKind policy, bool aged) {
  static std::map<std::tuple<std::uint32_t, int, bool>, std::unique_ptr<Ftl>> cache;
  auto& slot = cache[{blocks, static_cast<int>(policy), aged}];
  if (!slot) {
    slot = std::make_unique<Ftl>(micro_drive(blocks, policy));
    FtlAger ager(*slot);
    ager.fill_sequential();
    if (aged) {
      Rng rng(12345);
      ager.overwrite_random(2ull * slot->user_units(), rng);
    }
  }
  return *slot;
}

std::vector<Lpn> random_lpns(std::uint32_t n, std::size_t count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Lpn> v(count);
  for (auto& l : v) l = static_cast<Lpn>(rng.below(n));
  return v;
}

void BM_Lookup(benchmark::State& state) {
  const auto blocks = static_cast<std::uint32_t>(state.range(0));
  const Ftl& ftl = drive(blocks, GcPolicyKind::kGreedy, false);
  // 4 Mi random LPNs (16 MiB, read in order so the prefetcher hides them).
  const std::vector<Lpn> lpns = random_lpns(ftl.user_units(), 1 << 22, 1);
  std::size_t i = 0;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    sum += ftl.lookup(lpns[i]);
    i = (i + 1) & (lpns.size() - 1);
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::to_string(double(ftl.geometry().total_units) * 4096 / double(1ull << 30)).substr(0, 4) +
                 " GiB raw, L2P " + std::to_string(ftl.user_units() * 4ull >> 20) + " MiB");
}
BENCHMARK(BM_Lookup)->Arg(256)->Arg(8192);

void BM_WriteAndPlace(benchmark::State& state) {
  Ftl& ftl = drive(256, policy_arg(state.range(0)), true);
  // Uniform random LPNs over the whole drive, drawn as we go from one generator per policy
  // that lives as long as the drive: restarting it on every run (Google Benchmark calls
  // this function several times) would rewrite the same prefix: a hot region, which skews
  // WAF (and before 94b5252 stalled FIFO GC: every die's oldest block fully valid).
  static std::map<std::int64_t, Rng> rngs;
  Rng& rng = rngs.try_emplace(state.range(0), 2 + state.range(0)).first->second;
  const std::uint32_t n = ftl.user_units();
  const std::uint32_t dies = ftl.geometry().dies;
  OpList ops;
  ops.reserve(1024);
  std::uint32_t die = 0;
  const FtlStats before = ftl.stats();
  for (auto _ : state) {
    const auto lpn = static_cast<Lpn>(rng.below(n));
    ftl.write_to_buffer(lpn, 0);
    bool placed = false;
    for (std::uint32_t tries = 0; tries < dies && !placed; ++tries) {
      const std::uint32_t d = die;
      die = die + 1 == dies ? 0 : die + 1;
      if (!ftl.can_place(d)) continue;
      ops.clear();
      placed = ftl.place(d, &lpn, 1, 0, ops);
    }
    if (!placed) {
      state.SkipWithError("no die can take a page");
      break;
    }
  }
  const FtlStats& after = ftl.stats();
  const auto host = double(after.host_units_written - before.host_units_written);
  state.counters["waf"] = host > 0 ? double(after.nand_units_programmed() - before.nand_units_programmed()) / host : 0;
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(policy_label(state.range(0)));
}
BENCHMARK(BM_WriteAndPlace)->Arg(0)->Arg(1)->Arg(2);

void BM_NextVictim(benchmark::State& state) {
  const Ftl& ftl = drive(256, policy_arg(state.range(0)), true);
  const std::uint32_t dies = ftl.geometry().dies;
  std::uint32_t die = 0;
  std::int64_t sum = 0;
  for (auto _ : state) {
    sum += ftl.next_victim(die);
    die = die + 1 == dies ? 0 : die + 1;
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(policy_label(state.range(0)));
}
BENCHMARK(BM_NextVictim)->Arg(0)->Arg(1)->Arg(2);

void BM_CollectOne(benchmark::State& state) {
  Ftl& ftl = drive(256, policy_arg(state.range(0)), true);
  FtlAger ager(ftl);
  static std::map<std::int64_t, Rng> rngs;
  Rng& rng = rngs.try_emplace(state.range(0), 99 + state.range(0)).first->second;
  const std::uint32_t dies = ftl.geometry().dies;
  OpList ops;
  ops.reserve(4096);
  std::uint32_t die = 0;
  std::uint64_t copied = 0;
  for (auto _ : state) {
    // Refill what the last collection took (host writes, GC paid as it goes), untimed. The
    // collection alone is timed by hand (UseManualTime): PauseTiming/ResumeTiming read the
    // process CPU clock, a system call, and on a VM the pair costs ~1.4 us (BM_PauseResume),
    // a third of what this benchmark measured with them.
    try {
      ager.overwrite_random(ftl.geometry().units_per_block, rng);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      break;
    }
    ops.clear();
    const std::uint64_t before = ftl.stats().gc_units_copied;
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(ftl.collect_one(die, ops));
    const auto stop = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
    copied += ftl.stats().gc_units_copied - before;
    die = die + 1 == dies ? 0 : die + 1;
  }
  state.counters["units_copied"] = benchmark::Counter(double(copied), benchmark::Counter::kAvgIterations);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(policy_label(state.range(0)));
}
// Fixed iterations: the untimed refill between collections costs ~10x the timed part.
BENCHMARK(BM_CollectOne)->Arg(0)->Arg(1)->Arg(2)->Iterations(20000)->UseManualTime();

// What a PauseTiming/ResumeTiming pair costs on this machine (BM_CollectOne's figure before it
// timed by hand included one per iteration).
void BM_PauseResume(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_PauseResume)->Iterations(20000);

void BM_Fill(benchmark::State& state) {
  const DriveConfig config = micro_drive(8192, GcPolicyKind::kGreedy);
  const auto mode = state.range(0);
  std::uint64_t units = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<Ftl> ftl = std::make_unique<Ftl>(config);  // fresh, its tables touched
    std::vector<Lpn> l2p, p2l;
    if (mode == 0) {
      l2p.assign(ftl->user_units(), 0);
      p2l.assign(ftl->geometry().total_units, 0);
    }
    state.ResumeTiming();
    if (mode == 0) {
      for (std::size_t i = 0; i < l2p.size(); ++i) l2p[i] = static_cast<Lpn>(i);
      for (std::size_t i = 0; i < p2l.size(); ++i) p2l[i] = static_cast<Lpn>(i);
      benchmark::DoNotOptimize(l2p.data());
      benchmark::DoNotOptimize(p2l.data());
    } else {
      PageWriter writer(*ftl);
      if (mode == 1) {
        writer.write_sequential(0, ftl->user_units());
      } else {
        for (Lpn lpn = 0; lpn < ftl->user_units(); ++lpn) writer.write(lpn);
      }
      writer.flush();
      benchmark::DoNotOptimize(ftl->stats().host_units_written);
    }
    units += ftl->user_units();
    state.PauseTiming();
    ftl.reset();
    state.ResumeTiming();
  }
  // seconds / (units / 1e9): nanoseconds per mapping unit
  state.counters["ns_per_unit"] =
      benchmark::Counter(double(units) / 1e9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetLabel(mode == 0 ? "tables written once" : mode == 1 ? "write_sequential" : "write, one at a time");
}
BENCHMARK(BM_Fill)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ssdlab::bench

BENCHMARK_MAIN();
