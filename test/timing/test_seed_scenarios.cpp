// The documents' experiments (scenarios/d*.yaml) on scaled-down drives: each test asserts the
// direction the document reports. The full-size runs are in docs/seed-scenarios.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <vector>
#include <string>

#include "model/sim/run_scenario.h"

using namespace ssdlab;

namespace {

struct Run {
  std::map<std::string, PhaseResult> phase;
  const PhaseResult& operator[](const std::string& name) const {
    const auto it = phase.find(name);
    if (it == phase.end()) FAIL("no phase named " << name);
    return it->second;
  }
};

std::pair<ScenarioSpec, DriveConfig> prepared(const std::string& scenario, double scale) {
  RunOptions options;
  options.scenario_path = std::string(SSDLAB_SOURCE_DIR) + "/scenarios/" + scenario;
  options.scale = scale;
  std::pair<ScenarioSpec, DriveConfig> run;
  prepare_run(options, run.first, run.second);
  return run;
}

Run collect(const RunOutcome& outcome) {
  Run run;
  for (const PhaseResult& r : outcome.results) run.phase[r.name] = r;
  return run;
}

Run run_scaled(const std::string& scenario, double scale) {
  const auto [spec, config] = prepared(scenario, scale);
  return collect(simulate(spec, config));
}

// Two scenarios side by side (SystemC elaborates once per process).
std::pair<Run, Run> run_two(const std::string& a, const std::string& b, double scale) {
  const auto outcomes = simulate_all({prepared(a, scale), prepared(b, scale)});
  return {collect(outcomes[0]), collect(outcomes[1])};
}

}  // namespace

TEST_CASE("D3: after random writes, sequential writes collapse and recover pass after pass", "[seed][d3]") {
  const Run r = run_scaled("d3-vertex-random-then-sequential.yaml", 0.03);
  const double fresh_w = r["fresh_write"].write_mbps(), fresh_r = r["fresh_read"].read_mbps();
  const double w1 = r["pass1_write"].write_mbps(), w2 = r["pass2_write"].write_mbps(), w3 = r["pass3_write"].write_mbps();
  CAPTURE(fresh_w, fresh_r, w1, w2, w3, r["pass1_read"].read_mbps(), r["pass1_write"].waf());
  CHECK(w1 < 0.5 * fresh_w);  // far below fresh
  CHECK(w2 > w1);             // rising over passes
  CHECK(w3 >= w2 * 0.98);
  CHECK(r["pass1_write"].gc_units_copied > 0);
  CHECK(r["pass1_read"].read_mbps() < 0.95 * fresh_r);  // reads lose die parallelism
}

TEST_CASE("D4: random-write IOPS fall on a fresh drive, lower and flatter on a filled one", "[seed][d4]") {
  const Run r = run_scaled("d4-vertex-random-write-decay.yaml", 0.03);
  auto runs = [&](const std::string& prefix) {
    std::vector<double> iops{r[prefix + "_run1"].iops()};
    for (int i = 1; i <= 11; ++i) iops.push_back(r[prefix + "_run#" + std::to_string(i)].iops());
    return iops;
  };
  const std::vector<double> fresh = runs("fresh"), filled = runs("filled");
  const auto [fmin, fmax] = std::minmax_element(filled.begin() + 1, filled.end());
  CAPTURE(fresh, filled);
  CHECK(fresh.back() < 0.7 * fresh.front());      // the fresh drive falls once its erased blocks are used
  CHECK(filled.front() < fresh.front());          // a filled drive starts lower...
  CHECK(filled.back() < 0.7 * fresh.front());
  CHECK(*fmax < 1.4 * *fmin);                     // ...and, past its spare area, stays level
  CHECK(fresh[5] > filled[5]);                    // the document's sixth runs: fresh still ahead
}

TEST_CASE("D5: TRIM of the unused space brings the figures back near fresh", "[seed][d5]") {
  const Run r = run_scaled("d5-vertex-trim-restores.yaml", 0.03);
  const double fresh_random = r["fresh_random_4k"].iops();
  CAPTURE(fresh_random, r["aged_random_4k"].iops(), r["trimmed_random_4k"].iops(), r["fresh_write"].write_mbps(),
          r["trimmed_write"].write_mbps(), r["fresh_read"].read_mbps(), r["trimmed_read"].read_mbps(),
          r["aged_read"].read_mbps());
  CHECK(r["aged_random_4k"].iops() < 0.6 * fresh_random);  // the ageing was real
  CHECK(r["trim_unused"].io.trims > 0);
  CHECK(r["trimmed_random_4k"].iops() > 0.85 * fresh_random);
  CHECK(r["trimmed_write"].write_mbps() > 0.9 * r["fresh_write"].write_mbps());
  // Sequential reads of data rewritten after TRIM: 0.89 x fresh at full size. Scaled down the
  // ratio wanders with the layout over dies: 0.80-0.89 at scales 0.03-0.1 (and 0.84 here with
  // simultaneous events run in the opposite order). The bound sits below that spread.
  CHECK(r["trimmed_read"].read_mbps() > 0.75 * r["fresh_read"].read_mbps());
}

