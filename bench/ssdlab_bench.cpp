// ssdlab_bench: simulation-speed benchmarks of issue 5 ("Fast enough for real studies").
//
//   ssdlab_bench WORKLOAD [options]   runs one workload and prints one JSON line on stdout
//   ssdlab_bench table FILE.jsonl     prints those lines as a table
//
// Each workload runs in its own process (SystemC elaborates once per process). Only the
// measured phase is timed (PhaseResult::wall_seconds: from the job's start until the drive
// has drained its buffer); preconditioning is timed separately and reported beside it.
//
// Workloads (one per row of the table):
//   randread      4 KiB random reads, QD32, 64 GiB drive (filled first)
//   randwrite     4 KiB random writes, QD32, full 64 GiB drive at steady state (GC active)
//   randwrite16k  the same on the drive built from 16 KiB pages (not a target: for comparison)
//   seqwrite      128 KiB sequential writes, QD32, 64 GiB drive
//   rss1t         1 TiB drive (16 KiB pages), 4 KiB random writes with GC active: peak RSS
//   timeline      the event queue alone (callbacks per second; not a row of the issue)
//   precondition  full fill + 2x capacity random overwrite of a 256 GiB drive: the
//                 `precondition` phase at full size (timed), then the same work simulated on
//                 a scaled-down copy (extrapolated, for comparison)
#include <systemc>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/run/scenario_runner.h"
#include "base/config/config_loader.h"
#include "base/core/rng.h"
#include "base/time/timeline.h"
#include "bench/bench_support.h"
#include "bench/bench_table.h"
#include "controller/ftl/precondition.h"

#ifndef SSDLAB_BENCH_DRIVES
#define SSDLAB_BENCH_DRIVES "bench/drives"
#endif

namespace ssdlab::bench {
namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// CPU time (user + system) this process has used so far: unlike wall time it hardly moves
// when other processes compete for the cores.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct Options {
  std::string drives = SSDLAB_BENCH_DRIVES;
  std::string commit = "unknown";
  std::uint64_t requests = 0;        // measured-phase requests; 0 = the workload's default
  double overwrite = -1;             // randwrite/rss1t: random overwrite before measuring (x capacity)
  double fill = -1;                  // rss1t: fraction of the LPNs filled before the overwrite
  std::uint32_t gib = 0;             // precondition: raw GiB actually simulated (0 = default)
  std::string precondition = "ftl";  // randwrite/randread: ftl (direct), sim (simulated) or phase
  std::string drive;                 // the drive file in `drives` (empty: the row's own)
  std::uint64_t seed = 1;
  bool check = false;               // check FTL invariants after direct aging (slow on big drives)
  std::vector<std::string> params;  // drive config overrides (-p key=value), e.g. a smaller drive
  std::string trace;                // replay: the MSR trace (bench/make_msr_trace.sh)
};

// Tells a `perf record -D -1 --control=fifo:CTL,ACK` started around this process to start
// sampling now (env SSDLAB_BENCH_PERF_CTL=CTL and SSDLAB_BENCH_PERF_ACK=ACK), so that only the
// simulation is profiled, not the set-up.
void perf_enable() {
  const char* ctl = std::getenv("SSDLAB_BENCH_PERF_CTL");
  const char* ack = std::getenv("SSDLAB_BENCH_PERF_ACK");
  if (!ctl || !ack) return;
  std::ofstream(ctl) << "enable" << std::endl;
  std::ifstream in(ack);
  std::string reply;
  std::getline(in, reply);
}

PhaseSpec job(const std::string& name, RwMode rw, std::uint64_t bs, std::uint32_t depth, std::uint64_t io_bytes) {
  PhaseSpec p = make_job_phase(name, rw, bs, depth);
  if (io_bytes) {
    p.job.io_size = Amount{false, 0.0, io_bytes};
    p.job.io_size_set = true;
  }
  return p;
}

PhaseSpec job_percent(const std::string& name, RwMode rw, std::uint64_t bs, std::uint32_t depth, double io_percent) {
  PhaseSpec p = job(name, rw, bs, depth, 0);
  p.job.io_size = Amount{true, io_percent, 0};
  p.job.io_size_set = true;
  return p;
}

