// Bit errors in simulated time (issue 26): a read of a worn page takes (1 + retries) x (t_cmd +
// tR + data-out + ECC decode), exactly, with the retries and decodes as anatomy parts of their
// own; an uncorrectable read reaches the host as an error; everything off, the same read as
// before; the aging phase wears the blocks and ages the data without simulated time.
#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "host/sata/sata_wire.h"
#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

PhaseSpec wear_phase(std::uint32_t pe, std::uint64_t retention_s) {
  PhaseSpec p;
  p.name = "wear";
  p.kind = PhaseKind::kWear;
  p.wear.pe_cycles = pe;
  p.wear.retention_s = retention_s;
  return p;
}

DriveConfig worn_drive(bool errors, std::uint32_t levels, double scale = 1.0) {
  DriveConfig config = drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps"));
  config.nand.errors.enabled = errors;
  config.nand.errors.retry_levels = levels;
  config.nand.errors.scale = scale;
  return config;
}

// QD1 4 KiB random reads of an idle, filled drive after `wear`: nothing queues anywhere.
struct Run {
  ReadLog reads;
  std::uint64_t media_errors = 0, retries = 0, retried = 0, uncorrectable = 0;
  std::uint64_t phase_errors = 0;
  bool media = false;  // the controller has an error model (nand.errors.enabled)
};

Run run_reads(const DriveConfig& config, const PhaseSpec& wear, std::uint64_t n) {
  PhaseSpec reads = job_phase("qd1", RwMode::kRandRead, 4096, 1, percent(100));
  reads.job.io_size = bytes(n * 4096);
  reads.job.io_size_set = true;
  const ScenarioSpec s =
      scenario({erase_phase(), fast_precondition(100, 0, 3), wear, idle_phase(kPicosPerSec / 100), reads});
  Run out;
  ScenarioRunner runner("retry", s, config);
  runner.ssd.add_probe(out.reads);
  sc_core::sc_start();
  INFO(runner.error());
  REQUIRE(runner.finished());
  out.phase_errors = runner.results().back().io.errors;
  out.media = runner.ssd.controller.media() != nullptr;
  if (const MediaHealth* m = runner.ssd.controller.media()) {
    out.media_errors = runner.ssd.controller.stats().media_errors;
    out.retries = m->stats().retries;
    out.retried = m->stats().retried_reads;
    out.uncorrectable = m->stats().uncorrectable[0];
  }
  return out;
}

Picos link_time(const DriveConfig& config, bool data) {
  const auto wire = [&](FisKind kind, std::uint32_t bytes) {
    Fis f{kind, 0, AtaCommand::kReadFpdma, 0, 8, bytes};
    return SataWire(config.host.sata_line_bps, config.host.link_round_trip_dwords).time(f);
  };
  // The link's FISes and the host adapter's command fetch and completion report.
  return wire(FisKind::kCommand, 0) + (data ? wire(FisKind::kDataToHost, 4096) : 0) + wire(FisKind::kSetDeviceBits, 0) +
         config.host.ahci_command_ps + config.host.ahci_completion_ps;
}

}  // namespace

TEST_CASE("A worn page's read takes (1 + retries) x (t_cmd + tR + data-out + decode) exactly, retries and ECC as parts",
          "[timing][reliability]") {
  const DriveConfig config = worn_drive(true, 8);
  // 20,000 P/E and a year: past the MLC curve's design point, most reads need a retry.
  const Run r = run_reads(config, wear_phase(20000, 365ull * 86400), 400);
  REQUIRE(r.reads.done.size() == 400);
  const Picos attempt_bus = config.nand.t_cmd_ps + transfer_picos(4096, config.nand.bus_bytes_per_s * 8);
  const Picos decode = config.controller.ecc.decode_ps;
  const Picos attempt = attempt_bus + config.nand.t_read_ps[0] + decode;
  const Picos fixed = link_time(config, true) + config.controller.firmware_cost_ps;
  std::array<std::uint64_t, 10> by_retries{};
  std::uint64_t exact = 0, retries = 0;
  for (const IoRequest& req : r.reads.done) {
    const Anatomy& a = req.anatomy;
    REQUIRE_FALSE(req.error);
    const Picos retry = a[Part::kReadRetry];
    const std::uint64_t k = retry / (attempt - decode);
    CHECK(retry == k * (attempt - decode));  // whole retries: t_cmd, tR and data-out each
    CHECK(a[Part::kEcc] == (k + 1) * decode);
    CHECK(a[Part::kArray] == config.nand.t_read_ps[0]);  // the first attempt's tR
    CHECK(a[Part::kBusTransfer] == attempt_bus);
    exact += req.completed_ps - req.issued_ps == fixed + (k + 1) * attempt;
    if (k < by_retries.size()) ++by_retries[k];
    retries += k;
  }
  CHECK(exact == r.reads.done.size());
  CHECK(retries == r.retries);  // the anatomy's retries are the error model's
  CHECK(by_retries[1] > 0);
  CHECK(by_retries[2] > 0);  // some pages need more than one
  CHECK(r.uncorrectable == 0);
  CHECK(r.media_errors == 0);
}

