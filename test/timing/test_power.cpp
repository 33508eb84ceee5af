// Power and energy (issue 26, docs/power.md): the energy of a span is each part's datasheet
// current or power times the time it was drawn, from the drive's own measured times; the dies'
// array times are the datasheet times of what they did, exactly; the SATA link's power states
// delay the next command by exactly their exit latency and account their time; everything off,
// the same timing and no power figures.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

#include "app/run/power_report.h"
#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "host/sata/sata_wire.h"
#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

DriveConfig power_drive() {
  DriveConfig config = drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps"));
  config.nand.t_prog_ps = {600 * kPicosPerUs, 600 * kPicosPerUs, 600 * kPicosPerUs};  // one tPROG: exact sums
  config.power.enabled = true;
  return config;
}

Picos read_time(const DriveConfig& config) {
  const auto wire = [&](FisKind kind, std::uint32_t bytes) {
    Fis f{kind, 0, AtaCommand::kReadFpdma, 0, 8, bytes};
    return SataWire(config.host.sata_line_bps, config.host.link_round_trip_dwords).time(f);
  };
  return wire(FisKind::kCommand, 0) + wire(FisKind::kDataToHost, 4096) + wire(FisKind::kSetDeviceBits, 0) +
         config.host.ahci_command_ps + config.host.ahci_completion_ps + config.controller.firmware_cost_ps +
         config.nand.t_cmd_ps + transfer_picos(4096, config.nand.bus_bytes_per_s * 8) + config.nand.t_read_ps[0];
}

// QD1 4 KiB random reads of a filled drive, `think` apart (from one's completion to the next's issue).
struct ThinkRun {
  ReadLog reads;
  PhaseResult phase;
  LinkStats link;
};

ThinkRun think_reads(const DriveConfig& config, Picos think, std::uint64_t n) {
  PhaseSpec reads = job_phase("qd1", RwMode::kRandRead, 4096, 1, percent(100));
  reads.job.io_size = bytes(n * 4096);
  reads.job.io_size_set = true;
  reads.job.thinktime_ps = think;
  const ScenarioSpec s = scenario({erase_phase(), fast_precondition(100, 0, 3), idle_phase(kPicosPerSec / 100), reads});
  ThinkRun out;
  ScenarioRunner runner("power", s, config);
  runner.ssd.add_probe(out.reads);
  sc_core::sc_start();
  INFO(runner.error());
  REQUIRE(runner.finished());
  out.phase = runner.results().back();
  out.link = runner.ssd.link.stats();
  return out;
}

}  // namespace

TEST_CASE("The energy of a span is each part's current or power times its time, part by part", "[power]") {
  PowerConfig p;
  p.nand_vcc_v = 3.0;
  p.nand_read_ma = 10;
  p.nand_program_ma = 20;
  p.nand_erase_ma = 30;
  p.nand_io_ma = 5;
  p.nand_standby_ma = 0.5;
  p.controller_idle_w = 0.2;
  p.controller_active_w = 0.4;
  p.controller_nj_per_byte = 2;
  p.dram_idle_w = 0.05;
  p.dram_nj_per_byte = 0.5;
  p.link_active_w = 0.1;
  p.link_partial_w = 0.04;
  p.link_slumber_w = 0.01;
  EnergyInputs in;
  in.span_s = 2;
  in.array_read_s = 0.5;
  in.array_program_s = 1.5;
  in.array_erase_s = 0.25;
  in.bus_s = 0.8;
  in.dies = 4;
  in.firmware_s = 0.3;
  in.data_bytes = 1e8;
  in.partial_s = 0.5;
  in.slumber_s = 1;
  const EnergyParts e = energy_of(p, in);
  // By hand: 3 V x (10 mA x 0.5 s + 20 mA x 1.5 s + 30 mA x 0.25 s) = 3 x 0.0425 = 0.1275 J.
  CHECK(e.nand_array == Approx(0.1275).epsilon(1e-12));
  CHECK(e.nand_io == Approx(3.0 * 0.005 * 0.8).epsilon(1e-12));                    // 0.012 J
  CHECK(e.nand_standby == Approx(3.0 * 0.0005 * 4 * 2).epsilon(1e-12));            // 0.012 J
  CHECK(e.controller == Approx(0.2 * 2 + 0.4 * 0.3 + 2e-9 * 1e8).epsilon(1e-12));  // 0.72 J
  CHECK(e.dram == Approx(0.05 * 2 + 0.5e-9 * 1e8).epsilon(1e-12));                 // 0.15 J
  CHECK(e.link == Approx(0.1 * 0.5 + 0.04 * 0.5 + 0.01 * 1).epsilon(1e-12));       // 0.08 J
  CHECK(e.total() == Approx(0.1275 + 0.012 + 0.012 + 0.72 + 0.15 + 0.08).epsilon(1e-12));
  // Nothing done: only what is drawn always.
  EnergyInputs idle;
  idle.span_s = 1;
  idle.dies = 4;
  const EnergyParts i = energy_of(p, idle);
  CHECK(i.nand_array == 0);
  CHECK(i.nand_io == 0);
  CHECK(i.total() == Approx(3.0 * 0.0005 * 4 + 0.2 + 0.05 + 0.1).epsilon(1e-12));
}