double gib(std::uint64_t bytes) { return double(bytes) / double(1ull << 30); }

Json drive_json(const DriveConfig& c) {
  Json j;
  j["name"] = c.name;
  j["raw_gib"] = gib(c.nand.raw_bytes());
  j["user_gib"] = std::round(gib(c.controller.user_bytes) * 100) / 100;
  j["dies"] = c.nand.dies();
  j["page_kib"] = c.nand.page_size_bytes / 1024;
  j["op"] = c.controller.op;
  return j;
}

// What one simulated phase measured, and the CPU seconds it took.
struct Phase {
  PhaseResult result;
  double cpu_s = 0;
  std::uint64_t callbacks = 0;  // the drive's event-queue callbacks during the phase
};

Json phase_json(const Phase& p) {
  const PhaseResult& r = p.result;
  Json j;
  j["name"] = r.name;
  j["requests"] = r.io.ios();
  j["wall_s"] = r.wall_seconds;
  j["req_per_wall_s"] = r.wall_seconds > 0 ? double(r.io.ios()) / r.wall_seconds : 0.0;
  j["cpu_s"] = p.cpu_s;
  j["req_per_cpu_s"] = p.cpu_s > 0 ? double(r.io.ios()) / p.cpu_s : 0.0;
  j["sim_s"] = r.io_seconds();
  j["sim_iops"] = r.iops();
  j["waf"] = r.waf();
  j["gc_erases"] = r.gc_erases();
  // Issue 28's measure: timed callbacks the drive asked for, per host request of the phase.
  j["callbacks"] = p.callbacks;
  j["callbacks_per_request"] = r.io.ios() ? double(p.callbacks) / double(r.io.ios()) : 0.0;
  return j;
}

// Runs `phases` on a drive built from `config`, after `prepare` (given the runner before
// the simulation starts: age the FTL, record memory). `after` sees the runner once the run is
// over, before it is destroyed: anything read from the drive is read there. Returns the phase
// results.
std::vector<Phase> simulate_phases(const DriveConfig& config, std::vector<PhaseSpec> phases, std::uint64_t seed,
                                   const std::function<void(ScenarioRunner&)>& prepare,
                                   const std::function<void(const ScenarioRunner&)>& after = nullptr) {
  ScenarioSpec s;
  s.name = "bench";
  s.path = "bench";
  s.seed = seed;
  s.phases = std::move(phases);
  ScenarioRunner runner("run", s, config);
  if (prepare) prepare(runner);
  std::vector<double> cpu;
  std::vector<std::uint64_t> callbacks;
  double cpu_mark = 0;
  std::uint64_t callbacks_mark = 0;
  runner.on_phase_done = [&](const PhaseResult&) {
    const double now = cpu_seconds();
    cpu.push_back(now - cpu_mark);
    cpu_mark = now;
    const std::uint64_t count = runner.ssd.timeline.callbacks();
    callbacks.push_back(count - callbacks_mark);
    callbacks_mark = count;
  };
  perf_enable();
  cpu_mark = cpu_seconds();
  callbacks_mark = runner.ssd.timeline.callbacks();
  sc_core::sc_start();
  if (!runner.error().empty()) throw std::runtime_error(runner.error());
  if (!runner.finished()) throw std::runtime_error("simulation stopped before the scenario ended");
  if (after) after(runner);
  std::vector<Phase> out;
  for (std::size_t i = 0; i < runner.results().size(); ++i) {
    out.push_back(Phase{runner.results()[i], i < cpu.size() ? cpu[i] : 0.0, i < callbacks.size() ? callbacks[i] : 0});
  }
  return out;
}

