// Trace replay through the simulated drive: closed loop ignores the trace's times, open loop
// (timing: trace) issues each request no earlier than its timestamp / speed, and the counts
// of a sample arrive at the drive.
#include <catch2/catch.hpp>

#include <fstream>

#include "app/run/run_scenario.h"
#include "base/config/config_loader.h"

using namespace ssdlab;

namespace {

const std::string kSource = SSDLAB_SOURCE_DIR;

ScenarioSpec replay_scenario(const std::string& trace, const std::string& timing, double speed) {
  ScenarioSpec s;
  s.name = "replay-" + timing;
  s.path = "replay.yaml";
  PhaseSpec p;
  p.name = "replay";
  p.kind = PhaseKind::kReplay;
  p.replay.trace = trace;
  p.replay.format = "disksim";
  p.replay.timing = timing;
  p.replay.speed = speed;
  p.replay.iodepth = 4;
  s.phases.push_back(p);
  return s;
}

std::uint64_t row(const PhaseResult& r, const std::string& name) {
  for (const auto& [n, v] : r.replay)
    if (n == name) return v;
  return ~std::uint64_t(0);
}

}  // namespace

// Open loop: the host driver issues each request at its IoSpec::issue_at_ps.
TEST_CASE("Replay open loop waits for each timestamp and speed 2 halves the gaps", "[replay]") {
  // Ten 4 KiB reads 1 ms apart: the last is due at 9 ms.
  const std::string trace = "replay_open_loop.txt";
  {
    std::ofstream out(trace);
    for (int i = 0; i < 10; ++i) out << i << ".0 0 " << i * 8 << " 8 1\n";
  }
  const DriveConfig config = load_drive_config(kSource + "/configs/scaled-fast.yaml");
  const auto runs = simulate_all({{replay_scenario(trace, "closed", 1.0), config},
                                  {replay_scenario(trace, "trace", 1.0), config},
                                  {replay_scenario(trace, "trace", 2.0), config}});
  const PhaseResult& closed = runs[0].results.at(0);
  const PhaseResult& open = runs[1].results.at(0);
  const PhaseResult& fast = runs[2].results.at(0);
  for (const PhaseResult* r : {&closed, &open, &fast}) CHECK(r->io.reads == 10);
  CHECK(closed.io_seconds() < 0.002);  // ten reads at QD4 on an idle drive: well under 1 ms each
  CHECK(open.io_seconds() >= 0.009);
  CHECK(open.io_seconds() < 0.011);
  CHECK(fast.io_seconds() >= 0.0045);
  CHECK(fast.io_seconds() < 0.0065);
}

TEST_CASE("Replay of the blkparse sample sends its reads writes and trim to the drive", "[replay]") {
  ScenarioSpec s = replay_scenario(kSource + "/test/data/traces/blkparse_sample.txt", "closed", 1.0);
  s.phases[0].replay.format = "blkparse";
  const RunOutcome out = simulate(s, load_drive_config(kSource + "/configs/scaled-fast.yaml"));
  const PhaseResult& r = out.results.at(0);
  // awk '$1 ~ /^[0-9]+,[0-9]+$/ && $6=="Q"' blkparse_sample.txt: 2 reads, 2 writes, 1 discard, 1 flush
  CHECK(r.io.reads == 2);
  CHECK(r.io.writes == 2);
  CHECK(r.io.trims == 1);
  CHECK(r.read_mbps() > 0);
  CHECK(row(r, "flushes") == 1);
  CHECK(row(r, "records") == 6);
}