namespace {

// The array time of every flash op as the die timed it (array_start to array_end), by kind.
struct ArrayTimes : Probe {
  std::array<Picos, 3> ps{};
  std::array<std::uint64_t, 3> ops{};
  void nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t*, std::uint32_t) override {
    ps[std::size_t(op.kind)] += t.array_end - t.array_start;
    ++ops[std::size_t(op.kind)];
  }
};

double seconds(Picos ps) { return double(ps) / double(kPicosPerSec); }

}  // namespace

TEST_CASE(
    "The dies' array times are the ones the dies timed, page types and GC erases included, and turning power "
    "on changes no timing",
    "[power]") {
  // drive_yaml's MLC: tPROG 250 us (LSB) and 900 us (MSB); the overwrite phase makes GC erase.
  DriveConfig on = drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps"));
  on.power.enabled = true;
  DriveConfig off = on;
  off.power.enabled = false;
  PhaseSpec fill = job_phase("fill", RwMode::kWrite, 131072, 8, percent(100));
  PhaseSpec overwrite = job_phase("overwrite", RwMode::kRandWrite, 4096, 8, percent(100));
  overwrite.job.io_size = percent(150);
  overwrite.job.io_size_set = true;
  PhaseSpec read = job_phase("read", RwMode::kRandRead, 4096, 4, percent(100));
  read.job.io_size = bytes(4 << 20);
  read.job.io_size_set = true;
  const ScenarioSpec s = scenario({erase_phase(), fill, overwrite, read, idle_phase(kPicosPerSec / 10)});
  ScenarioRunner runner("power", s, on);
  ScenarioRunner plain("plain", s, off);
  ArrayTimes timed;
  runner.ssd.add_probe(timed);
  run_to_end({&runner, &plain});
  const std::vector<PhaseResult>& res = runner.results();
  REQUIRE(res.size() == 5);
  EnergyInputs sum;
  for (const PhaseResult& r : res) {
    if (r.sim_end_ps == r.sim_start_ps) continue;
    const EnergyInputs in = EnergyMeter(r.stats.catalogue(), on).inputs(r.stats);
    sum.array_read_s += in.array_read_s;
    sum.array_program_s += in.array_program_s;
    sum.array_erase_s += in.array_erase_s;
    INFO(r.name);
    CHECK(in.span_s == Approx(r.seconds()).epsilon(1e-12));
    // The phase's average power is its parts' energy over its time.
    const EnergyParts e = energy_of(on.power, in);
    CHECK(r.power_average_w ==
          Approx((e.nand_array + e.nand_io + e.nand_standby + e.controller + e.dram + e.link) / r.seconds())
              .epsilon(1e-12));
    CHECK(r.metric("power_w") == r.power_average_w);
  }
  // Every op the dies timed, summed by the probe, is in the statistics, exactly.
  CHECK(timed.ops[0] > 0);
  CHECK(timed.ops[1] > 0);
  CHECK(timed.ops[2] > 0);  // GC erased
  CHECK(sum.array_read_s == Approx(seconds(timed.ps[0])).epsilon(1e-12));
  CHECK(sum.array_program_s == Approx(seconds(timed.ps[1])).epsilon(1e-12));
  CHECK(sum.array_erase_s == Approx(seconds(timed.ps[2])).epsilon(1e-12));
  CHECK(timed.ps[2] == timed.ops[2] * on.nand.t_erase_ps);
  // Both page types were programmed: the mean tPROG lies strictly between LSB's and MSB's.
  CHECK(timed.ps[1] > timed.ops[1] * on.nand.t_prog_ps[0]);
  CHECK(timed.ps[1] < timed.ops[1] * on.nand.t_prog_ps[1]);
  // Work draws more than idling; idling draws what is drawn always (no host.link_pm: Active).
  CHECK(res[1].power_average_w > res[4].power_average_w);
  CHECK(res[3].power_average_w > res[4].power_average_w);
  const PowerConfig& p = on.power;
  const double always =
      p.nand_vcc_v * 1e-3 * p.nand_standby_ma * on.nand.dies() + p.controller_idle_w + p.dram_idle_w + p.link_active_w;
  CHECK(res[4].power_average_w == Approx(always).epsilon(1e-9));
  // summary.json's object holds the same figures; an untimed phase has none.
  const nlohmann::json j = power_json(res[1], on);
  CHECK(j["average_w"].get<double>() == Approx(res[1].power_average_w).epsilon(1e-12));
  CHECK(j["energy_j"].get<double>() == Approx(res[1].power_average_w * res[1].seconds()).epsilon(1e-12));
  CHECK(j["energy_per_io_uj"].get<double>() ==
        Approx(j["energy_j"].get<double>() / double(res[1].io.ios()) * 1e6).epsilon(1e-12));
  CHECK(power_json(res[0], on).is_null());  // the secure erase
  // Power is a reading: the drive without it did the same thing at the same times.
  const std::vector<PhaseResult>& same = plain.results();
  REQUIRE(same.size() == res.size());
  for (std::size_t k = 0; k < res.size(); ++k) {
    INFO(res[k].name);
    CHECK(same[k].sim_start_ps == res[k].sim_start_ps);
    CHECK(same[k].sim_end_ps == res[k].sim_end_ps);
    CHECK(same[k].io.ios() == res[k].io.ios());
    CHECK(same[k].io.latency()->mean() == res[k].io.latency()->mean());
    CHECK(same[k].io.latency()->quantile(0.99) == res[k].io.latency()->quantile(0.99));
    CHECK(same[k].gc_erases() == res[k].gc_erases());
    CHECK(std::isnan(same[k].power_average_w));
  }
}