// Ages the runner's FTL directly: optional sequential fill of `fill` of the LPNs, then
// `overwrite` x capacity of uniform random overwrites. Adds what it did to `out`.
void age_direct(ScenarioRunner& runner, double fill, double overwrite, std::uint64_t seed, bool check, Json& out) {
  Ftl& ftl = runner.ssd.control().untimed_ftl();
  FtlAger ager(ftl);
  const auto t0 = Clock::now();
  const auto fill_end = static_cast<Lpn>(double(ftl.user_units()) * fill);
  ager.fill_range(0, fill_end);
  const double fill_s = seconds_since(t0);
  const auto t1 = Clock::now();
  Rng rng(seed * 7919 + 17);
  const auto over_units = static_cast<std::uint64_t>(double(ftl.user_units()) * overwrite);
  ager.overwrite_random(over_units, rng);
  const double over_s = seconds_since(t1);
  const FtlStats& st = ftl.stats();
  out["method"] = "ftl-direct";
  out["fill_units"] = fill_end;
  out["fill_wall_s"] = fill_s;
  out["overwrite_units"] = over_units;
  out["overwrite_wall_s"] = over_s;
  out["wall_s"] = fill_s + over_s;
  out["waf_overall"] = st.host_units_written ? double(st.nand_units_programmed()) / double(st.host_units_written) : 0.0;
  out["free_blocks"] = ftl.free_blocks_total();
  if (check) {
    const std::string err = ftl.check_invariants();
    out["invariants"] = err.empty() ? "ok" : err;
    if (!err.empty()) throw std::runtime_error("FTL invariants after aging: " + err);
  }
  std::cerr << "  aged directly: fill " << fill_end << " units in " << fill_s << " s, overwrite " << over_units
            << " units in " << over_s << " s\n";
}

void add_rate_target(Json& line, double rate, double target) {
  line["target"] = ">= " + std::to_string(static_cast<long long>(target)) + " req/wall s";
  line["meets_target"] = rate >= target;
}

// ---- rows ----------------------------------------------------------------------------------

// The row's drive: --drive if given, else `fallback`, both files in --drives.
DriveConfig row_drive(const Options& o, const std::string& fallback) {
  return load_drive_config(o.drives + "/" + (o.drive.empty() ? fallback : o.drive), o.params);
}

// The scenario's own precondition phase ({fill: 100%, random: overwrite x 100%}, method auto:
// replicated on a drive large enough), as `ssdlab run` ages a drive.
PhaseSpec precondition_phase(double overwrite) {
  PhaseSpec p;
  p.name = "precondition";
  p.kind = PhaseKind::kPrecondition;
  p.precondition.fill_percent = 100.0;
  p.precondition.random_percent = overwrite * 100.0;
  return p;
}

Json row_randread(const Options& o) {
  const DriveConfig c = row_drive(o, "bench64g.yaml");
  const std::uint64_t n = o.requests ? o.requests : 4000000;
  Json line;
  line["workload"] = "randread";
  line["row"] = "4 KiB random reads, QD32, 64 GiB drive";
  line["drive"] = drive_json(c);
  Json pre;
  std::vector<PhaseSpec> phases;
  if (o.precondition == "sim") {
    pre["method"] = "simulated (fill: 128 KiB sequential writes, QD32)";
    phases.push_back(job("fill", RwMode::kWrite, 128 * 1024, 32, 0));
  } else if (o.precondition == "phase") {
    pre["method"] = "the precondition phase (a fill)";
    phases.push_back(precondition_phase(0.0));
  }
  phases.push_back(job("randread_4k_qd32", RwMode::kRandRead, 4096, 32, n * 4096));
  const auto results = simulate_phases(c, phases, o.seed, [&](ScenarioRunner& r) {
    if (o.precondition == "ftl") age_direct(r, 1.0, 0.0, o.seed, o.check, pre);
  });
  if (o.precondition == "sim") pre["wall_s"] = results.front().result.wall_seconds;
  line.update(phase_json(results.back()));
  line.erase("name");
  line["peak_rss_mib"] = double(peak_rss_kib()) / 1024.0;
  line["precondition"] = pre;
  add_rate_target(line, line["req_per_wall_s"].get<double>(), 2e6);
  return line;
}

