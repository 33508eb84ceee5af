// Steady-state write amplification and wall cost of each GC victim policy and GC write
// placement under uniform random writes of one mapping unit (4 KiB), straight through the FTL
// (FtlAger: no timing, NAND operations dropped). A small drive: 2 channels x 2 dies, 512 blocks
// of 64 pages of 4 KiB per die (512 MiB raw).
//
//   gc_waf [OP...]     default: 0.07 0.28
//
// Per (OP, policy, destination): sequential fill, 3x the user capacity of random writes to
// reach steady state, then 3x more measured: WAF = NAND units programmed / host units, and the
// wall time of the measured writes per host unit, per GC-copied unit and per victim.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "base/config/config.h"
#include "base/core/rng.h"
#include "bench/bench_support.h"
#include "controller/ftl/ftl.h"

using namespace ssdlab;

namespace {

DriveConfig waf_drive(double op, GcPolicyKind policy, GcDestination destination) {
  DriveConfig c;
  c.name = "gc_waf";
  c.nand.channels = 2;
  c.nand.dies_per_channel = 2;
  c.nand.blocks_per_plane = 512;
  c.nand.pages_per_block = 64;
  c.nand.page_size_bytes = 4096;
  c.nand.cell = CellType::kMlc;
  c.controller.op = op;
  c.controller.mapping_unit_bytes = 4096;
  c.controller.write_buffer_bytes = 1 << 20;
  c.controller.gc.policy = policy;
  c.controller.gc.destination = destination;
  c.controller.user_bytes = static_cast<std::uint64_t>(double(c.nand.raw_bytes()) * (1.0 - op)) / 4096 * 4096;
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> ops;
  for (int i = 1; i < argc; ++i) ops.push_back(std::atof(argv[i]));
  if (ops.empty()) ops = {0.07, 0.28};
  std::printf("op\tpolicy\tdestination\twaf\tns_per_host_unit\tns_per_gc_unit\tns_per_victim\n");
  for (const double op : ops) {
    for (const GcPolicyKind policy : {GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo,
                                      GcPolicyKind::kRandom, GcPolicyKind::kDChoice}) {
      for (const GcDestination destination : {GcDestination::kSeparate, GcDestination::kShared}) {
        Ftl ftl(waf_drive(op, policy, destination));
        bench::FtlAger ager(ftl);
        ager.fill_sequential();
        Rng rng(20261201);
        ager.overwrite_random(3ull * ftl.user_units(), rng);
        const FtlStats before = ftl.stats();
        const auto start = std::chrono::steady_clock::now();
        ager.overwrite_random(3ull * ftl.user_units(), rng);
        const double ns = double(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
        const FtlStats& after = ftl.stats();
        const double host = double(after.host_units_written - before.host_units_written);
        const double nand = double(after.nand_units_programmed() - before.nand_units_programmed());
        const double copied = double(after.gc_units_copied - before.gc_units_copied);
        const double victims = double(after.gc_victims - before.gc_victims);
        if (!ftl.check_invariants().empty()) {
          std::fprintf(stderr, "invariants broken: %s\n", ftl.check_invariants().c_str());
          return 1;
        }
        std::printf("%.2f\t%s\t%s\t%.4f\t%.1f\t%.1f\t%.1f\n", op, to_string(policy), to_string(destination),
                    nand / host, ns / host, copied > 0 ? ns / copied : 0.0, victims > 0 ? ns / victims : 0.0);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