namespace {

// QD1 reads `think` apart on a link that enters Partial after 100 us idle and Slumber after 2 ms:
// each read but the first waits `exit` for the link, each stretch spends `partial` and `slumber`
// asleep.
void check_link_sleep(Picos think, Picos LinkPmConfig::*exit_of, Picos partial, Picos slumber) {
  DriveConfig config = power_drive();
  config.host.link_pm.partial_after_ps = 100 * kPicosPerUs;
  config.host.link_pm.slumber_after_ps = 2 * kPicosPerMs;
  const LinkPmConfig& pm = config.host.link_pm;
  const Picos exit = exit_of ? pm.*exit_of : 0;
  const Picos base = read_time(config);
  const std::uint64_t n = 40;
  const ThinkRun r = think_reads(config, think, n);
  REQUIRE(r.reads.done.size() == n);
  for (std::size_t k = 1; k < n; ++k) {
    const IoRequest& req = r.reads.done[k];
    CHECK(req.issued_ps - r.reads.done[k - 1].completed_ps == think);
    CHECK(req.completed_ps - req.issued_ps == base + exit);
    CHECK(req.anatomy[Part::kLinkWake] == exit);
  }
  // The first read woke the link from Slumber: it had been idle since the drive started.
  CHECK(r.reads.done[0].anatomy[Part::kLinkWake] == pm.slumber_exit_ps);
  CHECK(r.reads.done[0].completed_ps - r.reads.done[0].issued_ps == base + pm.slumber_exit_ps);
  // Over the phase: n - 1 stretches of `think`, and the end of the one before the first read.
  const double partial_s = r.phase.stats.busy_seconds("drive.link.partial");
  const double slumber_s = r.phase.stats.busy_seconds("drive.link.slumber");
  CHECK(partial_s == Approx(double((n - 1) * partial) / double(kPicosPerSec)).margin(1e-12));
  CHECK(slumber_s >= double((n - 1) * slumber) / double(kPicosPerSec) - 1e-12);
  CHECK(slumber_s <= double((n - 1) * slumber) / double(kPicosPerSec) + 1e-3);
  CHECK(r.phase.stats.count("drive.link.partial_wakes") == (exit_of == &LinkPmConfig::partial_exit_ps ? n - 1 : 0));
  CHECK(r.phase.stats.count("drive.link.slumber_wakes") == (exit_of == &LinkPmConfig::slumber_exit_ps ? n : 1));
  CHECK(r.phase.stats.busy_seconds("drive.link.waking") ==
        Approx(double(pm.slumber_exit_ps + (n - 1) * exit) / double(kPicosPerSec)).epsilon(1e-12));
  // The PHY draws less asleep: the phase's link energy is each state's power times its time.
  const EnergyMeter meter(r.phase.stats.catalogue(), config);
  const EnergyInputs in = meter.inputs(r.phase.stats);
  const EnergyParts e = energy_of(config.power, in);
  const PowerConfig& p = config.power;
  CHECK(e.link == Approx(p.link_active_w * (in.span_s - partial_s - slumber_s) + p.link_partial_w * partial_s +
                         p.link_slumber_w * slumber_s)
                      .epsilon(1e-12));
}

}  // namespace

