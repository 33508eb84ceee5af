// Latency anatomy (base/core/anatomy.h): every request's parts sum exactly to its latency, an
// idle drive's read is made of the configured times, and work behind GC shows as GC wait.
#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "host/sata/sata_wire.h"
#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// Checks every completed request and keeps what the tests look at.
struct AnatomyCheck : Probe {
  std::uint64_t requests = 0, reads = 0, writes = 0, others = 0, mismatches = 0, unstamped = 0;
  std::uint64_t gc_waited_reads = 0, gc_waited_writes = 0;
  std::array<Picos, kParts> sums{};
  std::vector<IoRequest> first_reads;  // the first few reads, as completed
  void command_done(const IoRequest& r) override {
    ++requests;
    const Anatomy& a = r.anatomy;
    if (a.total() != r.completed_ps - r.issued_ps) ++mismatches;
    if (a.mark != r.completed_ps) ++unstamped;
    for (std::size_t i = 0; i < kParts; ++i) sums[i] += a.part[i];
    const bool gc = a[Part::kDieWaitGc] > 0;
    if (r.command == AtaCommand::kReadFpdma) {
      ++reads;
      gc_waited_reads += gc;
      if (first_reads.size() < 64) first_reads.push_back(r);
    } else if (r.command == AtaCommand::kWriteFpdma) {
      ++writes;
      gc_waited_writes += gc;
    } else {
      ++others;
    }
  }
};

PhaseSpec trim_range(std::uint64_t offset, std::uint64_t size) {
  PhaseSpec p;
  p.name = "trim";
  p.kind = PhaseKind::kTrim;
  p.trim.mode = TrimMode::kRange;
  p.trim.offset = bytes(offset);
  p.trim.size = bytes(size);
  return p;
}

// A small drive pushed into GC, mapping-cache misses, RMW, TRIM and (optionally) write-through.
AnatomyCheck run_mixed(const std::string& extra_controller, std::uint64_t bs) {
  const DriveConfig config =
      drive_from_yaml(drive_yaml("2", "2", "48", "50us", "100MB/s", "3Gbps", "0.12", extra_controller));
  PhaseSpec mix = job_phase("mix", RwMode::kRandRw, bs, 32, percent(100), kPicosPerSec / 4);
  mix.job.blockalign_bytes = 512;  // unaligned: partial mapping units (RMW)
  const ScenarioSpec s = scenario({erase_phase(), fast_precondition(100, 100, 3),
                                   job_phase("randwrite", RwMode::kRandWrite, 4096, 32, percent(100), kPicosPerSec / 4),
                                   mix, trim_range(0, 1 << 20),
                                   job_phase("read", RwMode::kRandRead, 16384, 8, percent(100), kPicosPerSec / 10)});
  AnatomyCheck check;
  ScenarioRunner runner("mixed", s, config);
  runner.ssd.add_probe(check);
  sc_core::sc_start();
  REQUIRE(runner.finished());
  const PhaseResult& rw = runner.results()[2];
  CHECK(rw.gc_erases() > 0);  // the drive was collecting
  return check;
}

}  // namespace

TEST_CASE("Every request's anatomy parts sum exactly to its latency: write-back drive with GC and RMW and TRIM",
          "[timing][anatomy]") {
  const AnatomyCheck c = run_mixed("", 6144);
  CHECK(c.requests > 1000);
  CHECK(c.reads > 100);
  CHECK(c.writes > 100);
  CHECK(c.others > 0);  // the TRIM
  CHECK(c.mismatches == 0);
  CHECK(c.unstamped == 0);
  CHECK(c.sums[std::size_t(Part::kBufferWait)] > 0);
  CHECK(c.sums[std::size_t(Part::kArray)] > 0);
  CHECK(c.gc_waited_reads > 0);  // reads queued behind GC copies at their die
}

