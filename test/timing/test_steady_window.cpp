// Steady state of a timed phase (app/run/steady_window.h): the slope test on synthetic interval
// series, then on simulated phases; and the time series after an untimed phase.
#include <cmath>

#include <catch2/catch.hpp>

#include "app/run/fio_output.h"
#include "app/run/steady_window.h"
#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// Rows of 10 ms with these IOPS (4 KiB writes, WAF 2), from t = 0.
std::vector<Sample> rows(const std::vector<double>& iops) {
  std::vector<Sample> out;
  for (std::size_t i = 0; i < iops.size(); ++i) {
    Sample s;
    s.start_s = 0.01 * double(i);
    s.time_s = 0.01 * double(i + 1);
    s.iops = iops[i];
    s.write_mbps = iops[i] * 4096 / 1e6;
    s.host_units = static_cast<std::uint64_t>(iops[i] / 100);
    s.nand_units = 2 * s.host_units;
    out.push_back(s);
  }
  return out;
}

SteadyWindow judge(const std::vector<double>& iops) {
  const std::vector<Sample> s = rows(iops);
  double mean = 0;
  for (double v : iops) mean += v / double(iops.size());
  return steady_window(s, 0, s.size(), 0.0, s.back().time_s, mean);
}

}  // namespace

TEST_CASE("the least-squares line through equally spaced values", "[steady]") {
  const std::vector<double> y = {1, 3, 5, 7, 9};
  const LineFit f = fit_line(y.data(), y.size());
  CHECK(f.mean == Approx(5.0));
  CHECK(f.slope == Approx(2.0));
  const std::vector<double> flat = {4, 4, 4};
  CHECK(fit_line(flat.data(), flat.size()).slope == Approx(0.0).margin(1e-12));
}

TEST_CASE("a flat series is steady over all of it, a climbing one is not, and its mean mixes regimes", "[steady]") {
  std::vector<double> flat, climb;
  for (int i = 0; i < 60; ++i) {
    flat.push_back(1000 + (i % 2 ? 30 : -30));  // noise, no trend
    climb.push_back(1000 + 50.0 * i);
  }
  const SteadyWindow f = judge(flat);
  REQUIRE(f.judged);
  CHECK(f.steady);
  CHECK_FALSE(f.mixes_regimes);
  CHECK(f.intervals == 60);
  CHECK(f.iops == Approx(1000).epsilon(0.01));
  CHECK(f.waf == Approx(2.0));
  const SteadyWindow c = judge(climb);
  REQUIRE(c.judged);
  CHECK_FALSE(c.steady);
  CHECK(c.mixes_regimes);
  CHECK(c.drift > 0.1);
  CHECK(c.intervals == 20);  // figures of the last third
}

TEST_CASE("after a step the steady window starts at the step, and the phase's mean mixes regimes", "[steady]") {
  std::vector<double> step;
  for (int i = 0; i < 30; ++i) step.push_back(3000);
  for (int i = 0; i < 60; ++i) step.push_back(1000 + (i % 3 == 0 ? 20 : -10));
  const SteadyWindow w = judge(step);
  REQUIRE(w.judged);
  CHECK(w.steady);
  CHECK(w.intervals == 60);
  CHECK(w.start_s == Approx(0.30));
  CHECK(w.iops == Approx(1000).epsilon(0.01));
  CHECK(w.mixes_regimes);  // the phase's mean, 1,667 IOPS, is neither regime
  const std::string words = steady_words(steady_json(w), 1667);
  CHECK(words.rfind("WARNING", 0) == 0);
  CHECK(words.find("mixes regimes") != std::string::npos);
}

TEST_CASE("a phase with too few whole intervals is not judged", "[steady]") {
  const SteadyWindow w = judge(std::vector<double>(kMinSteadyIntervals - 1, 100.0));
  CHECK_FALSE(w.judged);
  CHECK_FALSE(w.mixes_regimes);
  CHECK(steady_words(steady_json(w), 100).find("not judged") != std::string::npos);
}

namespace {

const DriveConfig& small_drive() {
  static const DriveConfig config = drive_from_yaml(drive_yaml("2", "2", "128", "50us", "200MB/s", "6Gbps", "0.125"));
  return config;
}

PhaseSpec randwrite(const std::string& name, double io_percent) {
  PhaseSpec p = job_phase(name, RwMode::kRandWrite, 4096, 32, percent(100));
  p.job.io_size = percent(io_percent);
  p.job.io_size_set = true;
  p.job.norandommap = true;
  return p;
}

}  // namespace