TEST_CASE("A command to a link idle for less than partial_after waits for nothing", "[power][link_pm]") {
  check_link_sleep(50 * kPicosPerUs, nullptr, 0, 0);
}

TEST_CASE("A command to a link in Partial waits exactly partial_exit, and its time in Partial is counted",
          "[power][link_pm]") {
  // The link is idle from one completion on the wire to the next command FIS: the think time,
  // and the host adapter's completion report and command fetch.
  const HostConfig host = power_drive().host;
  const Picos idle = kPicosPerMs + host.ahci_completion_ps + host.ahci_command_ps;
  check_link_sleep(kPicosPerMs, &LinkPmConfig::partial_exit_ps, idle - 100 * kPicosPerUs, 0);
}

TEST_CASE("A command to a link in Slumber waits exactly slumber_exit, after Partial then Slumber time",
          "[power][link_pm]") {
  check_link_sleep(5 * kPicosPerMs, &LinkPmConfig::slumber_exit_ps, 2 * kPicosPerMs - 100 * kPicosPerUs,
                   3 * kPicosPerMs);
}

TEST_CASE("Link power management and power reporting off: the same reads, and no power statistics",
          "[power][link_pm]") {
  DriveConfig config = power_drive();
  config.power.enabled = false;
  const ThinkRun r = think_reads(config, 5 * kPicosPerMs, 20);
  REQUIRE(r.reads.done.size() == 20);
  for (const IoRequest& req : r.reads.done) {
    CHECK(req.completed_ps - req.issued_ps == read_time(config));
    CHECK(req.anatomy[Part::kLinkWake] == 0);
  }
  const StatCatalogue& cat = r.phase.stats.catalogue();
  CHECK(cat.find("drive.link.partial") < 0);
  CHECK(cat.find("drive.nand.channel[0].die[0].array_read") < 0);
  CHECK(std::isnan(r.phase.power_average_w));
  CHECK(r.phase.power_peak_w < 0);
  CHECK(power_json(r.phase, config).is_null());
  CHECK(r.link.partial_wakes + r.link.slumber_wakes == 0);
}

TEST_CASE("Power: at QD4 the batch's first command wakes the link and the others wait for the same wake",
          "[power][link_pm]") {
  DriveConfig config = power_drive();
  config.host.link_pm.partial_after_ps = 100 * kPicosPerUs;
  config.host.link_pm.slumber_after_ps = 2 * kPicosPerMs;
  PhaseSpec reads = job_phase("qd4", RwMode::kRandRead, 4096, 4, percent(100));
  reads.job.io_size = bytes(40 * 4096);
  reads.job.io_size_set = true;
  reads.job.thinktime_ps = 5 * kPicosPerMs;  // after each batch of 4: wait for them all, then think
  reads.job.thinktime_blocks = 4;
  const ScenarioSpec s = scenario({erase_phase(), fast_precondition(100, 0, 3), idle_phase(kPicosPerSec / 100), reads});
  ReadLog log;
  ScenarioRunner runner("power", s, config);
  runner.ssd.add_probe(log);
  sc_core::sc_start();
  INFO(runner.error());
  REQUIRE(runner.finished());
  REQUIRE(log.done.size() == 40);
  const PhaseResult& r = runner.results().back();
  // Ten batches, ten wake-ups from Slumber; every request of a batch waited for its wake, the
  // first the whole exit latency, the others what was left of it.
  CHECK(r.stats.count("drive.link.slumber_wakes") == 10);
  CHECK(r.stats.count("drive.link.partial_wakes") == 0);
  std::uint64_t whole = 0;
  for (const IoRequest& req : log.done) {
    const Picos wake = req.anatomy[Part::kLinkWake];
    CHECK(wake > 0);
    CHECK(wake <= config.host.link_pm.slumber_exit_ps);
    whole += wake == config.host.link_pm.slumber_exit_ps;
    CHECK(req.anatomy.total() == req.completed_ps - req.issued_ps);
  }
  CHECK(whole >= 10);
  // The wire's busy time is FISes only, the wakes apart.
  CHECK(r.stats.busy_seconds("drive.link.busy") < 0.01);
  CHECK(r.stats.busy_seconds("drive.link.waking") == Approx(10 * 0.01).epsilon(1e-9));
}