Json row_randwrite(const Options& o) {
  const DriveConfig c = row_drive(o, "bench64g.yaml");
  const std::uint64_t n = o.requests ? o.requests : 2000000;
  const double overwrite = o.overwrite >= 0 ? o.overwrite : 2.0;
  Json line;
  line["workload"] = "randwrite";
  line["row"] = "4 KiB random writes, QD32, full 64 GiB drive, GC active (steady state)";
  line["drive"] = drive_json(c);
  Json pre;
  std::vector<PhaseSpec> phases;
  if (o.precondition == "sim") {
    pre["method"] = "simulated (128 KiB sequential fill + 4 KiB random overwrite)";
    phases.push_back(job("fill", RwMode::kWrite, 128 * 1024, 32, 0));
    phases.push_back(job_percent("overwrite", RwMode::kRandWrite, 4096, 32, overwrite * 100.0));
  } else if (o.precondition == "phase") {
    pre["method"] = "the precondition phase (fill + random overwrite, method auto)";
    phases.push_back(precondition_phase(overwrite));
  }
  phases.push_back(job("randwrite_4k_qd32", RwMode::kRandWrite, 4096, 32, n * 4096));
  const auto results = simulate_phases(c, phases, o.seed, [&](ScenarioRunner& r) {
    if (o.precondition == "ftl") age_direct(r, 1.0, overwrite, o.seed, o.check, pre);
  });
  if (o.precondition != "ftl") {
    double w = 0;
    for (std::size_t i = 0; i + 1 < results.size(); ++i) w += results[i].result.wall_seconds;
    pre["wall_s"] = w;
  }
  line.update(phase_json(results.back()));
  line.erase("name");
  line["peak_rss_mib"] = double(peak_rss_kib()) / 1024.0;
  line["precondition"] = pre;
  add_rate_target(line, line["req_per_wall_s"].get<double>(), 1e6);
  return line;
}

// The randwrite row on the same 64 GiB drive built from 16 KiB pages (64 per 1 MiB block), the
// page size of today's NAND: a GC copy moves up to four 4 KiB units per read and per program,
// so a host write costs about a quarter of the NAND operations. Not a row of the table;
// it shows how much of the randwrite row's cost is the 4 KiB page.
Json row_randwrite16k(Options o) {
  o.params.push_back("nand.page_size=16KiB");
  o.params.push_back("nand.pages_per_block=64");
  Json line = row_randwrite(o);
  line["workload"] = "randwrite16k";
  line["row"] = "4 KiB random writes, QD32, full 64 GiB drive of 16 KiB pages, GC active (not a target)";
  line["target"] = "-";
  line["meets_target"] = true;
  return line;
}

// The event queue alone, for regressions in it: 64 die-like clients on lanes, each callback
// scheduling its client's next one 1-1000 us ahead, and a few timers on the heap lane doing the
// same. Not a row of the table.
Json row_timeline(const Options& o) {
  const std::uint64_t n = o.requests ? o.requests : 20000000;
  struct Client : TimerClient {
    void on_timer(std::uint32_t) override {
      if (*left == 0) return;
      --*left;
      const Picos next = Timeline::now() + kPicosPerUs + rng->below(999 * kPicosPerUs);
      if (on_lane) {
        timeline->at(lane, next, *this, 0);
      } else {
        timeline->at(next, *this, 0);
      }
    }
    Timeline* timeline = nullptr;
    Timeline::Lane lane{0};
    bool on_lane = true;
    Rng* rng = nullptr;
    std::uint64_t* left = nullptr;
  };
  Timeline timeline("timeline");
  Rng rng(o.seed);
  std::uint64_t left = n;
  std::vector<Client> clients(72);
  for (std::size_t i = 0; i < clients.size(); ++i) {
    Client& c = clients[i];
    c.timeline = &timeline;
    c.on_lane = i < 64;
    if (c.on_lane) c.lane = timeline.add_lane();
    c.rng = &rng;
    c.left = &left;
    if (c.on_lane) {
      timeline.at(c.lane, i * kPicosPerUs, c, 0);
    } else {
      timeline.at(i * kPicosPerUs, c, 0);
    }
  }
  const double cpu0 = cpu_seconds();
  const auto t0 = Clock::now();
  sc_core::sc_start();
  const double wall = seconds_since(t0), cpu = cpu_seconds() - cpu0;
  Json line;
  line["workload"] = "timeline";
  line["row"] = "event queue alone: 64 lanes + 8 heap timers, random delays 1-1000 us (not a target)";
  line["requests"] = timeline.callbacks();
  line["wall_s"] = wall;
  line["req_per_wall_s"] = double(timeline.callbacks()) / wall;
  line["cpu_s"] = cpu;
  line["req_per_cpu_s"] = double(timeline.callbacks()) / cpu;
  line["ns_per_callback"] = wall * 1e9 / double(timeline.callbacks());
  line["activations"] = timeline.activations();
  line["peak_rss_mib"] = double(peak_rss_kib()) / 1024.0;
  line["target"] = "-";
  line["meets_target"] = true;
  return line;
}

