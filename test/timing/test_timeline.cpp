// The drive's event queue (base/time/timeline.h): callback order, cancellation, the hand-over to
// SystemC processes, and results that do not depend on whether the pump runs ahead.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "app/run/scenario_runner.h"
#include "base/time/timeline.h"
#include "phase_compare.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// Records (time, tag) of each callback; some callbacks schedule more.
struct Recorder : TimerClient {
  explicit Recorder(Timeline& t) : timeline(t) {}
  void on_timer(std::uint32_t what) override {
    log.emplace_back(Timeline::now(), what);
    if (what == 1) timeline.after(0, *this, 10);  // same time, after everything already due
    if (what == 2) timeline.after(500, *this, 20);
    if (what == 3) Timeline::notify(wake);  // a SystemC process waits for this
  }
  Timeline& timeline;
  sc_core::sc_event wake;
  std::vector<std::pair<Picos, std::uint32_t>> log;
};

struct Waiter : sc_core::sc_module {
  SC_HAS_PROCESS(Waiter);
  Waiter(sc_core::sc_module_name name, Recorder& r) : sc_core::sc_module(name), rec(r) { SC_THREAD(run); }
  void run() {
    wait(rec.wake);
    woke_at = sc_core::sc_time_stamp().value();
    seen = rec.log.size();
    rec.timeline.after(100, rec, 30);  // scheduled from a SystemC process, at its time
  }
  Recorder& rec;
  Picos woke_at = 0;
  std::size_t seen = 0;
};

// The same callbacks with look-ahead on (batch runs) and off (the paced NBD server): the order
// and the times the callbacks see are the same; only SystemC's own clock differs.
void run_order_case(bool lookahead) {
  Timeline timeline("timeline");
  timeline.set_lookahead(lookahead);
  Recorder rec(timeline);
  Waiter waiter("waiter", rec);
  timeline.at(2000, rec, 2);
  timeline.at(1000, rec, 1);
  timeline.at(1000, rec, 4);
  timeline.at(3000, rec, 3);
  timeline.at(3000, rec, 5);  // due at the same instant as the notify: runs before the waiter wakes
  timeline.at(9000, rec, 6);
  timeline.at(7000, rec, 7);
  timeline.cancel(rec, 7);
  sc_core::sc_start();
  const std::vector<std::pair<Picos, std::uint32_t>> expected{{1000, 1}, {1000, 4}, {1000, 10}, {2000, 2}, {2500, 20},
                                                              {3000, 3}, {3000, 5}, {3100, 30}, {9000, 6}};
  CHECK(rec.log == expected);
  CHECK(waiter.woke_at == 3000);
  CHECK(waiter.seen == 7);  // everything up to and including t = 3000
  CHECK(timeline.empty());
  if (lookahead) {
    // Run ahead: the waiter's callback at 3100 is the last one a SystemC process scheduled, so the
    // pump's activation at 3100 also runs the callback at 9000 (nothing of SystemC's is pending):
    // SystemC's clock stays at 3100 and the pump ran several callbacks per activation.
    CHECK(sc_core::sc_time_stamp().value() == 3100);
    CHECK(timeline.activations() < timeline.callbacks());
  } else {
    // Never ahead: SystemC's clock reaches every callback's time, one activation per distinct time.
    CHECK(sc_core::sc_time_stamp().value() == 9000);
    CHECK(timeline.activations() == 6);  // one per distinct time: 1000, 2000, 2500, 3000, 3100, 9000
  }
}

}  // namespace

TEST_CASE("timeline: callbacks run in time order, ties in scheduling order, notify hands over at the right time",
          "[timeline]") {
  run_order_case(true);
}

TEST_CASE("timeline: without look-ahead SystemC time follows every callback in the same order", "[timeline]") {
  run_order_case(false);
}

TEST_CASE("timeline: lanes and the heap share one order and a lane refuses callbacks out of time order", "[timeline]") {
  Timeline timeline("timeline");
  std::vector<Timeline::Lane> lanes;
  for (int i = 0; i < 5; ++i) lanes.push_back(timeline.add_lane());  // grows the tree past 4 leaves
  struct Log : TimerClient {
    void on_timer(std::uint32_t what) override { seen.emplace_back(Timeline::now(), what); }
    std::vector<std::pair<Picos, std::uint32_t>> seen;
  } log;
  // Same times on different lanes and on the heap: scheduling order decides.
  timeline.at(lanes[3], 100, log, 1);
  timeline.at(200, log, 2);
  timeline.at(lanes[0], 200, log, 3);
  timeline.at(lanes[3], 200, log, 4);  // a second one queued behind lane 3's head
  timeline.at(lanes[4], 50, log, 5);
  timeline.at(100, log, 6);
  timeline.at(lanes[3], 300, log, 7);
  CHECK_THROWS_AS(timeline.at(lanes[3], 250, log, 8), std::logic_error);
  sc_core::sc_start();
  const std::vector<std::pair<Picos, std::uint32_t>> expected{{50, 5},  {100, 1}, {100, 6}, {200, 2},
                                                              {200, 3}, {200, 4}, {300, 7}};
  CHECK(log.seen == expected);
  CHECK(timeline.empty());
}

