// Issue 23 (hardening round 2): every input a config loader reads is bounded, and what it
// cannot run is refused at load time naming file, line and key: config files that are not
// regular files or too large, jobs per phase, time-series rows per phase, repeat nesting,
// a fio job file given where a scenario was expected, fio's spellings.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/config/config_loader.h"
#include "base/config/fio_job.h"

using namespace ssdlab;

namespace {

template <class F>
std::string error_of(F&& load) {
  try {
    load();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string scenario_error(const std::string& yaml) {
  return error_of([&] { parse_scenario(yaml, "s.yaml"); });
}

std::string fio_error(const std::string& text) {
  return error_of([&] { fio_phases(parse_fio_job_file(text, "j.fio")); });
}

// A scratch file removed at the end of the test.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& name, const std::string& text)
      : path((std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))).string()) {
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

// `depth` repeat blocks nested in one another around a mark phase.
std::string nested_repeats(int depth) {
  std::string inner = "[mark]";
  for (int i = 0; i < depth; ++i) inner = "[{repeat: {count: 1, phases: " + inner + "}}]";
  return "drive: d.yaml\nphases: " + inner + "\n";
}

}  // namespace

TEST_CASE("a config file that is not a regular file is refused naming the path", "[limits][config]") {
  // /dev/zero would be read until memory runs out; /dev/null is the same kind of file and ends.
  CHECK_THAT(error_of([] { load_drive_config("/dev/null"); }), Catch::StartsWith("/dev/null: not a regular file"));
  CHECK_THAT(error_of([] { load_scenario("/dev/null"); }), Catch::StartsWith("/dev/null: not a regular file"));
  CHECK_THAT(error_of([] { load_fio_job_file("/dev/null"); }), Catch::StartsWith("/dev/null: not a regular file"));
  CHECK_THAT(error_of([] { load_drive_config("/tmp"); }), Catch::StartsWith("/tmp: not a regular file"));
  CHECK_THAT(error_of([] { load_drive_config("/no/such/file.yaml"); }),
             Catch::StartsWith("/no/such/file.yaml: cannot open"));
}

TEST_CASE("a config file over 1 MiB is refused before it is read", "[limits][config]") {
  // Valid YAML (comments) just over the limit: the size alone refuses it.
  const std::string comment = "# " + std::string(1021, 'x') + "\n";  // 1 KiB a line
  std::string text;
  for (int i = 0; i < 1025; ++i) text += comment;
  const TempFile big("ssdlab-big.yaml", text);
  CHECK_THAT(error_of([&] { load_scenario(big.path); }),
             Catch::StartsWith(big.path + ": 1049600 bytes, more than a config file may hold (1048576"));
  CHECK_THAT(error_of([&] { load_fio_job_file(big.path); }), Catch::Contains("more than a config file may hold"));
  // At the limit it is read (and then judged on its content).
  const TempFile fits("ssdlab-fits.yaml", text.substr(0, 1 << 20));
  CHECK_THAT(error_of([&] { load_scenario(fits.path); }), !Catch::Contains("more than a config file may hold"));
}

TEST_CASE("repeat blocks nest at most 8 deep, as the limit says", "[limits][scenario]") {
  CHECK(parse_scenario(nested_repeats(8), "s.yaml").phases.size() == 1);
  CHECK_THAT(scenario_error(nested_repeats(9)),
             Catch::StartsWith("s.yaml:2: phases[0]") && Catch::Contains("repeat blocks nest at most 8 deep"));
}

TEST_CASE("a phase runs at most 4096 jobs: numjobs, jobs lists and fio sections", "[limits][scenario][fio]") {
  // (A fio job file: at most 4096 jobs in all, clones included, as fio itself.)
  CHECK_THAT(scenario_error("drive: d.yaml\nphases:\n  - job:\n      rw: read\n      bs: 4k\n      numjobs: 4097\n"),
             Catch::StartsWith("s.yaml:6: phases[0].job.numjobs: must be between 1 and 4096, got 4097"));
  // A jobs list whose clones add up past the limit: located at the entry that passes it.
  const std::string list =
      "drive: d.yaml\nphases:\n  - jobs:\n      - {rw: read, bs: 4k, numjobs: 4000}\n"
      "      - {rw: write, bs: 4k, numjobs: 97}\n";
  CHECK_THAT(scenario_error(list), Catch::StartsWith("s.yaml:5: phases[0].jobs[1].numjobs: ") &&
                                       Catch::Contains("4097 jobs") && Catch::Contains("at most 4096"));
  std::string many = "drive: d.yaml\nphases:\n  - jobs:\n";
  for (int i = 0; i < 5000; ++i) many += "      - {rw: read, bs: 4k}\n";
  CHECK_THAT(scenario_error(many),
             Catch::StartsWith("s.yaml:4100: phases[0].jobs[4096]: ") && Catch::Contains("at most 4096"));
  CHECK_THAT(fio_error("[a]\nrw=read\nnumjobs=5000\n"), Catch::StartsWith("j.fio:3: numjobs: must be 1..4096"));
  std::string sections;
  for (int i = 0; i < 4097; ++i) sections += "[j" + std::to_string(i) + "]\nrw=read\n";
  CHECK_THAT(fio_error(sections),
             Catch::StartsWith("j.fio:8193: [j4096]: job section 4097; ") && Catch::Contains("at most 4096"));
  // fio counts clones against the same limit, over the whole file (its phases included).
  CHECK_THAT(fio_error("[a]\nnumjobs=4000\n[b]\nstonewall\nnumjobs=97\n"),
             Catch::StartsWith("j.fio:5: numjobs: 4097 jobs in the file; fio runs at most 4096 jobs in all"));
  CHECK_THAT(fio_error("[a]\nnumjobs=4096\n[b]\nstonewall\n"), Catch::StartsWith("j.fio:3: [b]: 4097 jobs"));
  const auto groups = fio_phases(parse_fio_job_file("[a]\nnumjobs=4000\n[b]\nstonewall\nnumjobs=96\n", "j.fio"));
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].more_jobs.size() == 3999);
  CHECK(groups[1].more_jobs.size() == 95);
}