// One job on a fresh drive (nothing written first): the measured phase only.
Json fresh_drive_row(const Options& o, const char* workload, const char* row, const char* phase, RwMode rw,
                     std::uint64_t bs, std::uint64_t default_requests) {
  const DriveConfig c = row_drive(o, "bench64g.yaml");
  const std::uint64_t n = o.requests ? o.requests : default_requests;
  Json line;
  line["workload"] = workload;
  line["row"] = row;
  line["drive"] = drive_json(c);
  const auto results = simulate_phases(c, {job(phase, rw, bs, 32, n * bs)}, o.seed, nullptr);
  line.update(phase_json(results.back()));
  line.erase("name");
  line["peak_rss_mib"] = double(peak_rss_kib()) / 1024.0;
  line["precondition"] = Json{{"method", "none (fresh drive)"}};
  return line;
}

Json row_seqwrite(const Options& o) {
  Json line = fresh_drive_row(o, "seqwrite", "128 KiB sequential writes, QD32 (fresh 64 GiB drive)",
                              "seqwrite_128k_qd32", RwMode::kWrite, 128 * 1024, 400000);
  add_rate_target(line, line["req_per_wall_s"].get<double>(), 3e5);
  return line;
}

// 4 KiB random writes on a fresh drive (no GC: the drive has room for all of them), issue 28's
// "fresh random writes" row on the MQSim-equivalent drive (not in bench/run).
Json row_freshwrite(const Options& o) {
  Json line = fresh_drive_row(o, "freshwrite", "4 KiB random writes, QD32, fresh drive (no GC)",
                              "randwrite_4k_qd32_fresh", RwMode::kRandWrite, 4096, 1000000);
  line["target"] = "-";
  line["meets_target"] = true;
  return line;
}

Json row_rss1t(const Options& o) {
  const DriveConfig c = load_drive_config(o.drives + "/bench1t.yaml", o.params);
  const std::uint64_t n = o.requests ? o.requests : 1000000;
  const double fill = o.fill >= 0 ? o.fill : 1.0;
  const double overwrite = o.overwrite >= 0 ? o.overwrite : 0.25;
  Json line;
  line["workload"] = "rss1t";
  line["row"] = "1 TiB drive (16 KiB pages), 4 KiB random writes at steady state: peak RSS";
  line["drive"] = drive_json(c);
  const double rss_start = double(peak_rss_kib()) / 1024.0;
  Json pre, mem, p2l_json;
  const auto results = simulate_phases(
      c, {job("randwrite_4k_qd32", RwMode::kRandWrite, 4096, 32, n * 4096)}, o.seed,
      [&](ScenarioRunner& r) {
        mem["process_start_mib"] = rss_start;
        mem["after_construction_mib"] = double(peak_rss_kib()) / 1024.0;
        age_direct(r, fill, overwrite, o.seed, o.check, pre);
        mem["after_aging_mib"] = double(peak_rss_kib()) / 1024.0;
      },
      [&](const ScenarioRunner& r) {  // the P2L table as the run left it (the runner is gone after)
        const P2lTable& table = r.ssd.controller.ftl().p2l();
        p2l_json = Json{{"spilled", table.spilled()},
                        {"in_memory_mib", double(table.memory_bytes()) / 1048576.0},
                        {"spill_file_mib", double(table.file_bytes()) / 1048576.0},
                        {"block_loads", table.block_loads()},
                        {"block_stores", table.block_stores()}};
      });
  line.update(phase_json(results.back()));
  line.erase("name");
  const double peak = double(peak_rss_kib()) / 1024.0;
  mem["after_run_mib"] = peak;
  line["peak_rss_mib"] = peak;
  line["rss_mib"] = mem;
  line["precondition"] = pre;
  // What the firmware's tables alone take at this geometry (4 bytes per LPN and per unit).
  const Geometry g = Geometry::from(c);
  const double l2p = double(c.controller.user_bytes / g.unit_bytes) * 4 / 1048576.0;
  const double p2l = double(g.total_units) * 4 / 1048576.0;
  line["tables_mib"] = Json{{"l2p", l2p}, {"p2l", p2l}, {"per_block", double(g.blocks) * 29 / 1048576.0}};
  line["p2l"] = p2l_json;
  line["target"] = "peak RSS < 1536 MiB";
  line["meets_target"] = peak < 1536.0;
  std::ostringstream note;
  note << "RSS measured after a " << fill * 100 << " % sequential fill and " << overwrite
       << "x capacity of random overwrites done directly on the FTL (GC active, WAF not yet at steady state),"
          " then a simulated run. The L2P is allocated and touched at construction; the P2L table is above its"
          " 512 MiB memory budget, so it sits in a spill file with a cache of whole blocks (see \"p2l\")";
  line["note"] = note.str();
  return line;
}