TEST_CASE("random writes from a fresh drive into GC are not steady, after preconditioning they are",
          "[timing][steady]") {
  ScenarioSpec fresh = scenario({erase_phase(), randwrite("fresh", 150)});
  ScenarioSpec aged = scenario({erase_phase(), fast_precondition(100, 200, 3), randwrite("aged", 100)});
  fresh.sample_interval_ps = aged.sample_interval_ps = 20 * kPicosPerMs;
  ScenarioRunner a("fresh", fresh, small_drive());
  ScenarioRunner b("aged", aged, small_drive());
  run_to_end({&a, &b});
  const SteadyWindow& f = a.results()[1].steady;
  const SteadyWindow& s = b.results()[2].steady;
  INFO("fresh drift " << f.drift << ", aged drift " << s.drift);
  REQUIRE(f.judged);
  REQUIRE(s.judged);
  CHECK(a.results()[1].gc_erases() > 0);
  CHECK(f.mixes_regimes);
  CHECK(s.steady);
  CHECK_FALSE(s.mixes_regimes);
  // The steady window's figures are those of the phase here.
  CHECK(s.iops == Approx(b.results()[2].iops()).epsilon(0.1));
  CHECK(s.waf == Approx(b.results()[2].waf()).epsilon(0.1));
}

TEST_CASE("an untimed phase's flash work is not charged to the next interval of the time series", "[timing][steady]") {
  // Timed writes, then a precondition (thousands of GC erases in no simulated time), then timed
  // writes again: the rows hold the timed phases' erases only.
  ScenarioSpec s =
      scenario({erase_phase(), randwrite("before", 10), fast_precondition(100, 200, 3), randwrite("after", 30)});
  s.sample_interval_ps = 20 * kPicosPerMs;
  ScenarioRunner run("run", s, small_drive());
  run_to_end({&run});
  const std::vector<PhaseResult>& r = run.results();
  REQUIRE(r[2].gc_erases() > 1000);
  std::uint64_t rows_erases = 0, first_after = 0;
  bool first = true;
  for (const Sample& x : run.samples()) {
    rows_erases += x.gc_erases;
    if (x.phase == 3 && first) {
      first_after = x.gc_erases;
      first = false;
    }
  }
  REQUIRE_FALSE(first);
  const std::uint64_t timed = r[1].gc_erases() + r[3].gc_erases();
  CHECK(rows_erases <= timed);
  CHECK(first_after <= r[3].gc_erases());
  CHECK(first_after < r[2].gc_erases());
}

TEST_CASE("fio's steadystate ends a job once its criterion holds, and fio.json says it was attained",
          "[timing][steady][fio]") {
  // Random reads of a filled drive: flat IOPS, so iops:5% over 3 s holds 2 s after the ramp
  // and 3 s of data; the same job with a limit of 0 never holds and runs its 8 s.
  PhaseSpec read = job_phase("read", RwMode::kRandRead, 4096, 8, percent(100), 8 * kPicosPerSec);
  read.job.steadystate.kind = SteadyStateSpec::Kind::kIops;
  read.job.steadystate.limit = 5;
  read.job.steadystate.percent = true;
  read.job.steadystate.duration_ps = 3 * kPicosPerSec;
  read.job.steadystate.ramp_ps = kPicosPerSec;
  PhaseSpec never = read;
  never.job.steadystate.limit = 0;
  const ScenarioSpec a = scenario({erase_phase(), fast_precondition(100, 0, 1), read});
  const ScenarioSpec b = scenario({erase_phase(), fast_precondition(100, 0, 1), never});
  ScenarioRunner ra("a", a, small_drive());
  ScenarioRunner rb("b", b, small_drive());
  run_to_end({&ra, &rb});
  const PhaseResult& ok = ra.results()[2];
  const PhaseResult& no = rb.results()[2];
  REQUIRE(ok.fio_steady.enabled);
  CHECK(ok.fio_steady.attained);
  CHECK(ok.fio_steady.iops.size() == 3);
  CHECK(ok.fio_steady.criterion < 5);
  CHECK(ok.io_seconds() == Approx(4.0).epsilon(0.01));  // ramp 1 s + 3 s of figures
  CHECK_FALSE(no.fio_steady.attained);
  CHECK(no.io_seconds() == Approx(8.0).epsilon(0.01));
  const nlohmann::json fio = nlohmann::json::parse(fio_json(a, ra.results()));
  REQUIRE(fio["jobs"].size() == 1);
  const nlohmann::json& ss = fio["jobs"][0]["steadystate"];
  CHECK(ss["ss"] == "iops:5%");
  CHECK(ss["attained"] == 1);
  CHECK(ss["duration"] == 3);
  CHECK(ss["data"]["iops"].size() == 3);
  CHECK(ss["data"]["iops_mean"].get<double>() == Approx(ok.iops()).epsilon(0.05));
}