TEST_CASE("D6: fills with TRIM stay constant; without TRIM the weak-GC drive slows down", "[seed][d6]") {
  const auto [weak, strong] =
      run_two("d6-fill-delete-fill-jmicron-jmf602.yaml", "d6-fill-delete-fill-intel-510.yaml", 0.02);
  auto secs = [](const Run& r, const std::string& name) { return r[name].io_seconds(); };
  for (const Run* r : {&weak, &strong}) {
    const double on1 = secs(*r, "fill_trim_on#1"), on3 = secs(*r, "fill_trim_on#3");
    CAPTURE(on1, secs(*r, "fill_trim_on#2"), on3);
    CHECK(on3 < 1.1 * on1);
    CHECK(on3 > 0.9 * on1);
  }
  const double weak_on = secs(weak, "fill_trim_on#3"), weak_off = secs(weak, "fill_trim_off#3");
  const double strong_on = secs(strong, "fill_trim_on#3"), strong_off = secs(strong, "fill_trim_off#3");
  CAPTURE(weak_on, secs(weak, "fill_trim_off#1"), secs(weak, "fill_trim_off#2"), weak_off, strong_on,
          secs(strong, "fill_trim_off#2"), strong_off);
  CHECK(weak_off > 1.3 * weak_on);
  CHECK(weak_off / weak_on > strong_off / strong_on);
}

TEST_CASE("D7: background GC during idle time recovers write throughput", "[seed][d7]") {
  const auto [m4, intel] = run_two("d7-no-spare-area-crucial-m4.yaml", "d7-no-spare-area-intel-510.yaml", 0.03);
  for (const Run* run : {&m4, &intel}) {
    const Run& r = *run;
    const char* scenario = run == &m4 ? "crucial-m4" : "intel-510";
    CAPTURE(scenario, r["fresh_write"].write_mbps(), r["full_write"].write_mbps(), r["idle_write"].write_mbps(),
            r["fresh_read"].read_mbps(), r["full_read"].read_mbps(), r["idle_read"].read_mbps(),
            r["erased_seq_write"].write_mbps(), r["trimmed_seq_write"].write_mbps());
    if (run == &m4) {
      // No spare area: a full drive writes far slower, and idle-time GC gives much of it back.
      CHECK(r["full_write"].write_mbps() < 0.8 * r["fresh_write"].write_mbps());
      CHECK(r["idle_write"].write_mbps() > 1.2 * r["full_write"].write_mbps());
    } else {
      // Spare area: the document says the 510 "recovers its write throughput". How far a full
      // drive drops depends on scale (2.5 % at full size, 15-21 % here), so only the
      // recovery is asserted.
      CHECK(r["full_write"].write_mbps() <= r["fresh_write"].write_mbps());
      CHECK(r["idle_write"].write_mbps() > 0.95 * r["fresh_write"].write_mbps());
      CHECK(r["idle_write"].write_mbps() > r["full_write"].write_mbps());
    }
    CHECK(r["idle_30min"].erases > 0);  // the drive collected while idle
    CHECK(r["trimmed_seq_write"].write_mbps() > 0.9 * r["erased_seq_write"].write_mbps());
  }
}

TEST_CASE("D8: 512-byte-aligned 4 KiB writes are several times slower than 4 KiB-aligned ones", "[seed][d8]") {
  const Run r = run_scaled("d8-c300-misaligned.yaml", 0.02);
  const double aligned = r["aligned_4k"].write_mbps(), misaligned = r["aligned_512"].write_mbps();
  CAPTURE(aligned, misaligned, r["aligned_512"].rmw_reads);
  CHECK(aligned > 3 * misaligned);
  CHECK(r["aligned_512"].rmw_reads > 0);
  CHECK(r["aligned_4k"].rmw_reads == 0);
}

TEST_CASE("D9: random writes on a drive pre-filled by a test file are several times slower", "[seed][d9]") {
  const Run r = run_scaled("d9-m225-prefilled-vs-trimmed.yaml", 0.03);
  const double trimmed = r["trimmed_random_4k"].write_mbps(), prefilled = r["prefilled_random_4k"].write_mbps();
  CAPTURE(trimmed, prefilled, r["prefilled_random_4k"].waf());
  CHECK(trimmed > 3 * prefilled);
  CHECK(r["prefilled_random_4k"].gc_units_copied > 0);
}
