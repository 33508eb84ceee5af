// Concurrent jobs and pacing (issue 13): jobs sharing the NCQ tags, thinktime, rate_iops,
// ramp_time, fsync, and open-loop issue times. Simulated time only.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

DriveConfig small_drive() {
  return drive_from_yaml(drive_yaml("2", "2", "32", "{lsb: 40us, msb: 70us}", "200MB/s", "6Gbps"));
}

// Every completed request: its issue order and LBA.
class IssueLog : public Probe {
 public:
  void command_done(const IoRequest& r) override { seq_lba[r.seq] = r.lba; }
  std::map<std::uint64_t, Lba> seq_lba;
};

PhaseSpec writes_at(const std::string& name, Amount offset, std::uint32_t iodepth, std::uint64_t ios) {
  PhaseSpec p = job_phase(name, RwMode::kWrite, 4096, iodepth, percent(25));
  p.job.offset = offset;
  p.job.number_ios = ios;
  p.job.name = name;
  return p;
}

std::uint64_t host_ios(const PhaseResult& r) { return r.stats.count("host.ios"); }

}  // namespace

TEST_CASE("two concurrent jobs interleave in the issue order and their counts add up to the drive's",
          "[timing][jobs]") {
  const DriveConfig config = small_drive();
  PhaseSpec both = writes_at("a", percent(0), 1, 300);
  both.more_jobs.push_back(writes_at("b", percent(50), 1, 200).job);
  IssueLog log;
  ScenarioRunner runner("jobs", scenario({erase_phase(), both}), config);
  runner.ssd.add_probe(log);
  sc_core::sc_start();
  REQUIRE(runner.finished());
  const PhaseResult& r = runner.results()[1];
  REQUIRE(r.jobs.size() == 2);
  CHECK(r.jobs[0].name == "a");
  CHECK(r.jobs[1].name == "b");
  CHECK(r.jobs[0].io.writes == 300);  // both finish, each its own amount
  CHECK(r.jobs[1].io.writes == 200);
  CHECK(r.jobs[0].io.writes + r.jobs[1].io.writes == r.io.writes);
  CHECK(r.io.ios() == host_ios(r));
  // In the issue order the jobs alternate while both run: b is in the upper half of the drive.
  const Lba half = runner.ssd.controller.user_sectors() / 2;
  std::vector<int> order;
  for (const auto& [seq, lba] : log.seq_lba) order.push_back(lba >= half ? 1 : 0);
  REQUIRE(order.size() == 500);
  std::size_t switches = 0;
  for (std::size_t i = 1; i < 400; ++i) switches += order[i] != order[i - 1];
  CAPTURE(switches);
  CHECK(order[0] != order[1]);
  CHECK(switches > 350);  // of 399 possible in the first 400 (both running)
}

TEST_CASE("concurrent jobs share the HBA's 32 NCQ tags", "[timing][jobs]") {
  const DriveConfig config = small_drive();
  PhaseSpec both = writes_at("a", percent(0), 24, 1000);
  both.more_jobs.push_back(writes_at("b", percent(50), 24, 1000).job);
  PhaseSpec alone = writes_at("a", percent(0), 24, 1000);
  const auto out =
      simulate_all({{scenario({erase_phase(), both}), config}, {scenario({erase_phase(), alone}), config}});
  const PhaseResult& two = out[0].results[1];
  const PhaseResult& one = out[1].results[1];
  CHECK(two.io.writes == 2000);
  CHECK(one.io.wait_tag_ps == 0);  // 24 in flight: a tag each
  CHECK(two.io.wait_tag_ps > 0);   // 48 in flight: 16 wait for a tag
  CHECK(two.jobs[0].io.wait_tag_ps > 0);
  CHECK(two.jobs[1].io.wait_tag_ps > 0);
}

