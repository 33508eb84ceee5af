// The person-at-a-terminal pieces that need the simulator's library: the latency-log probe fed
// by the host driver, per-interval percentiles, the progress line, CSV quoting.
#include <unistd.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/run/latency_log.h"
#include "app/run/progress.h"
#include "app/run/report.h"
#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "test/timing/timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

struct CountingProbe : Probe {
  std::uint64_t reads = 0, writes = 0;
  Picos max_latency = 0;
  void command_done(const IoRequest& r) override {
    (r.is_write() ? writes : reads) += 1;
    max_latency = std::max(max_latency, r.completed_ps - r.issued_ps);
  }
};

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string temp_path(const char* name) {
  return (std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/ssdlab-" +
          std::to_string(::getpid()) + "-" + name);
}

}  // namespace

TEST_CASE("a probe attached to the drive sees every completed request", "[timing][instruments]") {
  const DriveConfig config = drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps"));
  ScenarioSpec spec = scenario({job_phase("fill", RwMode::kWrite, 64 * 1024, 8, percent(50)),
                                job_phase("randread", RwMode::kRandRead, 4096, 4, percent(5))});
  spec.sample_interval_ps = kPicosPerMs;
  ScenarioRunner run("run", spec, config);
  CountingProbe probe;
  run.ssd.add_probe(probe);
  sc_core::sc_start();
  INFO(run.error());
  REQUIRE(run.finished());
  std::uint64_t reads = 0, writes = 0;
  Picos max_latency = 0;
  for (const PhaseResult& r : run.results()) {
    reads += r.io.reads;
    writes += r.io.writes;
    max_latency = std::max(max_latency, r.io.latency()->max());
  }
  CHECK(probe.reads == reads);
  CHECK(probe.writes == writes);
  CHECK(probe.max_latency == max_latency);
  // Per-interval percentiles: only where requests completed, ordered, within the run's range.
  std::uint64_t counted = 0;
  for (const Sample& s : run.samples()) {
    counted += s.latency_count;
    if (s.latency_count == 0) continue;
    CHECK(s.p50_ps > 0);
    CHECK(s.p50_ps <= s.p99_ps);
    CHECK(s.p99_ps <= max_latency);
  }
  CHECK(counted > 0);
  CHECK(counted <= reads + writes);
}

TEST_CASE("the latency log writes fio's format and the anatomy CSV inside its window", "[timing][instruments]") {
  IoRequest r;
  r.command = AtaCommand::kWriteFpdma;
  r.lba = 8;
  r.sectors = 8;
  r.issued_ps = 1500 * kPicosPerUs;
  r.completed_ps = 2 * kPicosPerMs + 123456;  // latency 623.456 ns over 500 us
  r.anatomy.start(r.issued_ps);
  r.anatomy.to(Part::kFirmware, r.issued_ps + 5 * kPicosPerUs);
  r.anatomy.to(Part::kArray, r.completed_ps);
  IoRequest late = r;
  late.completed_ps = 5 * kPicosPerSec;
  const std::string fio = temp_path("fio.log"), anatomy = temp_path("anatomy.csv");
  {
    LatencyLog log(fio, LatencyLogFormat::kFio, 0, kPicosPerSec);
    log.command_done(r);
    log.command_done(late);  // outside [0, 1 s]
    log.close();
    CHECK(log.lines() == 1);
  }
  std::vector<std::string> lines = lines_of(fio);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "2, 500123, 1, 4096, 4096");
  {
    LatencyLog log(anatomy, LatencyLogFormat::kAnatomy);
    log.command_done(r);
    log.close();
  }
  lines = lines_of(anatomy);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("time_ms,latency_ns,direction,bytes,offset,host_queue_ns,link_wait_ns,", 0) == 0);
  CHECK(std::count(lines[0].begin(), lines[0].end(), ',') == 4 + int(kParts));
  CHECK(std::count(lines[1].begin(), lines[1].end(), ',') == 4 + int(kParts));
  CHECK(lines[1].rfind("2.000123,500123.456,1,4096,4096,0.000,", 0) == 0);
  CHECK(lines[1].find(",5000.000,") != std::string::npos);    // firmware
  CHECK(lines[1].find(",495123.456,") != std::string::npos);  // array: the parts sum to the latency
  std::remove(fio.c_str());
  std::remove(anatomy.c_str());
  CHECK_THROWS_WITH(LatencyLog("/dev/null/x", LatencyLogFormat::kFio), Catch::Contains("/dev/null/x"));
}

TEST_CASE("latency windows parse as two ordered simulated times", "[instruments]") {
  Picos a = 0, b = 0;
  CHECK(parse_time_window("0.5,2", a, b));
  CHECK(a == kPicosPerSec / 2);
  CHECK(b == 2 * kPicosPerSec);
  for (const char* bad : {"", "1", "2,1", "1,1", "-1,2", "a,2", "1,2x", "1,,2", "0,1e30"}) {
    INFO(bad);
    CHECK_FALSE(parse_time_window(bad, a, b));
  }
}

TEST_CASE("the progress line waits redraws in place at a bounded rate and clears", "[terminal]") {
  std::ostringstream out;
  ProgressLine line(out, 2.0, 0.25);
  CHECK_FALSE(line.update(1, 3, "steady", 0.1, 1.0, 100.0));  // the phase starts: nothing yet
  CHECK_FALSE(line.update(1, 3, "steady", 0.2, 2.0, 101.0));
  CHECK(out.str().empty());
  CHECK(line.update(1, 3, "steady", 0.5, 3.0, 103.0));
  CHECK(out.str() == "\rphase 2/3 steady   50.0 %  sim 3.000 s  ETA 0m03s");
  CHECK_FALSE(line.update(1, 3, "steady", 0.6, 3.1, 103.1));  // under 0.25 s since the last
  out.str("");
  CHECK(line.update(1, 3, "steady", -1, 3.5, 103.5));  // unknown share, no ETA, shorter: padded
  const std::string text = ProgressLine::text(1, 3, "steady", -1, 3.5, -1);
  CHECK(text == "phase 2/3 steady     ?    sim 3.500 s  ETA ?");
  CHECK(out.str().substr(0, text.size() + 1) == "\r" + text);
  CHECK(out.str().size() > text.size() + 1);
  out.str("");
  line.clear();
  CHECK(out.str().front() == '\r');
  CHECK(out.str().back() == '\r');
  CHECK(out.str().find_first_not_of(" \r") == std::string::npos);
  CHECK_FALSE(line.shown());
  out.str("");
  line.clear();  // nothing shown: nothing written
  CHECK(out.str().empty());
  CHECK_FALSE(line.update(2, 3, "next", 0.9, 9.0, 104.0));  // a new phase waits again
  CHECK(ProgressLine::text(0, 1, "p", 0.25, 0, 7384).find("ETA 2h03m") != std::string::npos);
}

TEST_CASE("phase names in CSV files are quoted when they hold a comma or a quote", "[report]") {
  CHECK(csv_field("plain_name") == "plain_name");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  Sample s;
  s.phase = 0;
  const std::string csv = timeseries_csv({s}, {"fill, then read"});
  const std::string row = csv.substr(csv.find('\n') + 1);
  CHECK(row.rfind("0.000000,\"fill, then read\",", 0) == 0);
  CHECK(row.substr(row.size() - 3) == ",,\n");  // no request completed: p50_us, p99_us empty
}