Json row_precondition(const Options& o) {
  Json line;
  line["workload"] = "precondition";
  line["row"] = "preconditioning a 256 GiB drive: full fill + random overwrite of 2x capacity";
  // The fast path, at full size: what a scenario's `precondition` phase runs
  // (controller/ftl/precondition.h). The phase is FTL work only, so it runs here on the FTL
  // alone: SystemC elaborates once per process and the simulated comparison below needs it.
  {
    const DriveConfig full = load_drive_config(o.drives + "/bench256g.yaml", o.params);
    line["drive"] = drive_json(full);
    const double cpu0 = cpu_seconds();
    const auto t0 = Clock::now();
    Ftl ftl(full);
    const double build_s = seconds_since(t0);
    PreconditionSpec spec;
    spec.fill_percent = 100;
    spec.random_percent = 200;
    spec.seed = o.seed;
    const auto t1 = Clock::now();
    const PreconditionResult r = precondition(ftl, spec);
    const double wall = seconds_since(t1);
    const double cpu = cpu_seconds() - cpu0;
    const FtlStats& st = ftl.stats();
    line["requests"] = r.units_written;  // 4 KiB unit writes
    line["wall_s"] = wall;
    line["req_per_wall_s"] = wall > 0 ? double(r.units_written) / wall : 0.0;
    line["cpu_s"] = cpu;
    line["req_per_cpu_s"] = cpu > 0 ? double(r.units_written) / cpu : 0.0;
    line["waf"] = st.host_units_written ? double(st.nand_units_programmed()) / double(st.host_units_written) : -1.0;
    line["gc_erases"] = st.gc_erases;
    line["construction_wall_s"] = build_s;
    line["wall_s_256GiB"] = wall;
    line["peak_rss_mib"] = double(peak_rss_kib()) / 1024.0;
    line["method"] = "precondition phase (FTL only, no timing), full 256 GiB";
    if (o.check) line["invariants"] = ftl.check_invariants().empty() ? "ok" : ftl.check_invariants();
  }
  // For comparison: the same work simulated (timed), on a smaller copy, extrapolated.
  const std::uint32_t target_gib = 256;
  const std::uint32_t run_gib = o.gib ? o.gib : 16;
  DriveConfig c = load_drive_config(o.drives + "/bench256g.yaml", [&] {
    std::vector<std::string> p{"nand.blocks_per_plane=" + std::to_string(4096ull * run_gib / target_gib)};
    p.insert(p.end(), o.params.begin(), o.params.end());
    return p;
  }());
  const auto results = simulate_phases(c,
                                       {job("fill_128k_qd32", RwMode::kWrite, 128 * 1024, 32, 0),
                                        job_percent("overwrite_4k_qd32", RwMode::kRandWrite, 4096, 32, 200.0)},
                                       o.seed, nullptr);
  double wall = 0, cpu = 0;
  std::uint64_t reqs = 0;
  Json phases = Json::array();
  for (const Phase& p : results) {
    wall += p.result.wall_seconds;
    cpu += p.cpu_s;
    reqs += p.result.io.ios();
    phases.push_back(phase_json(p));
  }
  const double scale = double(target_gib) / double(run_gib);
  Json sim;
  sim["raw_gib"] = run_gib;
  sim["requests"] = reqs;
  sim["wall_s"] = wall;
  sim["req_per_wall_s"] = wall > 0 ? double(reqs) / wall : 0.0;
  sim["cpu_s"] = cpu;
  sim["phases"] = phases;
  sim["wall_s_256GiB_extrapolated"] = wall * scale;
  line["simulated"] = sim;
  line["peak_rss_mib"] = double(peak_rss_kib()) / 1024.0;
  line["target"] = "< 60 s wall (256 GiB)";
  line["meets_target"] = line["wall_s_256GiB"].get<double>() < 60.0;
  line["note"] = "requests are 4 KiB unit writes; 'simulated' is the same work through the timed drive on a " +
                 std::to_string(run_gib) + " GiB copy, extrapolated linearly to 256 GiB";
  return line;
}