TEST_CASE("a phase keeps at most 65536 requests in flight over its jobs", "[limits][scenario][fio]") {
  CHECK_THAT(fio_error("[a]\niodepth=65536\n[b]\niodepth=1\n"), Catch::StartsWith("j.fio:4: iodepth: ") &&
                                                                    Catch::Contains("65537 requests in flight") &&
                                                                    Catch::Contains("at most 65536"));
  CHECK_THAT(scenario_error("drive: d.yaml\nphases:\n  - job: {rw: read, bs: 4k, iodepth: 1024, numjobs: 65}\n"),
             Catch::StartsWith("s.yaml:3: phases[0].job") && Catch::Contains("66560 requests in flight"));
  CHECK(fio_error("[a]\niodepth=1024\nnumjobs=64\n") == "(no error)");
}

TEST_CASE("a phase whose time-series rows are known to pass the limit is refused naming sample_interval",
          "[limits][scenario]") {
  // 1 s of idle time sampled every picosecond: 10^12 rows (the 1.8 GB and a crash).
  CHECK_THAT(scenario_error("drive: d.yaml\nsample_interval: 1ps\nphases:\n  - {name: rest, idle: 1s}\n"),
             Catch::StartsWith("s.yaml:2: sample_interval: 1ps gives phase 'rest' (line 4)") &&
                 Catch::Contains("1000000000000 time-series rows") && Catch::Contains("at most 1000000"));
  // A time_based job runs its whole runtime; the default interval (10 ms) is named as such.
  CHECK_THAT(scenario_error("drive: d.yaml\nphases:\n  - job: {rw: read, bs: 4k, runtime: 3h, time_based: true}\n"),
             Catch::StartsWith("s.yaml:3: sample_interval: 10ms (the default) gives phase 'phase1' (line 3)") &&
                 Catch::Contains("1080000 time-series rows"));
  // A job that may end before its runtime is checked while it runs, not refused here.
  CHECK(scenario_error("drive: d.yaml\nsample_interval: 1ns\nphases:\n  - job: {rw: read, bs: 4k, runtime: 1s}\n") ==
        "(no error)");
  CHECK(scenario_error("drive: d.yaml\nsample_interval: 1ms\nphases:\n  - idle: 1000s\n") == "(no error)");
}

TEST_CASE("a fio job file given as a scenario is answered with --fio", "[scenario][fio]") {
  const TempFile held("held.fio", "; fio job file\n[global]\nbs=4k\n\n[held]\nrw=randread\nsize=1g\n");
  CHECK_THAT(error_of([&] { load_scenario(held.path); }),
             Catch::StartsWith(held.path + ":") &&
                 Catch::Contains("looks like a fio job file: run it with 'ssdlab run --fio " + held.path +
                                 " --drive CONFIG'"));
  // A YAML scenario with a syntax error gets no such hint.
  CHECK_THAT(scenario_error("drive: d.yaml\nphases: [mark\n"), !Catch::Contains("--fio"));
}

// The issue asked for gauss as an alias of normal; fio 3.33 refuses random_distribution=gauss:5
// ("failed parsing", checked with fio --parse-only): gauss is normal's alias for
// file_service_type only. A job file must stay one fio runs, so gauss is refused with that.
TEST_CASE("gauss is refused as fio refuses it and the message says to write normal", "[fio]") {
  CHECK_THAT(fio_error("[a]\nrw=randread\nrandom_distribution=gauss:5\n"),
             Catch::StartsWith("j.fio:3: random_distribution: gauss is not a random_distribution (fio refuses it "
                               "too") &&
                 Catch::EndsWith("write normal:5"));
  CHECK(fio_parse_distribution("normal:5:0.25", 1024).kind == RandomDist::kNormal);
}