TEST_CASE("Everything off: the same reads, no retry or ECC time, and no media state", "[timing][reliability]") {
  const DriveConfig config = worn_drive(false, 8);
  const Run r = run_reads(config, wear_phase(20000, 365ull * 86400), 64);
  const Picos fixed = link_time(config, true) + config.controller.firmware_cost_ps;
  const Picos attempt =
      config.nand.t_cmd_ps + transfer_picos(4096, config.nand.bus_bytes_per_s * 8) + config.nand.t_read_ps[0];
  for (const IoRequest& req : r.reads.done) {
    CHECK(req.completed_ps - req.issued_ps == fixed + attempt);
    CHECK(req.anatomy[Part::kReadRetry] == 0);
    CHECK(req.anatomy[Part::kEcc] == 0);
  }
  CHECK(r.reads.done.size() == 64);
  CHECK_FALSE(r.media);  // no error model at all
}

TEST_CASE("An uncorrectable read fails its command after every retry level, and the host sees the error",
          "[timing][reliability]") {
  const DriveConfig config = worn_drive(true, 3, 1e6);  // every page far beyond BCH-15
  const Run r = run_reads(config, wear_phase(1000, 0), 32);
  REQUIRE(r.reads.done.size() == 32);
  const Picos attempt = config.nand.t_cmd_ps + transfer_picos(4096, config.nand.bus_bytes_per_s * 8) +
                        config.nand.t_read_ps[0] + config.controller.ecc.decode_ps;
  for (const IoRequest& req : r.reads.done) {
    CHECK(req.error);
    // No data FIS: the command, then the error status after 1 + 3 attempts.
    CHECK(req.completed_ps - req.issued_ps ==
          link_time(config, false) + config.controller.firmware_cost_ps + 4 * attempt);
  }
  CHECK(r.uncorrectable == 32);
  CHECK(r.media_errors == 32);
  CHECK(r.phase_errors == 32);
  CHECK(r.retries == 32 * 3);
}

TEST_CASE("A multi-page read with uncorrectable data fails once, and a partial write over uncorrectable data fails",
          "[timing][reliability]") {
  const DriveConfig config = worn_drive(true, 2, 1e6);  // every flash read uncorrectable
  PhaseSpec big = job_phase("big", RwMode::kRandRead, 65536, 1, percent(100));
  big.job.io_size = bytes(16 * 65536);
  big.job.io_size_set = true;
  // 2 KiB writes at 512-byte alignment: each covers part of a 4 KiB unit, whose old contents on
  // flash must be read first (read-modify-write).
  PhaseSpec partial = job_phase("partial", RwMode::kRandWrite, 2048, 1, percent(100));
  partial.job.io_size = bytes(16 * 2048);
  partial.job.io_size_set = true;
  partial.job.blockalign_bytes = 512;
  const ScenarioSpec s = scenario({erase_phase(), fast_precondition(100, 0, 3), wear_phase(1000, 0), big, partial});
  ReadLog reads;
  ScenarioRunner runner("unc", s, config);
  runner.ssd.add_probe(reads);
  sc_core::sc_start();
  INFO(runner.error());
  REQUIRE(runner.finished());
  const IoStats& r = runner.results()[3].io;
  const IoStats& w = runner.results()[4].io;
  CHECK(r.errors == 16);  // each 64 KiB read: 16 flash reads, one failed command
  CHECK(r.reads == 0);
  CHECK(w.errors > 0);  // a write over uncorrectable old contents fails (its RMW read did)
  CHECK(w.errors + w.writes == 16);
  const MediaHealth* m = runner.ssd.controller.media();
  REQUIRE(m);
  CHECK(m->stats().uncorrectable[0] >= 16 * 16);
  CHECK(runner.ssd.controller.stats().media_errors == r.errors + w.errors);
  CHECK(runner.ssd.controller.stats().rmw_reads >= w.errors);
  for (const IoRequest& req : reads.done) CHECK(req.error);
}

TEST_CASE("A drive whose grown bad blocks use up its spare turns read-only: writes fail, reads go on",
          "[timing][reliability][bad_blocks]") {
  // Blocks rated for 30 erases, 30 % failed by then: the drive wears out within the phase.
  DriveConfig config = worn_drive(false, 0);
  config.nand.endurance_pe = 30;
  config.nand.bad_blocks.grown = true;
  config.nand.bad_blocks.end_of_life = 0.3;
  PhaseSpec writes = job_phase("writes", RwMode::kRandWrite, 4096, 32, percent(100));
  writes.job.io_size = bytes(120000ull * 4096);
  writes.job.io_size_set = true;
  PhaseSpec reads = job_phase("reads", RwMode::kRandRead, 4096, 32, percent(100));
  reads.job.io_size = bytes(20000ull * 4096);
  reads.job.io_size_set = true;
  const ScenarioSpec s = scenario({erase_phase(), fast_precondition(100, 0, 3), writes, reads});
  ScenarioRunner runner("worn-out", s, config);
  sc_core::sc_start();
  INFO(runner.error());
  REQUIRE(runner.finished());
  const Ftl& ftl = runner.ssd.controller.ftl();
  const IoStats& w = runner.results()[2].io;
  const IoStats& r = runner.results()[3].io;
  REQUIRE(ftl.read_only());
  CHECK(ftl.stats().bad_blocks > 0);
  INFO("writes " << w.writes << " errors " << w.errors << " bad " << ftl.stats().bad_blocks);
  CHECK(w.writes > 0);  // it took writes until its spare was gone
  CHECK(w.errors > 0);  // then refused them
  CHECK(w.writes + w.errors == 120000);
  CHECK(runner.ssd.controller.stats().read_only_rejections == w.errors);
  CHECK(r.errors == 0);  // reads go on
  CHECK(r.reads == 20000);
  CHECK(ftl.check_invariants().empty());
  CHECK(runner.results()[2].stats.level("drive.controller.ftl.wear.read_only") == 1.0);
}