#include "bench/bench_replay_rows.h"

}  // namespace
}  // namespace ssdlab::bench

int sc_main(int argc, char** argv) {
  using namespace ssdlab::bench;
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  CLI::App app{"ssdlab_bench: simulation-speed benchmarks (one workload per process)"};
  Options o;
  std::string workload, table_file;
  app.add_option("workload", workload,
                 "randread | randwrite | randwrite16k | freshwrite | seqwrite | rss1t | precondition | timeline | "
                 "replay | "
                 "replay_job | zipf | table")
      ->required();
  app.add_option("file", table_file, "for `table`: the JSON lines file");
  app.add_option("--drives", o.drives, "directory of the bench drive configs");
  app.add_option("--commit", o.commit, "commit hash to record in the output");
  app.add_option("--requests,-n", o.requests, "requests in the measured phase");
  app.add_option("--overwrite", o.overwrite, "randwrite/rss1t: random overwrite before measuring, x capacity");
  app.add_option("--fill", o.fill, "rss1t: fraction of the LPNs filled sequentially first");
  app.add_option("--gib", o.gib, "precondition: raw GiB simulated (256 = no extrapolation)");
  app.add_option("--precondition", o.precondition,
                 "randread/randwrite: ftl (direct, default), sim (simulated) or phase (randwrite: the scenario's "
                 "precondition phase, replicated where it can be)")
      ->check(CLI::IsMember({"ftl", "sim", "phase"}));
  app.add_option("--drive", o.drive,
                 "randread/randwrite/freshwrite/seqwrite: the drive file in --drives (default bench64g.yaml)");
  app.add_option("--seed", o.seed, "random seed");
  app.add_option("--trace", o.trace, "replay: the MSR trace to replay");
  app.add_flag("--check", o.check, "check FTL invariants after direct aging");
  app.add_option("-p,--param", o.params, "override a drive config key (e.g. -p nand.blocks_per_plane=128)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (workload == "table") return print_table(table_file);

  Json line;
  const std::string load_start = loadavg();
  const auto t0 = Clock::now();
  try {
    if (workload == "randread") {
      line = row_randread(o);
    } else if (workload == "randwrite") {
      line = row_randwrite(o);
    } else if (workload == "randwrite16k") {
      line = row_randwrite16k(o);
    } else if (workload == "freshwrite") {
      line = row_freshwrite(o);
    } else if (workload == "seqwrite") {
      line = row_seqwrite(o);
    } else if (workload == "timeline") {
      line = row_timeline(o);
    } else if (workload == "rss1t") {
      line = row_rss1t(o);
    } else if (workload == "precondition") {
      line = row_precondition(o);
    } else if (workload == "replay") {
      line = row_replay(o);
    } else if (workload == "replay_job") {
      line = row_replay_job(o);
    } else if (workload == "zipf") {
      line = row_zipf(o);
    } else {
      std::cerr << "unknown workload '" << workload << "'\n";
      return 2;
    }
  } catch (const std::exception& e) {
    line["workload"] = workload;
    line["error"] = e.what();
    std::cout << line.dump() << std::endl;
    return 1;
  }
  if (!o.params.empty()) line["overrides"] = o.params;
  line["process_wall_s"] = seconds_since(t0);
  line["commit"] = o.commit;
  line["loadavg_start"] = load_start;
  line["loadavg_end"] = loadavg();
  std::cout << line.dump() << std::endl;
  return 0;
}