TEST_CASE("thinktime at iodepth 1 adds the think time between requests", "[timing][jobs]") {
  const DriveConfig config = small_drive();
  const std::uint64_t n = 100;
  PhaseSpec fill = job_phase("fill", RwMode::kWrite, 128 * 1024, 8, percent(10));
  PhaseSpec plain = job_phase("read", RwMode::kRandRead, 4096, 1, percent(10));
  plain.job.number_ios = n;
  PhaseSpec think = plain;
  think.job.thinktime_ps = 100 * kPicosPerUs;
  PhaseSpec blocks = plain;  // thinktime_blocks=4: a think after every 4th request
  blocks.job.thinktime_ps = 100 * kPicosPerUs;
  blocks.job.thinktime_blocks = 4;
  const auto out = simulate_all({{scenario({erase_phase(), fill, plain}), config},
                                 {scenario({erase_phase(), fill, think}), config},
                                 {scenario({erase_phase(), fill, blocks}), config}});
  const PhaseResult& a = out[0].results[2];
  const PhaseResult& b = out[1].results[2];
  const PhaseResult& c = out[2].results[2];
  REQUIRE(a.io.reads == n);
  REQUIRE(b.io.reads == n);
  // A think after each request but the last: (n - 1) x 100 us more.
  const double grew = double(b.io.elapsed_ps() - a.io.elapsed_ps());
  CAPTURE(a.io.elapsed_ps(), b.io.elapsed_ps(), c.io.elapsed_ps());
  CHECK(grew == Approx(double(n - 1) * 100 * kPicosPerUs).epsilon(0.01));
  const double grew4 = double(c.io.elapsed_ps() - a.io.elapsed_ps());
  CHECK(grew4 == Approx(double(n / 4 - 1) * 100 * kPicosPerUs).epsilon(0.02));
}

TEST_CASE("rate_iops and rate cap each direction at the given rate", "[timing][jobs]") {
  const DriveConfig config = small_drive();
  PhaseSpec fill = job_phase("fill", RwMode::kWrite, 128 * 1024, 8, percent(10));
  PhaseSpec iops = job_phase("read", RwMode::kRandRead, 4096, 4, percent(50));
  iops.job.number_ios = 1000;
  iops.job.rate_iops = 1000;
  PhaseSpec bw = iops;  // 4 MiB/s of 4 KiB reads = 1024 IO/s
  bw.job.rate_iops = 0;
  bw.job.rate_bytes = 4 * 1024 * 1024;
  PhaseSpec mixed = job_phase("mix", RwMode::kRandRw, 4096, 4, percent(50));
  mixed.job.number_ios = 1000;
  mixed.job.rate_iops = 250;  // each direction on its own: about 500 IO/s in all
  const auto out = simulate_all({{scenario({erase_phase(), fill, iops}), config},
                                 {scenario({erase_phase(), fill, bw}), config},
                                 {scenario({erase_phase(), fill, mixed}), config}});
  REQUIRE(out[0].results[2].io.reads == 1000);
  REQUIRE(out[1].results[2].io.reads == 1000);
  CHECK(out[0].results[2].iops() == Approx(1000).epsilon(0.01));
  CHECK(out[1].results[2].iops() == Approx(1024).epsilon(0.01));
  const PhaseResult& m = out[2].results[2];
  CHECK(m.io.ios() == 1000);
  // The faster direction finishes its share at 250/s; the job lasts as long as the larger share.
  const double larger = double(std::max(m.io.reads, m.io.writes));
  CHECK(double(m.io.elapsed_ps()) / double(kPicosPerSec) == Approx((larger - 1) / 250.0).epsilon(0.01));
}

