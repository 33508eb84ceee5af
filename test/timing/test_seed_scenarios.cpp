// The documents' experiments (scenarios/d*.yaml) on scaled-down drives: each test asserts the
// direction the document reports. The full-size runs are in docs/seed-scenarios.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "app/run/run_scenario.h"

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

// Where the bounds come from. The documents give a few figures and many words ("falls",
// "stable", "back to fresh"). Figures are held to a factor 2 of the document's. Words that say
// two figures are the same are held to the documents' one figure for "near": a TRIM-ed drive
// writing "only 3 % below" a secure-erased one (D7), doubled: 6 %. "Slower" means slower by
// more than that.
constexpr double kSame = 2 * 0.03;

}  // namespace

TEST_CASE("D3: after random writes, sequential writes collapse and recover pass after pass", "[seed][d3]") {
  // D3 starts from a secure erase, as the document does; its fresh reference is case 1's (D2).
  // Scale 0.2: with shared GC placement (vertex-30g-fw1275) a copy at 0.03 (61 blocks per die
  // against absolute free-block thresholds of 4-8) collects too often to recover at all.
  const auto [r, d2] = run_two("d3-vertex-random-then-sequential.yaml", "d2-vertex-fresh-vs-used.yaml", 0.2);
  const double fresh_w = d2["fresh_write"].write_mbps(), fresh_r = d2["fresh_read"].read_mbps();
  const double w1 = r["pass1_write"].write_mbps(), w2 = r["pass2_write"].write_mbps(),
               w3 = r["pass3_write"].write_mbps();
  CAPTURE(fresh_w, fresh_r, w1, w2, w3, r["pass1_read"].read_mbps(), r["pass1_write"].waf());
  // Pass 1 writes 25.6 MB/s against 159 fresh; reads 148 against 206.
  CHECK(w1 < 2.0 * (25.6 / 159.0) * fresh_w);
  CHECK(w2 > w1);  // rising over passes
  // The document's pass 3 writes faster again (40.8 -> 50 MB/s) and is still far from fresh:
  // shared GC placement (issue 14) recovers pass after pass, not in one pass.
  CHECK(w3 > w2);
  CHECK(w3 < (1.0 - kSame) * fresh_w);
  CHECK(r["pass1_write"].gc_units_copied() > 0);
  CHECK(r["pass1_read"].read_mbps() < (1.0 - kSame) * fresh_r);  // reads lose die parallelism
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
  // The document: a fresh drive "starts near 3270 IOPS and falls quickly"; a filled one is
  // "lower, but the curve is stable". Stable against falling: the filled curve (past its first
  // run, which still has the spare area) wanders less than the fresh one falls.
  CHECK(fresh.back() < fresh.front());
  CHECK(*fmax / *fmin < fresh.front() / fresh.back());
  CHECK(filled.front() < fresh.front());
  CHECK(fresh[5] > filled[5]);  // the document's sixth runs: fresh still ahead
  // IOMeter on a sequentially pre-filled Vertex: ~450 IOPS against 3270 fresh. Seed figures
  // are held to a factor 2 of the document's.
  CHECK(filled.back() < 2.0 * (450.0 / 3270.0) * fresh.front());
  CHECK(filled.back() > 0.5 * (450.0 / 3270.0) * fresh.front());
}

TEST_CASE("D5: TRIM of the unused space brings the figures back near fresh", "[seed][d5]") {
  const Run r = run_scaled("d5-vertex-trim-restores.yaml", 0.03);
  const double fresh_random = r["fresh_random_4k"].iops();
  CAPTURE(fresh_random, r["aged_random_4k"].iops(), r["trimmed_random_4k"].iops(), r["fresh_write"].write_mbps(),
          r["trimmed_write"].write_mbps(), r["fresh_read"].read_mbps(), r["trimmed_read"].read_mbps(),
          r["aged_read"].read_mbps());
  // Aged as in D4: ~450 IOPS against 3270 fresh in the document.
  CHECK(r["aged_random_4k"].iops() < 2.0 * (450.0 / 3270.0) * fresh_random);
  CHECK(r["trim_unused"].io.trims > 0);
  // "Sequential read, sequential write and random write all return to their original levels."
  CHECK(r["trimmed_random_4k"].iops() > (1.0 - kSame) * fresh_random);
  CHECK(r["trimmed_write"].write_mbps() > (1.0 - kSame) * r["fresh_write"].write_mbps());
  // Sequential reads of data rewritten after TRIM do not return to fresh in ssdlab (0.89 x fresh
  // at full size, 0.80 here: the rewritten layout spreads over fewer dies). A known departure
  // (issue 14): not asserted.
}

TEST_CASE("D6: fills with TRIM stay constant, without TRIM the weak-GC drive slows down", "[seed][d6]") {
  const auto [weak, strong] =
      run_two("d6-fill-delete-fill-jmicron-jmf602.yaml", "d6-fill-delete-fill-intel-510.yaml", 0.02);
  auto secs = [](const Run& r, const std::string& name) { return r[name].io_seconds(); };
  for (const Run* r : {&weak, &strong}) {
    const double on1 = secs(*r, "fill_trim_on#1"), on3 = secs(*r, "fill_trim_on#3");
    CAPTURE(on1, secs(*r, "fill_trim_on#2"), on3);
    // "Constant fill time" with TRIM.
    CHECK(on3 < (1.0 + kSame) * on1);
    CHECK(on3 > (1.0 - kSame) * on1);
  }
  const double weak_on = secs(weak, "fill_trim_on#3"), weak_off = secs(weak, "fill_trim_off#3");
  const double strong_on = secs(strong, "fill_trim_on#3"), strong_off = secs(strong, "fill_trim_off#3");
  CAPTURE(weak_on, secs(weak, "fill_trim_off#1"), secs(weak, "fill_trim_off#2"), weak_off, strong_on,
          secs(strong, "fill_trim_off#2"), strong_off);
  CHECK(weak_off > (1.0 + kSame) * weak_on);  // weak GC: "slower from R4 on"
  CHECK(weak_off / weak_on > strong_off / strong_on);
}

