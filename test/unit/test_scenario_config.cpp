// Scenario loading: phases, fio-like job keys, drive path resolution and errors.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/config/config_loader.h"

using namespace ssdlab;

namespace {

// Line numbers in the tests below refer to this text.
const std::string kExample =
    "name: quickstart\n"                                          // 1
    "description: \"a quick run\"\n"                              // 2
    "drive: ../configs/default.yaml\n"                            // 3
    "overrides: [controller.op=0.28, \"nand.t_prog.msb=1ms\"]\n"  // 4
    "seed: 7\n"                                                   // 5
    "sample_interval: 5ms\n"                                      // 6
    "phases:\n"                                                   // 7
    "  - secure_erase\n"                                          // 8
    "  - name: fill\n"                                            // 9
    "    job:\n"                                                  // 10
    "      rw: write\n"                                           // 11
    "      bs: 128k\n"                                            // 12
    "      iodepth: 32\n"                                         // 13
    "      size: 100%\n"                                          // 14
    "  - job:\n"                                                  // 15
    "      rw: randrw\n"                                          // 16
    "      bs: 4KiB\n"                                            // 17
    "      io_size: 200%\n"                                       // 18
    "      offset: 1GiB\n"                                        // 19
    "      size: 50%\n"                                           // 20
    "      blockalign: 4k\n"                                      // 21
    "      runtime: 30\n"                                         // 22
    "      time_based:\n"                                         // 23
    "      rwmixread: 70\n"                                       // 24
    "      randseed: 1234\n"                                      // 25
    "  - {secure_erase: true, name: wipe}\n";                     // 26

// A scenario with one job phase whose job map has these entries (one per line, from line 4).
std::string one_job(const std::string& job_lines) {
  return "drive: d.yaml\n"
         "phases:\n"
         "  - job:\n" +
         job_lines;
}

std::string error_of(const std::string& yaml) {
  try {
    parse_scenario(yaml, "s.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

JobSpec job_of(const std::string& job_lines) { return parse_scenario(one_job(job_lines), "s.yaml").phases.at(0).job; }

}  // namespace

TEST_CASE("a full scenario parses into phases and jobs", "[scenario]") {
  const ScenarioSpec s = parse_scenario(kExample, "scenarios/quick.yaml");
  CHECK(s.path == "scenarios/quick.yaml");
  CHECK(s.name == "quickstart");
  CHECK(s.description == "a quick run");
  CHECK(s.drive_path == "configs/default.yaml");
  CHECK(s.overrides == std::vector<std::string>{"controller.op=0.28", "nand.t_prog.msb=1ms"});
  CHECK(s.seed == 7);
  CHECK(s.sample_interval_ps == 5 * kPicosPerMs);
  REQUIRE(s.phases.size() == 4);

  CHECK(s.phases[0].kind == PhaseKind::kSecureErase);
  CHECK(s.phases[0].name == "secure_erase");
  CHECK(s.phases[0].line == 8);

  const PhaseSpec& fill = s.phases[1];
  CHECK(fill.kind == PhaseKind::kJob);
  CHECK(fill.name == "fill");
  CHECK(fill.line == 9);
  CHECK(fill.job.rw == RwMode::kWrite);
  CHECK(fill.job.bs_bytes == 131072);
  CHECK(fill.job.iodepth == 32);
  CHECK(fill.job.size.is_percent);
  CHECK(fill.job.size.percent == 100.0);
  CHECK_FALSE(fill.job.io_size_set);

  const PhaseSpec& mixed = s.phases[2];
  CHECK(mixed.name == "phase3");
  CHECK(mixed.line == 15);
  CHECK(mixed.job.rw == RwMode::kRandRw);
  CHECK(mixed.job.bs_bytes == 4096);
  CHECK(mixed.job.io_size_set);
  CHECK(mixed.job.io_size.is_percent);
  CHECK(mixed.job.io_size.percent == 200.0);
  CHECK_FALSE(mixed.job.offset.is_percent);
  CHECK(mixed.job.offset.bytes == 1ULL << 30);
  CHECK(mixed.job.size.percent == 50.0);
  CHECK(mixed.job.blockalign_bytes == 4096);
  CHECK(mixed.job.runtime_ps == 30 * kPicosPerSec);
  CHECK(mixed.job.time_based);
  CHECK(mixed.job.rwmixread == 70);
  CHECK(mixed.job.randseed_set);
  CHECK(mixed.job.randseed == 1234);

  CHECK(s.phases[3].kind == PhaseKind::kSecureErase);
  CHECK(s.phases[3].name == "wipe");
  CHECK(s.phases[3].line == 26);
}

TEST_CASE("scenario and job keys take their defaults", "[scenario]") {
  const ScenarioSpec s = parse_scenario(one_job("      rw: read\n      bs: 4k\n"), "dir/sub/my_test.yaml");
  CHECK(s.name == "my_test");
  CHECK(s.description.empty());
  CHECK(s.drive_path == "dir/sub/d.yaml");
  CHECK(s.overrides.empty());
  CHECK(s.seed == 1);
  CHECK(s.sample_interval_ps == 10 * kPicosPerMs);
  REQUIRE(s.phases.size() == 1);
  CHECK(s.phases[0].name == "phase1");
  const JobSpec& job = s.phases[0].job;
  CHECK(job.rw == RwMode::kRead);
  CHECK(job.iodepth == 1);
  CHECK(job.size.is_percent);
  CHECK(job.size.percent == 100.0);
  CHECK_FALSE(job.io_size_set);
  CHECK_FALSE(job.offset.is_percent);
  CHECK(job.offset.bytes == 0);
  CHECK(job.blockalign_bytes == 0);
  CHECK(job.runtime_ps == 0);
  CHECK_FALSE(job.time_based);
  CHECK(job.rwmixread == 50);
  CHECK_FALSE(job.randseed_set);
}

TEST_CASE("the drive path is resolved against the scenario's directory", "[scenario]") {
  const std::string phases = "phases: [secure_erase]\n";
  CHECK(parse_scenario("drive: d.yaml\n" + phases, "s.yaml").drive_path == "d.yaml");
  CHECK(parse_scenario("drive: ../../configs/x.yaml\n" + phases, "test/scenarios/s.yaml").drive_path ==
        "configs/x.yaml");
  CHECK(parse_scenario("drive: /abs/./x/../d.yaml\n" + phases, "a/s.yaml").drive_path == "/abs/d.yaml");
  CHECK(parse_scenario("drive: ./d.yaml\n" + phases, "/srv/run/s.yaml").drive_path == "/srv/run/d.yaml");
}

TEST_CASE("overrides may be given as a map", "[scenario]") {
  const ScenarioSpec s = parse_scenario(
      "drive: d.yaml\n"
      "overrides: {controller.op: 0.28, nand.t_prog: {lsb: 1ms, msb: 2ms}}\n"
      "phases: [secure_erase]\n",
      "s.yaml");
  REQUIRE(s.overrides.size() == 2);
  CHECK(s.overrides[0] == "controller.op=0.28");
  CHECK(s.overrides[1].rfind("nand.t_prog={", 0) == 0);
  // The strings are accepted by the drive loader.
  const DriveConfig c = load_drive_config(std::string(SSDLAB_SOURCE_DIR) + "/configs/default.yaml", s.overrides);
  CHECK(c.controller.op == 0.28);
  CHECK(c.nand.t_prog_ps[1] == 2 * kPicosPerMs);
}

TEST_CASE("job sizes accept fio suffixes and the project's units", "[scenario]") {
  CHECK(job_of("      rw: write\n      bs: 128k\n").bs_bytes == 131072);
  CHECK(job_of("      rw: write\n      bs: 128K\n").bs_bytes == 131072);
  CHECK(job_of("      rw: write\n      bs: 1m\n").bs_bytes == 1048576);
  CHECK(job_of("      rw: write\n      bs: 1.5k\n").bs_bytes == 1536);
  CHECK(job_of("      rw: write\n      bs: 64KiB\n").bs_bytes == 65536);
  CHECK(job_of("      rw: write\n      bs: 512\n").bs_bytes == 512);
  CHECK(job_of("      rw: write\n      bs: 4k\n      size: 1g\n").size.bytes == 1ULL << 30);
  CHECK(job_of("      rw: write\n      bs: 4k\n      offset: 10%\n").offset.percent == 10.0);
  CHECK(job_of("      rw: write\n      bs: 4k\n      io_size: 12.5%\n").io_size.percent == 12.5);
}

TEST_CASE("rw accepts fio's names and alias", "[scenario]") {
  CHECK(job_of("      rw: rw\n      bs: 4k\n").rw == RwMode::kReadWrite);
  CHECK(job_of("      rw: readwrite\n      bs: 4k\n").rw == RwMode::kReadWrite);
  CHECK(job_of("      rw: randread\n      bs: 4k\n").rw == RwMode::kRandRead);
  CHECK(job_of("      rw: randwrite\n      bs: 4k\n").rw == RwMode::kRandWrite);
  CHECK(error_of(one_job("      rw: randwrit\n      bs: 4k\n")) ==
        "s.yaml:4: phases[0].job.rw: expected read, write, randread, randwrite, randrw, "
        "readwrite, trim, randtrim or trimwrite, got 'randwrit' (did you mean 'randwrite'?)");
}

TEST_CASE("runtime and time_based follow fio", "[scenario]") {
  CHECK(job_of("      rw: read\n      bs: 4k\n      runtime: 1.5\n").runtime_ps == 1500 * kPicosPerMs);
  CHECK(job_of("      rw: read\n      bs: 4k\n      runtime: 500ms\n").runtime_ps == 500 * kPicosPerMs);
  CHECK(job_of("      rw: read\n      bs: 4k\n      runtime: 2min\n").runtime_ps == 120 * kPicosPerSec);
  CHECK(job_of("      rw: read\n      bs: 4k\n      time_based: true\n").time_based);
  CHECK(job_of("      rw: read\n      bs: 4k\n      time_based: 1\n").time_based);
  CHECK_FALSE(job_of("      rw: read\n      bs: 4k\n      time_based: false\n").time_based);
  CHECK_THAT(error_of(one_job("      rw: read\n      bs: 4k\n      runtime: 5 weeks\n")),
             Catch::StartsWith("s.yaml:6: phases[0].job.runtime: invalid duration"));
}

TEST_CASE("job values are range checked", "[scenario]") {
  CHECK(error_of(one_job("      rw: write\n      bs: 1000\n")) ==
        "s.yaml:5: phases[0].job.bs: must be a non-zero multiple of 512 bytes, got 1000");
  CHECK(error_of(one_job("      rw: write\n      bs: 4KB\n")) ==
        "s.yaml:5: phases[0].job.bs: must be a non-zero multiple of 512 bytes, got 4KB");
  CHECK_THAT(error_of(one_job("      rw: write\n      bs: 4x\n")),
             Catch::StartsWith("s.yaml:5: phases[0].job.bs: invalid size \"4x\""));
  CHECK(error_of(one_job("      rw: write\n      bs: 4k\n      iodepth: 0\n")) ==
        "s.yaml:6: phases[0].job.iodepth: must be between 1 and 65536, got 0");
  CHECK(error_of(one_job("      rw: write\n      bs: 4k\n      size: 150%\n")) ==
        "s.yaml:6: phases[0].job.size: percentage must be 0% < N <= 100%, got 150%");
  CHECK(error_of(one_job("      rw: write\n      bs: 4k\n      size: 0%\n")) ==
        "s.yaml:6: phases[0].job.size: percentage must be 0% < N <= 100%, got 0%");
  CHECK(error_of(one_job("      rw: write\n      bs: 4k\n      size: 0\n")) ==
        "s.yaml:6: phases[0].job.size: must be > 0");
  CHECK(error_of(one_job("      rw: write\n      bs: 4k\n      offset: 100%\n")) ==
        "s.yaml:6: phases[0].job.offset: percentage must be 0% <= N < 100%, got 100%");
  CHECK(error_of(one_job("      rw: write\n      bs: 4k\n      io_size: 0%\n")) ==
        "s.yaml:6: phases[0].job.io_size: percentage must be N > 0%, got 0%");
  CHECK(error_of(one_job("      rw: write\n      bs: 4k\n      size: -5%\n")) ==
        "s.yaml:6: phases[0].job.size: expected a percentage like 50%, got '-5%'");
  CHECK(error_of(one_job("      rw: write\n      bs: 4k\n      blockalign: 100\n")) ==
        "s.yaml:6: phases[0].job.blockalign: must be a multiple of 512 bytes, got 100");
  CHECK(error_of(one_job("      rw: randrw\n      bs: 4k\n      rwmixread: 101\n")) ==
        "s.yaml:6: phases[0].job.rwmixread: must be between 0 and 100, got 101");
}

TEST_CASE("scenario structure errors carry file, line and key path", "[scenario]") {
  CHECK(error_of("phases: [secure_erase]\n") == "s.yaml:1: drive: required key missing");
  CHECK(error_of("drive: d.yaml\n") == "s.yaml:1: phases: required key missing");
  CHECK(error_of("drive: d.yaml\nphases: []\n") == "s.yaml:2: phases: must list at least one phase");
  CHECK(error_of("drive: d.yaml\nphases: secure_erase\n") == "s.yaml:2: phases: expected a list of phases");
  CHECK(error_of("drive: d.yaml\nphases:\n  - secure_erse\n") ==
        "s.yaml:3: phases[0]: unknown phase 'secure_erse' (did you mean 'secure_erase'?); a phase is "
        "secure_erase, mark or a map with one of job, fill, seqpass, trim, idle, repeat, secure_erase, "
        "mark, precondition, wear");
  CHECK(error_of(one_job("      rw: write\n      bss: 4k\n")) ==
        "s.yaml:5: phases[0].job.bss: unknown key (did you mean 'bs'?)");
  CHECK(error_of(one_job("      bs: 4k\n")) == "s.yaml:3: phases[0].job.rw: required key missing");
  CHECK(error_of("drive: d.yaml\nphases:\n  - secure_erase\n  - {name: x}\n") ==
        "s.yaml:4: phases[1]: a phase needs one of job, fill, seqpass, trim, idle, mark, repeat, "
        "secure_erase, precondition, wear");
  CHECK(error_of("drive: d.yaml\nphases:\n  - {secure_erase: true, job: {rw: read, bs: 4k}}\n") ==
        "s.yaml:3: phases[0].job: a phase does one thing: it already has 'secure_erase'");
  CHECK(error_of("drive: d.yaml\nphases:\n  - {job: {rw: read, bs: 4k}, jbo: 1}\n") ==
        "s.yaml:3: phases[0].jbo: unknown key (did you mean 'job'?)");
  CHECK(error_of("drive: d.yaml\nsample_interval: 0\nphases: [secure_erase]\n") ==
        "s.yaml:2: sample_interval: must be > 0");
  CHECK(error_of("drive: d.yaml\nsed: 3\nphases: [secure_erase]\n") ==
        "s.yaml:2: sed: unknown key (did you mean 'seed'?)");
  CHECK(error_of("drive: [d.yaml]\nphases: [secure_erase]\n") == "s.yaml:1: drive: expected a string, got a list");
  CHECK_THAT(error_of("drive: d.yaml\nphases: [secure_erase\n"),
             Catch::StartsWith("s.yaml:") && Catch::Contains("syntax error"));
}

TEST_CASE("scenario overrides must name drive config keys", "[scenario]") {
  CHECK(error_of("drive: d.yaml\noverrides: [nand.foo=1]\nphases: [secure_erase]\n") ==
        "s.yaml:2: overrides[0]: 'nand.foo' is not a drive config key");
  CHECK(error_of("drive: d.yaml\noverrides:\n  - controller.op\nphases: [secure_erase]\n") ==
        "s.yaml:3: overrides[0]: expected key.path=value, got 'controller.op'");
  CHECK(error_of("drive: d.yaml\noverrides: {nand.chanels: 4}\nphases: [secure_erase]\n") ==
        "s.yaml:2: overrides.nand.chanels: 'nand.chanels' is not a drive config key");
}

TEST_CASE("load_scenario reads a file and resolves the drive next to it", "[scenario]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "ssdlab_test_scenario" / "scenarios";
  fs::create_directories(dir);
  const fs::path file = dir / "soak.yaml";
  {
    std::ofstream out(file);
    out << "drive: ../configs/default.yaml\nphases: [secure_erase]\n";
  }
  const ScenarioSpec s = load_scenario(file.string());
  CHECK(s.path == file.string());
  CHECK(s.name == "soak");
  CHECK(s.drive_path == (dir.parent_path() / "configs" / "default.yaml").string());
  fs::remove(file);
  CHECK_THROWS_WITH(load_scenario(file.string()), file.string() + ": cannot open");
}

TEST_CASE("amounts resolve against a capacity", "[scenario]") {
  CHECK(Amount{true, 100.0, 0}.resolve(998576128) == 998576128);
  CHECK(Amount{true, 50.0, 0}.resolve(1001) == 500);
  CHECK(Amount{true, 200.0, 0}.resolve(4096) == 8192);
  CHECK(Amount{true, 0.0, 0}.resolve(4096) == 0);
  CHECK(Amount{false, 0.0, 12345}.resolve(4096) == 12345);
}

TEST_CASE("config enums have readable names", "[scenario][config]") {
  CHECK(std::string(to_string(RwMode::kRandRw)) == "randrw");
  CHECK(std::string(to_string(RwMode::kReadWrite)) == "readwrite");
  CHECK(std::string(to_string(CellType::kTlc)) == "TLC");
  CHECK(std::string(to_string(GcPolicyKind::kCostBenefit)) == "cost_benefit");
}

TEST_CASE("the seed phases: fill, seqpass, trim, idle, mark, repeat and expect", "[scenario]") {
  const ScenarioSpec s = parse_scenario(
      "drive: d.yaml\n"
      "phases:\n"
      "  - secure_erase\n"
      "  - mark\n"
      "  - {name: f, fill: 50%}\n"
      "  - {name: r, seqpass: read, expect: {read_mbps: 206}}\n"
      "  - {name: w, seqpass: {rw: write, bs: 64k}}\n"
      "  - {name: t, trim: unused}\n"
      "  - {name: t2, trim: {offset: 10%, size: 1GiB}}\n"
      "  - {name: i, idle: 30min}\n"
      "  - repeat:\n"
      "      count: 2\n"
      "      phases:\n"
      "        - {name: fill, fill: {size: 100%, bs: 1m}}\n"
      "        - {name: del, trim: all}\n",
      "s.yaml");
  REQUIRE(s.phases.size() == 12);
  CHECK(s.phases[1].kind == PhaseKind::kMark);
  CHECK(s.phases[2].kind == PhaseKind::kJob);
  CHECK(s.phases[2].job.rw == RwMode::kWrite);
  CHECK(s.phases[2].job.size.percent == 50.0);
  CHECK(s.phases[3].job.rw == RwMode::kRead);
  CHECK(s.phases[3].job.iodepth == 1);
  REQUIRE(s.phases[3].expect.size() == 1);
  CHECK(s.phases[3].expect[0].metric == "read_mbps");
  CHECK(s.phases[3].expect[0].value == 206.0);
  CHECK(s.phases[4].job.bs_bytes == 65536);
  CHECK(s.phases[5].trim.mode == TrimMode::kUnused);
  CHECK(s.phases[6].trim.mode == TrimMode::kRange);
  CHECK(s.phases[6].trim.size.bytes == (1ULL << 30));
  CHECK(s.phases[7].idle_ps == 30ULL * 60 * kPicosPerSec);
  CHECK(s.phases[8].name == "fill#1");
  CHECK(s.phases[9].name == "del#1");
  CHECK(s.phases[10].name == "fill#2");
  CHECK(s.phases[10].job.bs_bytes == 1 << 20);
  CHECK(s.phases[11].trim.mode == TrimMode::kAll);
}

TEST_CASE("bad seed phases name the file, line and key", "[scenario]") {
  CHECK(error_of("drive: d.yaml\nphases:\n  - {trim: some}\n") ==
        "s.yaml:3: phases[0].trim: expected all, unused or a map {offset, size}, got 'some'");
  CHECK(error_of("drive: d.yaml\nphases:\n  - {seqpass: randread}\n") ==
        "s.yaml:3: phases[0].seqpass: a sequential pass reads or writes: read or write");
  CHECK(error_of("drive: d.yaml\nphases:\n  - {idle: 0}\n") == "s.yaml:3: phases[0].idle: must be > 0");
  CHECK(error_of("drive: d.yaml\nphases:\n  - {fill: 50%, expect: {rd_mbps: 1}}\n") ==
        "s.yaml:3: phases[0].expect.rd_mbps: unknown key (did you mean 'read_mbps'?)");
  CHECK(error_of("drive: d.yaml\nphases:\n  - {fill: 50%, expect: {iops: fast}}\n") ==
        "s.yaml:3: phases[0].expect.iops: expected a number >= 0, got 'fast'");
  CHECK(error_of("drive: d.yaml\nphases:\n  - {repeat: {count: 0, phases: [mark]}}\n").find("phases[0].repeat.count") !=
        std::string::npos);
}

TEST_CASE("a precondition phase takes fill and random shares and a seed", "[scenario]") {
  const ScenarioSpec s = parse_scenario(
      "drive: d.yaml\nphases:\n  - {precondition: {fill: 100%, random: 150%, seed: 9}}\n  - {precondition: }\n",
      "s.yaml");
  REQUIRE(s.phases.size() == 2);
  CHECK(s.phases[0].kind == PhaseKind::kPrecondition);
  CHECK(s.phases[0].precondition.random_percent == 150.0);
  CHECK(s.phases[0].precondition.seed == 9);
  CHECK(s.phases[1].precondition.fill_percent == 100.0);
  CHECK(error_of("drive: d.yaml\nphases:\n  - {precondition: {fill: 120%}}\n") ==
        "s.yaml:3: phases[0].precondition.fill: must be at most 100%");
  CHECK(error_of("drive: d.yaml\nphases:\n  - {precondition: {random: lots}}\n") ==
        "s.yaml:3: phases[0].precondition.random: expected a percentage of the drive like 200%, got 'lots'");
}

TEST_CASE("a precondition phase is a fill unless random is given, and draws with replacement unless random_map",
          "[scenario][precondition]") {
  const ScenarioSpec s = parse_scenario(
      "drive: d.yaml\nphases:\n  - {precondition: {fill: 60%}}\n  - {precondition: {random: 50%}}\n"
      "  - {precondition: {random: 200%, random_map: true}}\n  - {precondition: }\n",
      "s.yaml");
  REQUIRE(s.phases.size() == 4);
  CHECK(s.phases[0].precondition.fill_percent == 60.0);
  CHECK(s.phases[0].precondition.random_percent == 0.0);  // a fill only
  CHECK(s.phases[1].precondition.fill_percent == 100.0);
  CHECK(s.phases[1].precondition.random_percent == 50.0);
  CHECK_FALSE(s.phases[1].precondition.random_map);
  CHECK(s.phases[2].precondition.random_map);
  CHECK(s.phases[3].precondition.random_percent == 0.0);
  CHECK_FALSE(s.phases[3].precondition.random_map);
  CHECK(error_of("drive: d.yaml\nphases:\n  - {precondition: {random_map: maybe}}\n")
            .find("s.yaml:3: phases[0].precondition.random_map") == 0);
}

// Issue 10: a nested repeat used to expand 10^8 phases at load time and exhaust memory.
TEST_CASE("repeat expansion is bounded and counted before anything is built", "[scenario][limits]") {
  // 400 x 400 = 160 000 phases: over the limit, but small enough to build if the bound is missing.
  const std::string over =
      "drive: d.yaml\n"
      "phases:\n"
      "  - secure_erase\n"
      "  - repeat:\n"  // 4: the repeat whose expansion is too large
      "      count: 400\n"
      "      phases:\n"
      "        - repeat: {count: 400, phases: [mark]}\n";
  const std::string message = error_of(over);
  CHECK_THAT(message, Catch::StartsWith("s.yaml:4: phases[1].repeat: expands to 160000 phases"));
  CHECK_THAT(message, Catch::Contains("at most 100000"));
  // Exactly at the limit still loads.
  const std::string at_limit =
      "drive: d.yaml\nphases:\n  - repeat: {count: 10000, phases: [{repeat: {count: 10, phases: [mark]}}]}\n";
  CHECK(parse_scenario(at_limit, "s.yaml").phases.size() == 100000);
}

TEST_CASE("the 10000 x 10000 repeat of the issue fails fast with the line of the repeat", "[scenario][limits]") {
  const std::string text =
      "drive: d.yaml\n"
      "phases:\n"
      "  - repeat:\n"
      "      count: 10000\n"
      "      phases:\n"
      "        - repeat:\n"  // 6
      "            count: 10000\n"
      "            phases: [mark]\n";
  // The inner repeat alone is 10 000 phases (fine); the outer one multiplies it past the limit.
  CHECK_THAT(error_of(text), Catch::StartsWith("s.yaml:3: phases[0].repeat: expands to 100000000 phases"));
  // Siblings add up: two repeats of 60 000 each exceed the limit at the second one.
  const std::string siblings =
      "drive: d.yaml\nphases:\n  - repeat: {count: 6000, phases: [mark, mark, mark, mark, mark, mark, mark, mark, "
      "mark, mark]}\n"
      "  - repeat: {count: 6000, phases: [mark, mark, mark, mark, mark, mark, mark, mark, mark, mark]}\n";
  CHECK_THAT(error_of(siblings),
             Catch::StartsWith("s.yaml:4: phases[1].repeat:") && Catch::Contains("120000 phases in all"));
}

TEST_CASE("a scenario file holds one YAML document", "[scenario]") {
  CHECK(error_of("drive: d.yaml\nphases: [secure_erase]\n---\nphases: [mark]\n") ==
        "s.yaml:4: a second YAML document starts here (after a '---' or '...' line); a scenario "
        "file holds one document");
  CHECK_THAT(error_of("drive: d.yaml\nphases: [secure_erase]\n...\nphases: [mark\n"),
             Catch::StartsWith("s.yaml:") && Catch::Contains("syntax error"));
  CHECK(parse_scenario("---\ndrive: d.yaml\nphases: [secure_erase]\n...\n", "s.yaml").phases.size() == 1);
}

// Found by fuzz_scenario: yaml-cpp 0.7's LoadAll never returns on a stray ',' (it hands out
// empty documents forever, allocating). The loader reads documents one at a time, boundedly.
TEST_CASE("a stray comma at the top level is an error and not a hang", "[scenario][limits]") {
  CHECK_THAT(error_of("#nt: 10000\n    , phases0\xdb"
                      "1d.y\xe2): f"),
             Catch::StartsWith("s.yaml:") && Catch::Contains("syntax error"));
  CHECK_THAT(error_of(" , b): f"), Catch::StartsWith("s.yaml:") && Catch::Contains("syntax error"));
  CHECK_THAT(error_of("drive: d.yaml\nphases: [mark]\n---\n,\n"),
             Catch::StartsWith("s.yaml:") && Catch::Contains("syntax error"));
}

TEST_CASE("YAML jobs lists and numjobs run jobs at the same time", "[scenario][jobs]") {
  const ScenarioSpec s = parse_scenario(
      "drive: d.yaml\n"
      "phases:\n"
      "  - name: both\n"
      "    jobs:\n"
      "      - {name: hot, rw: randwrite, bs: 4k, iodepth: 4, size: 10%, random_distribution: zipf:1.2}\n"
      "      - {name: cold, rw: randread, bs: 4k, numjobs: 2, offset_increment: 1g, thinktime: 50,\n"
      "         thinktime_blocks: 2, rate: 1m, rate_iops: 300, ramp_time: 2, startdelay: 10ms, fsync: 8}\n"
      "  - job: {rw: read, bs: 4k, numjobs: 3}\n",
      "s.yaml");
  REQUIRE(s.phases.size() == 2);
  const PhaseSpec& both = s.phases[0];
  CHECK(both.job.name == "hot");
  CHECK(both.job.distribution.kind == RandomDist::kZipf);
  CHECK_FALSE(both.job.paced());
  REQUIRE(both.more_jobs.size() == 2);
  for (std::uint32_t c = 0; c < 2; ++c) {
    const JobSpec& j = both.more_jobs[c];
    CHECK(j.name == "cold");
    CHECK(j.clone_index == c);
    CHECK(j.offset_increment.bytes == (1ull << 30));
    CHECK(j.thinktime_ps == 50 * kPicosPerUs);  // fio's unit for thinktime: us
    CHECK(j.thinktime_blocks == 2);
    CHECK(j.rate_bytes == 1024 * 1024);
    CHECK(j.rate_iops == 300);
    CHECK(j.ramp_ps == 2 * kPicosPerSec);
    CHECK(j.startdelay_ps == 10 * kPicosPerMs);
    CHECK(j.flush_every == 8);
  }
  CHECK(s.phases[1].more_jobs.size() == 2);  // numjobs: 3 = the job and two clones
  CHECK(s.phases[1].more_jobs[1].clone_index == 2);
}

TEST_CASE("bad jobs and numjobs keys name the file, line and key", "[scenario][jobs]") {
  CHECK(error_of("drive: d.yaml\nphases:\n  - jobs: []\n") == "s.yaml:3: phases[0].jobs: expected a list of job maps");
  CHECK(error_of("drive: d.yaml\nphases:\n  - jobs:\n    - {rw: read, bs: 4k}\n    - {rw: read, bs: 4k, numjob: 2}\n")
            .find("s.yaml:5: phases[0].jobs[1].numjob: unknown key (did you mean 'numjobs'?)") == 0);
  CHECK(error_of(one_job("      rw: read\n      bs: 4k\n      numjobs: 0\n")).find("s.yaml:6: phases[0].job.numjobs") ==
        0);
  CHECK(error_of(one_job("      rw: read\n      bs: 4k\n      thinktime: 5 parsecs\n"))
            .find("s.yaml:6: phases[0].job.thinktime") == 0);
  CHECK(
      error_of("drive: d.yaml\nphases:\n  - fio: nope.fio\n").find("s.yaml:3: phases[0].fio: nope.fio: cannot open") ==
      0);
}

TEST_CASE("a fio phase runs the job file's stonewall groups, the path relative to the scenario", "[scenario][jobs]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "ssdlab_test_fio_phase";
  fs::create_directories(dir / "jobs");
  {
    std::ofstream out(dir / "jobs" / "two.fio");
    out << "[global]\nbs=4k\nioengine=libaio\n[a]\nrw=randread\n[b]\nrw=randwrite\n[c]\nstonewall\nrw=read\n";
  }
  {
    std::ofstream out(dir / "s.yaml");
    out << "drive: d.yaml\nphases:\n  - secure_erase\n  - fio: jobs/two.fio\n";
  }
  const ScenarioSpec s = load_scenario((dir / "s.yaml").string());
  REQUIRE(s.phases.size() == 3);
  CHECK(s.phases[1].name == "a");
  CHECK(s.phases[1].line == 4);
  REQUIRE(s.phases[1].more_jobs.size() == 1);
  CHECK(s.phases[1].more_jobs[0].name == "b");
  CHECK(s.phases[2].name == "c");
  REQUIRE(s.notes.size() == 1);
  CHECK(s.notes[0].find("ioengine=libaio accepted and ignored") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a YAML job takes fio's steadystate keys", "[scenario][steady]") {
  const ScenarioSpec s = parse_scenario(
      "drive: d.yaml\nphases:\n  - job: {rw: randwrite, bs: 4k, steadystate: iops_slope:2%, steadystate_duration: 10,"
      " steadystate_ramp_time: 3s}\n",
      "s.yaml");
  const SteadyStateSpec& ss = s.phases[0].job.steadystate;
  CHECK(ss.kind == SteadyStateSpec::Kind::kIopsSlope);
  CHECK(ss.limit == Approx(2.0));
  CHECK(ss.percent);
  CHECK(ss.duration_ps == 10 * kPicosPerSec);
  CHECK(ss.ramp_ps == 3 * kPicosPerSec);
  CHECK(error_of("drive: d.yaml\nphases:\n  - job: {rw: randwrite, bs: 4k, steadystate: iops_slop:2%}\n") ==
        "s.yaml:3: phases[0].job.steadystate: unknown criterion 'iops_slop' (iops, iops_slope, bw or bw_slope)");
  CHECK(error_of("drive: d.yaml\nphases:\n  - job: {rw: randwrite, bs: 4k, steadystate: iops:2%, steadystate_duration: "
                 "1500ms}\n")
            .find("phases[0].job.steadystate_duration: must be a whole number of seconds") != std::string::npos);
}