TEST_CASE("Every request's anatomy parts sum exactly to its latency: write-through drive with a small mapping cache",
          "[timing][anatomy]") {
  const AnatomyCheck c = run_mixed("  write_cache: false\n  mapping_cache: 16KiB\n", 4096);
  CHECK(c.requests > 500);
  CHECK(c.mismatches == 0);
  CHECK(c.unstamped == 0);
  CHECK(c.sums[std::size_t(Part::kMapWait)] > 0);  // translation-page reads before the data
  CHECK(c.gc_waited_writes > 0);                   // a write stuck behind GC shows the GC wait
  CHECK(c.sums[std::size_t(Part::kDieWaitMap)] + c.sums[std::size_t(Part::kStaging)] > 0);
}

TEST_CASE(
    "An idle drive's 4 KiB read anatomy is made of the configured link and firmware and t_cmd and tR and bus times",
    "[timing][anatomy]") {
  const DriveConfig config = drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps"));
  PhaseSpec reads = job_phase("qd1", RwMode::kRandRead, 4096, 1, percent(100));
  reads.job.io_size = bytes(64 * 4096);
  reads.job.io_size_set = true;
  const ScenarioSpec s = scenario({erase_phase(), fast_precondition(100, 0, 3), idle_phase(kPicosPerSec / 100), reads});
  AnatomyCheck check;
  ScenarioRunner runner("idle", s, config);
  runner.ssd.add_probe(check);
  sc_core::sc_start();
  REQUIRE(runner.finished());
  REQUIRE(check.first_reads.size() == 64);

  const auto wire = [&](FisKind kind, std::uint32_t data) {
    Fis f{kind, 0, AtaCommand::kReadFpdma, 0, 8, data};
    return SataWire(config.host.sata_line_bps, config.host.link_round_trip_dwords).time(f);
  };
  const Picos link = wire(FisKind::kCommand, 0) + wire(FisKind::kDataToHost, 4096) + wire(FisKind::kSetDeviceBits, 0);
  const Picos bus = config.nand.t_cmd_ps + transfer_picos(4096, config.nand.bus_bytes_per_s * 8);
  for (const IoRequest& r : check.first_reads) {
    const Anatomy& a = r.anatomy;
    CHECK(a[Part::kLinkTransfer] == link);
    CHECK(a[Part::kFirmware] == config.controller.firmware_cost_ps);
    CHECK(a[Part::kBusTransfer] == bus);
    CHECK(a[Part::kArray] == config.nand.t_read_ps[0]);
    CHECK(a[Part::kHostAdapter] == config.host.ahci_command_ps + config.host.ahci_completion_ps);
    CHECK(a.total() == link + config.controller.firmware_cost_ps + bus + config.nand.t_read_ps[0] +
                           config.host.ahci_command_ps + config.host.ahci_completion_ps);
    CHECK(r.completed_ps - r.issued_ps == a.total());
  }
}

TEST_CASE("The phase's anatomy in the results: mean parts add up to the mean latency and the tail to at least the p99",
          "[timing][anatomy]") {
  const DriveConfig config =
      drive_from_yaml(drive_yaml("2", "2", "48", "50us", "100MB/s", "3Gbps", "0.12", "  write_cache: false\n"));
  const ScenarioSpec s = scenario({erase_phase(), fast_precondition(100, 100, 3),
                                   job_phase("randrw", RwMode::kRandRw, 4096, 16, percent(100), kPicosPerSec / 4)});
  ScenarioRunner runner("phase", s, config);
  sc_core::sc_start();
  REQUIRE(runner.finished());
  const IoStats& io = runner.results()[2].io;
  for (const auto* pair : {&io.read_anatomy, &io.write_anatomy}) {
    const AnatomyStats& a = *pair;
    const Histogram& h = pair == &io.read_anatomy ? io.read_latency_ps : io.write_latency_ps;
    REQUIRE(a.count() == h.count());
    double mean = 0, tail = 0;
    const auto t = a.tail_mean(0.99);
    for (std::size_t i = 0; i < kParts; ++i) {
      mean += a.mean(Part(i));
      tail += t[i];
    }
    CHECK(mean == Approx(h.mean()).epsilon(1e-9));
    // The slowest 1 % average at least the p99 (bucketed: the boundary bucket is prorated).
    CHECK(tail >= 0.75 * double(h.quantile(0.99)));
    CHECK(tail <= double(h.max()) * 1.0000001);
  }
  CHECK(io.write_anatomy.gc_waited() > 0);
}