TEST_CASE("D7: background GC during idle time recovers write throughput", "[seed][d7]") {
  const auto [m4, intel] = run_two("d7-no-spare-area-crucial-m4.yaml", "d7-no-spare-area-intel-510.yaml", 0.03);
  auto ratio = [](const Run& r, const char* phase) { return r[phase].write_mbps() / r["fresh_write"].write_mbps(); };
  for (const Run* run : {&m4, &intel}) {
    const Run& r = *run;
    const char* scenario = run == &m4 ? "crucial-m4" : "intel-510";
    CAPTURE(scenario, r["fresh_write"].write_mbps(), r["full_write"].write_mbps(), r["idle_write"].write_mbps(),
            r["fresh_read"].read_mbps(), r["full_read"].read_mbps(), r["idle_read"].read_mbps(),
            r["erased_seq_write"].write_mbps(), r["trimmed_seq_write"].write_mbps());
    // "Fill the drive completely: performance drops. Leave it idle 30 minutes: background GC
    // recovers much of it": more than half of what the fill took.
    CHECK(ratio(r, "full_write") < 1.0);
    CHECK(ratio(r, "idle_write") - ratio(r, "full_write") > 0.5 * (1.0 - ratio(r, "full_write")));
    CHECK(r["idle_30min"].erases() > 0);  // the drive collected while idle
    // "After fill, TRIM of everything, then sequential write: only 3 % below the secure-erased figure."
    CHECK(r["trimmed_seq_write"].write_mbps() > (1.0 - kSame) * r["erased_seq_write"].write_mbps());
  }
  // No spare area is the document's point: the M4 loses more to a fill than the 510...
  CHECK(ratio(m4, "full_write") < ratio(intel, "full_write"));
  // ...and the 510 "recovers its write throughput" (to near fresh). The M4 recovers "but not to
  // fresh levels" in the document; ssdlab's M4 recovers fully (a known departure, issue 14), so
  // that half is not asserted. Nor are the read losses (M4 ~40 %, 510 ~8.5 %): ssdlab's are 0.
  CHECK(ratio(intel, "idle_write") > (1.0 - kSame));
}

TEST_CASE("D8: 512-byte-aligned 4 KiB writes are several times slower than 4 KiB-aligned ones", "[seed][d8]") {
  const Run r = run_scaled("d8-c300-misaligned.yaml", 0.02);
  const double aligned = r["aligned_4k"].write_mbps(), misaligned = r["aligned_512"].write_mbps();
  CAPTURE(aligned, misaligned, r["aligned_512"].rmw_reads());
  CHECK(aligned > (129.2 / 16.0) / 2.0 * misaligned);  // the document: 129.2 against 16 MB/s
  CHECK(r["aligned_512"].rmw_reads() > 0);
  CHECK(r["aligned_4k"].rmw_reads() == 0);
}

TEST_CASE("D9: random writes on a drive pre-filled by a test file are several times slower", "[seed][d9]") {
  const Run r = run_scaled("d9-m225-prefilled-vs-trimmed.yaml", 0.03);
  const double trimmed = r["trimmed_random_4k"].write_mbps(), prefilled = r["prefilled_random_4k"].write_mbps();
  CAPTURE(trimmed, prefilled, r["prefilled_random_4k"].waf());
  CHECK(trimmed > (11.8 / 2.5) / 2.0 * prefilled);  // the document: 11.8 against 2.5 MB/s
  CHECK(r["prefilled_random_4k"].gc_units_copied() > 0);
}

TEST_CASE("D10: a copy from USB 2.0 runs at the bridge's pace, SSD to SSD over eSATA 2.5x faster", "[seed][d10]") {
  // Full size: both are sequential streams of 20.1 GiB, seconds of simulation each.
  const auto [usb, esata] = run_two("d10-usb2-copy-source.yaml", "d10-esata-copy.yaml", 1.0);
  const double source = usb["copy_read_usb2"].read_mbps();
  const double paced = esata["copy_from_usb2"].write_mbps(), ssd = esata["copy_from_ssd"].write_mbps();
  CAPTURE(source, paced, ssd, usb["copy_read_usb2"].io_seconds(), esata["copy_from_ssd"].io_seconds());
  // The bridge's ceiling, counted from its transactions and turnarounds (host/usb/usb_wire.h):
  // CBW, 128 data packets and CSW in 125/13 us slots, three 125 us turnarounds.
  const double bridge = 65536.0 / ((130.0 * 125.0 / 13.0 + 3 * 125.0) * 1e-6) / 1e6;
  CHECK(source < bridge);
  CHECK(source > bridge / 1.25);  // a drive behind it, QD1, costs a little more
  // The document: 34.04 MB/s (20.1 GiB in 10 min 34 s) from the USB 2.0 disk, 87.02 MB/s (4 min 08 s)
  // SSD to SSD; each held to a factor 2, and their ratio (2.56) to a factor 1.5.
  CHECK(source > 34.04 / 2);
  CHECK(source < 34.04 * 2);
  CHECK(ssd > 87.02 / 2);
  CHECK(ssd < 87.02 * 2);
  CHECK(ssd / source > 2.56 / 1.5);
  CHECK(ssd / source < 2.56 * 1.5);
  // The destination keeps up with the USB 2.0 source: the copy takes the source's time.
  CHECK(paced == Approx(source).epsilon(0.01));
}