TEST_CASE("timeline: a scenario gives the same results whether the pump runs ahead of SystemC or not", "[timeline]") {
  // Fills, GC, reads, an idle period with background GC and a TRIM: the D7 scenario, scaled.
  RunOptions options;
  options.scenario_path = std::string(SSDLAB_SOURCE_DIR) + "/scenarios/d7-no-spare-area-intel-510.yaml";
  options.scale = 0.02;
  ScenarioSpec ahead_spec;
  DriveConfig config;
  prepare_run(options, ahead_spec, config);
  // The second drive starts once the first has finished (SystemC elaborates once per process),
  // so that the first runs ahead freely.
  // Job seeds default to the phase's index: pin them before the second drive gets a phase more.
  for (std::size_t i = 0; i < ahead_spec.phases.size(); ++i) {
    PhaseSpec& p = ahead_spec.phases[i];
    if (p.kind == PhaseKind::kJob && !p.job.randseed_set) {
      p.job.randseed = ahead_spec.seed * 1000003ULL + i;
      p.job.randseed_set = true;
    }
  }
  ScenarioSpec step_spec = ahead_spec;
  PhaseSpec wait;
  wait.name = "wait_for_the_other";
  wait.kind = PhaseKind::kIdle;
  // Far longer than the first drive's run (120 simulated s), and within a phase's 1,000,000
  // time-series rows at the scaled sample interval (20 ms: 500,000 rows).
  wait.idle_ps = 10000 * kPicosPerSec;
  step_spec.phases.insert(step_spec.phases.begin(), wait);

  ScenarioRunner ahead("ahead", ahead_spec, config);
  ScenarioRunner step("step", step_spec, config);
  step.ssd.timeline.set_lookahead(false);
  sc_core::sc_start();
  REQUIRE(ahead.finished());
  REQUIRE(step.finished());
  REQUIRE(ahead.results().back().sim_end_ps < wait.idle_ps);

  check_same_phases(ahead.results(), step.results(), 1);
  // The same callbacks; running ahead needs far fewer SystemC activations.
  CAPTURE(ahead.ssd.timeline.activations(), step.ssd.timeline.activations());
  CHECK(ahead.ssd.timeline.callbacks() == step.ssd.timeline.callbacks());
  CHECK(ahead.ssd.timeline.activations() * 20 < step.ssd.timeline.activations());
}

TEST_CASE("timeline: 37 lanes and the heap run many random callbacks in time then scheduling order", "[timeline]") {
  // A lane count that is no power of two (the tree has exactly as many leaves, so leaves sit at
  // two depths), ties on purpose (times on a coarse grid), and callbacks that schedule on other
  // lanes and on the heap from inside the pump, as the drive's modules do. The reference is the
  // order the queue promises: by time, then by the order of scheduling.
  Timeline timeline("timeline");
  std::vector<Timeline::Lane> lanes;
  for (int i = 0; i < 36; ++i) lanes.push_back(timeline.add_lane());  // + lane 0 (the heap) = 37 leaves
  struct Chain : TimerClient {
    Timeline* timeline = nullptr;
    std::vector<Timeline::Lane>* lanes = nullptr;
    std::vector<Picos> lane_last;  // each lane's last scheduled time (lanes take times in order)
    std::uint64_t state = 12345;
    std::uint32_t scheduled = 0;
    std::vector<std::pair<Picos, std::uint32_t>> expected_keys;  // (time, scheduling number)
    std::vector<std::uint32_t> seen;
    std::uint64_t next() {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return state >> 33;
    }
    void schedule(Picos now) {
      const std::uint32_t id = scheduled++;
      const Picos when = now + 10 * (next() % 8);  // 0..70 ahead: many ties
      const std::uint64_t pick = next() % (lanes->size() + 4);
      if (pick < lanes->size() && when >= lane_last[pick]) {
        lane_last[pick] = when;
        timeline->at((*lanes)[pick], when, *this, id);
      } else {
        timeline->at(when, *this, id);  // the heap (lane 0) when the lane's order would break
      }
      expected_keys.emplace_back(when, id);
    }
    void on_timer(std::uint32_t what) override {
      seen.push_back(what);
      const std::uint64_t more = next() % 3;  // 0, 1 or 2 new callbacks: the chain lives on
      for (std::uint64_t k = 0; k < more && scheduled < 20000; ++k) schedule(Timeline::now());
    }
  } chain;
  chain.timeline = &timeline;
  chain.lanes = &lanes;
  chain.lane_last.assign(lanes.size(), 0);
  for (int k = 0; k < 200; ++k) chain.schedule(0);
  sc_core::sc_start();
  std::vector<std::pair<Picos, std::uint32_t>> order = chain.expected_keys;
  std::sort(order.begin(), order.end());
  std::vector<std::uint32_t> expected;
  for (const auto& k : order) expected.push_back(k.second);
  REQUIRE(chain.scheduled > 1000);
  CHECK(chain.seen == expected);
  CHECK(timeline.empty());
}