TEST_CASE("ramp_time completions are not counted and fsync issues a flush every N writes", "[timing][jobs]") {
  const DriveConfig config = small_drive();
  PhaseSpec ramp = job_phase("ramp", RwMode::kRandWrite, 4096, 4, percent(50), 20 * kPicosPerMs);
  ramp.job.ramp_ps = 10 * kPicosPerMs;
  PhaseSpec sync = job_phase("sync", RwMode::kWrite, 4096, 4, percent(50));
  sync.job.number_ios = 40;
  sync.job.flush_every = 4;
  PhaseSpec delayed = job_phase("delayed", RwMode::kWrite, 4096, 1, percent(50));
  delayed.job.number_ios = 10;
  delayed.job.startdelay_ps = 5 * kPicosPerMs;
  ScenarioRunner runner("pacing", scenario({erase_phase(), ramp, sync, delayed}), config);
  sc_core::sc_start();
  REQUIRE(runner.finished());
  const PhaseResult& r = runner.results()[1];
  CHECK(r.tally.ramp_ios > 0);
  CHECK(r.io.ios() > 0);
  CHECK(r.io.ios() + r.tally.ramp_ios == host_ios(r));  // the drive saw both
  CHECK(r.io.first_issue_ps == r.sim_start_ps + 10 * kPicosPerMs);
  // The runtime follows the ramp: I/O until about 30 ms after the start.
  CHECK(double(r.io.last_complete_ps - r.sim_start_ps) == Approx(30.0 * kPicosPerMs).epsilon(0.01));
  const PhaseResult& s = runner.results()[2];
  CHECK(s.io.writes == 40);
  CHECK(s.tally.flushes == 10);
  CHECK(host_ios(s) == 50);
  const PhaseResult& d = runner.results()[3];
  CHECK(d.io.writes == 10);
  CHECK(d.io.first_issue_ps == d.sim_start_ps + 5 * kPicosPerMs);
}

namespace {

// Reads at fixed issue times, then a flush: an open-loop source like a trace.
class TimedSource : public IoSource {
 public:
  TimedSource(std::uint32_t n, Picos gap) : m_n(n), m_gap(gap) {}
  bool next(IoSpec& io) override {
    if (m_i > m_n) return false;
    io = IoSpec{};
    if (m_i == m_n) {
      io.flush = true;
    } else {
      io.lba = Lba(m_i) * 8;
      io.sectors = 8;
      io.issue_at_ps = Picos(m_i + 1) * m_gap;
    }
    ++m_i;
    return true;
  }

 private:
  std::uint32_t m_n, m_i = 0;
  Picos m_gap;
};

// A drive and a host driver replaying one TimedSource at `iodepth`.
struct OpenLoop : sc_core::sc_module {
  Ssd ssd;
  HostDriver driver;
  IoStats stats;
  JobTally tally;
  Picos start_ps = 0;
  std::uint32_t iodepth;
  SC_HAS_PROCESS(OpenLoop);
  OpenLoop(sc_core::sc_module_name name, const DriveConfig& config, std::uint32_t depth)
      : sc_core::sc_module(name), ssd("ssd", config), driver("host", ssd.timeline), iodepth(depth) {
    driver.hba(ssd.hba);
    ssd.hba.completion(driver);
    SC_THREAD(run);
  }
  void run() {
    JobSpec pacing;
    pacing.iodepth = iodepth;
    start_ps = now_picos();
    driver.start_source(std::make_unique<TimedSource>(50, 5 * kPicosPerUs), pacing, stats, &tally);
    while (driver.running()) sc_core::wait(driver.done_event());
  }
};

}  // namespace

TEST_CASE("issue_at_ps holds requests until their time and the lateness is reported", "[timing][jobs]") {
  const DriveConfig config = small_drive();
  OpenLoop deep("deep", config, 32), shallow("shallow", config, 1);
  sc_core::sc_start();
  REQUIRE(!deep.driver.running());
  REQUIRE(!shallow.driver.running());
  for (const OpenLoop* o : {&deep, &shallow}) {
    CHECK(o->stats.reads == 50);
    CHECK(o->tally.flushes == 1);
    CHECK(o->tally.timed == 50);
  }
  // 32 tags and a read every 5 us: each goes at its time.
  CHECK(deep.tally.late == 0);
  CHECK(deep.tally.late_max_ps == 0);
  CHECK(deep.stats.read_latency_ps.count() == 50);
  // One at a time and a read takes longer than 5 us: every read after the first is late, and
  // later ones more so.
  const double read_ps = shallow.stats.read_latency_ps.mean();
  REQUIRE(read_ps > 5.0 * kPicosPerUs);
  CHECK(shallow.tally.late == 49);
  CHECK(double(shallow.tally.late_max_ps) > 40 * (read_ps - 5.0 * kPicosPerUs));
  CHECK(shallow.tally.late_mean_ps() < double(shallow.tally.late_max_ps));
  CHECK(shallow.tally.late_mean_ps() > 0);
}
