// fio job files: syntax, suffixes, ${VAR}, errors with their lines, and the JobSpec they give.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "base/config/config_loader.h"
#include "base/config/fio_job.h"

using namespace ssdlab;

namespace {

FioParseOptions env(std::map<std::string, std::string> vars, bool lenient = false) {
  FioParseOptions o;
  o.lenient = lenient;
  o.getenv = [vars](const std::string& name, std::string& value) {
    const auto it = vars.find(name);
    if (it == vars.end()) return false;
    value = it->second;
    return true;
  };
  return o;
}

FioJobFile parse(const std::string& text, const FioParseOptions& o = env({})) {
  return parse_fio_job_file(text, "job.fio", o);
}

std::string error_of(const std::string& text, const FioParseOptions& o = env({})) {
  try {
    const FioJobFile f = parse(text, o);
    for (const FioJob& j : f.jobs) fio_job_to_phase(j, "job.fio");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

// Line numbers in the tests below refer to this text.
const std::string kFile =
    "; a comment line\n"                 // 1
    "[global]\n"                         // 2
    "ioengine=libaio   # host-only\n"    // 3
    "direct=1\n"                         // 4
    "bs=4k\n"                            // 5
    "size=${SIZE}\n"                     // 6
    "norandommap\n"                      // 7
    "\n"                                 // 8
    "[first]\n"                          // 9
    "rw=randwrite\n"                     // 10
    "iodepth = 32 ; trailing comment\n"  // 11
    "random_distribution=zipf:1.2\n"     // 12
    "[second]\n"                         // 13
    "stonewall\n"                        // 14
    "rw=read:64k\n"                      // 15
    "bs=128k\n"                          // 16
    "runtime=2m\n"                       // 17
    "time_based\n";                      // 18

}  // namespace

TEST_CASE("fio job file: sections inherit global and keys keep their lines", "[fio]") {
  const FioJobFile f = parse(kFile, env({{"SIZE", "1g"}}));
  REQUIRE(f.jobs.size() == 2);
  const FioJob& a = f.jobs[0];
  CHECK(a.name == "first");
  CHECK(a.line == 9);
  CHECK(a.rw.value == RwMode::kRandWrite);
  CHECK(a.rw.line == 10);
  CHECK(a.bs.value == 4096);
  CHECK(a.bs.line == 5);  // from [global]
  CHECK(a.size.value.bytes == (1ull << 30));
  CHECK(a.norandommap.value);
  CHECK(a.iodepth.value == 32);
  CHECK(a.iodepth.line == 11);
  CHECK(a.random_distribution.value.kind == RandomDist::kZipf);
  CHECK(a.random_distribution.value.param == 1.2);
  const FioJob& b = f.jobs[1];
  CHECK(b.bs.value == 128 * 1024);  // overrides the global
  CHECK(b.bs.line == 16);
  CHECK(b.stonewall.value);
  CHECK(b.rw.value == RwMode::kRead);
  CHECK(b.rw_suffix.value == 65536);
  CHECK(b.runtime.value == 120 * kPicosPerSec);
  CHECK(b.time_based.value);
  CHECK_FALSE(b.random_distribution.given());
  REQUIRE(f.notes.size() == 2);
  CHECK(f.notes[0] ==
        "job.fio:3: ioengine=libaio accepted and ignored: the simulated host driver issues NCQ commands itself");
  CHECK_THAT(f.notes[1], Catch::StartsWith("job.fio:4: direct=1 accepted and ignored"));
}

TEST_CASE("fio size suffixes follow kb_base", "[fio]") {
  CHECK(fio_parse_size("4k", 1024) == 4096);
  CHECK(fio_parse_size("4K", 1024) == 4096);
  CHECK(fio_parse_size("4kb", 1024) == 4096);
  CHECK(fio_parse_size("4KiB", 1024) == 4000);  // fio's compatibility mode: ki is decimal
  CHECK(fio_parse_size("4k", 1000) == 4000);
  CHECK(fio_parse_size("4KiB", 1000) == 4096);
  CHECK(fio_parse_size("1m", 1024) == 1048576);
  CHECK(fio_parse_size("1mi", 1024) == 1000000);
  CHECK(fio_parse_size("1g", 1024) == (1ull << 30));
  CHECK(fio_parse_size("1t", 1024) == (1ull << 40));
  CHECK(fio_parse_size("1t", 1000) == 1000000000000ull);
  CHECK(fio_parse_size("2p", 1024) == (2ull << 50));
  CHECK(fio_parse_size("4096", 1024) == 4096);
  CHECK(fio_parse_size("4096b", 1024) == 4096);
  CHECK(fio_parse_size("0x1000", 1024) == 4096);
  CHECK_THROWS_WITH(fio_parse_size("4x", 1024), Catch::Contains("unknown size suffix 'x'"));
  CHECK_THROWS_WITH(fio_parse_size("1.5g", 1024), Catch::Contains("whole numbers"));
  CHECK_THROWS_WITH(fio_parse_size("99999999999p", 1024), Catch::Contains("too large"));
  CHECK_THROWS_WITH(fio_parse_size("(4*1k)", 1024), Catch::Contains("arithmetic expressions"));
  const auto r = fio_parse_size_range("64k:4k", 1024);  // swapped, as fio does
  CHECK(r.first == 4096);
  CHECK(r.second == 65536);
}

TEST_CASE("kb_base in a job changes what its sizes mean wherever it is written", "[fio]") {
  const FioJobFile f = parse("[j]\nbs=4k\nsize=1m\nkb_base=1000\n");
  CHECK(f.jobs[0].bs.value == 4000);
  CHECK(f.jobs[0].size.value.bytes == 1000000);
}

TEST_CASE("fio time suffixes and each key's default unit", "[fio]") {
  CHECK(fio_parse_time("10", kPicosPerSec) == 10 * kPicosPerSec);
  CHECK(fio_parse_time("10us", kPicosPerSec) == 10 * kPicosPerUs);
  CHECK(fio_parse_time("10usec", kPicosPerSec) == 10 * kPicosPerUs);
  CHECK(fio_parse_time("10ms", kPicosPerSec) == 10 * kPicosPerMs);
  CHECK(fio_parse_time("10s", kPicosPerUs) == 10 * kPicosPerSec);
  CHECK(fio_parse_time("2m", kPicosPerSec) == 120 * kPicosPerSec);
  CHECK(fio_parse_time("1h", kPicosPerSec) == 3600 * kPicosPerSec);
  CHECK(fio_parse_time("1D", kPicosPerSec) == 86400 * kPicosPerSec);
  CHECK_THROWS_WITH(fio_parse_time("5w", kPicosPerSec), Catch::Contains("unknown time suffix"));
  const FioJobFile f = parse("[j]\nruntime=30\nramp_time=2\nthinktime=50\nstartdelay=1-3\n");
  CHECK(f.jobs[0].runtime.value == 30 * kPicosPerSec);
  CHECK(f.jobs[0].ramp_time.value == 2 * kPicosPerSec);
  CHECK(f.jobs[0].thinktime.value == 50 * kPicosPerUs);  // fio: thinktime is in microseconds
  CHECK(f.jobs[0].startdelay.value.first == kPicosPerSec);
  CHECK(f.jobs[0].startdelay.value.second == 3 * kPicosPerSec);
}

TEST_CASE("bssplit and random_distribution values", "[fio]") {
  const auto split = fio_parse_bssplit("4k/50:1k/:32k/", 1024);  // blanks share the rest
  REQUIRE(split.size() == 3);
  CHECK(split[0].percent == 50);
  CHECK(split[1].percent + split[2].percent == 50);
  CHECK(split[1].bs == 1024);
  CHECK_THROWS_WITH(fio_parse_bssplit("4k/60:8k/60", 1024), Catch::Contains("add up to 120"));
  CHECK_THROWS_WITH(fio_parse_bssplit("4k/60:8k/30", 1024), Catch::Contains("add up to 90, not 100"));
  CHECK_THROWS_WITH(fio_parse_bssplit("2k/50:4k/50,4k/90:8k/10", 1024), Catch::Contains("not supported yet"));
  const RandomDistribution z = fio_parse_distribution("zoned:60/10:30/20:8/30:2/40", 1024);
  REQUIRE(z.zones.size() == 4);
  CHECK(z.zones[2].access_percent == 8);
  CHECK(z.zones[2].size_percent == 30);
  const RandomDistribution za = fio_parse_distribution("zoned_abs=60/20G:30/100G:10/500g", 1024);
  CHECK(za.kind == RandomDist::kZonedAbs);
  CHECK(za.zones[1].size_bytes == 100ull << 30);
  const RandomDistribution p = fio_parse_distribution("pareto:0.2:0.25", 1024);
  CHECK(p.kind == RandomDist::kPareto);
  CHECK(p.center == 0.25);
  CHECK(fio_parse_distribution("normal:10", 1024).kind == RandomDist::kNormal);
  CHECK(fio_parse_distribution("random", 1024).kind == RandomDist::kRandom);
  CHECK_THROWS_WITH(fio_parse_distribution("zipf:1", 1024), Catch::Contains("different from 1.0"));
  CHECK_THROWS_WITH(fio_parse_distribution("pareto:1.5", 1024), Catch::Contains("0 < h < 1"));
  CHECK_THROWS_WITH(fio_parse_distribution("zipff:1.2", 1024), Catch::Contains("did you mean 'zipf'"));
  CHECK_THROWS_WITH(fio_parse_distribution("zoned:60/10:30/20", 1024), Catch::Contains("add up to 90"));
}

TEST_CASE("fio job file errors name the file and the line", "[fio]") {
  CHECK(
      error_of("[j]\nrw=randwrite\nbs=4k\nblocksze=4k\n") ==
      "job.fio:4: blocksze: not a supported fio key (did you mean 'blocksize'?) (--fio-lenient makes this a warning)");
  CHECK(error_of("[j]\nsize=${NOPE}\n") == "job.fio:2: environment variable 'NOPE' is not set (used as ${NOPE})");
  CHECK(error_of("[j]\nsize=${OOPS\n") == "job.fio:2: unterminated ${ (write ${NAME})");
  CHECK(error_of("bs=4k\n[j]\n") == "job.fio:1: bs: outside a section; put it under [global] or a [JOB] section");
  CHECK(error_of("[j\n") == "job.fio:1: a section header is [NAME], got '[j'");
  CHECK(error_of("[]\n") == "job.fio:1: a section needs a name ([global] or [JOB])");
  CHECK(error_of("[global]\nbs=4k\n") ==
        "job.fio:2: no job section: a job file needs at least one [JOB] besides [global]");
  CHECK(error_of("[j]\n\nbs\n") == "job.fio:3: bs: needs a value (bs=VALUE)");
  CHECK(error_of("[j]\nrw=randwirte\n") ==
        "job.fio:2: rw: unknown rw mode 'randwirte' (did you mean 'randwrite'?); expected read, write, trim, randread, "
        "randwrite, randtrim, rw, readwrite, randrw, trimwrite (optionally :N)");
  CHECK(error_of("[j]\nbs=4q\n") ==
        "job.fio:2: bs: '4q': unknown size suffix 'q' (fio's k, m, g, t, p, optionally with i and b: 4k, 64KiB, 1m)");
  CHECK(error_of("[j]\nnorandommap=maybe\n") == "job.fio:2: norandommap: expected 0 or 1 (or true/false), got 'maybe'");
  CHECK(error_of("[j]\nrwmixread=120\n") == "job.fio:2: rwmixread: must be 0..100, got 120");
  CHECK(error_of("[j]\nbs=4k,8k\n") ==
        "job.fio:2: bs: separate block sizes for reads, writes and trims (a ',' list) are not supported yet; give one "
        "value");
  CHECK(error_of("[j]\nbs=1000\n") ==
        "job.fio:2: bs: must be a non-zero multiple of 512 bytes (the drive's sector), got 1000");
  CHECK(error_of("[j]\nthinktime=10\nthinktime_spin=20\n") ==
        "job.fio:3: thinktime_spin: must not exceed thinktime (the spin is part of it)");
  CHECK(error_of("[j]\nstartdelay=1-3\n") ==
        "job.fio:2: startdelay: a random delay range is not supported; give one time");
  CHECK(error_of("[j]\ntime_based\n") == "job.fio:2: time_based: needs a runtime");
  CHECK(error_of("[j]\nrandom_distribution=zipf:0\n") ==
        "job.fio:2: random_distribution: zipf theta must be > 0 and different from 1.0 (as fio requires), got 0");
}

TEST_CASE("lenient mode lists unsupported keys as warnings", "[fio]") {
  const FioJobFile f = parse("[j]\nloops=3\nbs=8k\n", env({}, true));
  REQUIRE(f.warnings.size() == 1);
  CHECK(f.warnings[0] == "job.fio:2: loops: not a supported fio key; ignored");
  CHECK(f.jobs[0].bs.value == 8192);
}

TEST_CASE("a fio job maps onto the JobSpec fields fio's keys mean", "[fio]") {
  const FioJobFile f = parse(
      "[global]\nkb_base=1024\n[j]\nrw=randrw:4\nbssplit=4k/80:64k/20\nfilesize=1g\nsize=4g\noffset=10%\n"
      "offset_align=1m\nrwmixread=70\nrwmixwrite=20\npercentage_random=90\nrandseed=42\nnumber_ios=1000\n"
      "random_distribution=pareto:0.2\niodepth=8\nblocksize_unaligned\n");
  const FioPhase p = fio_job_to_phase(f.jobs[0], "job.fio");
  const JobSpec& s = p.job;
  CHECK(s.rw == RwMode::kRandRw);
  CHECK(s.random_run == 4);
  CHECK(s.bs_bytes == 4096);
  REQUIRE(s.bssplit.size() == 2);
  CHECK(s.bssplit[1].bs == 65536);
  CHECK(s.size.bytes == (1ull << 30));  // filesize sets the region...
  CHECK(s.io_size_set);
  CHECK(s.io_size.bytes == (4ull << 30));  // ...and size becomes the amount of I/O
  CHECK(s.offset.is_percent);
  CHECK(s.offset_align_bytes == (1u << 20));
  CHECK(s.rwmixread == 80);  // rwmixwrite came later and wins
  CHECK(s.percentage_random == 90);
  CHECK(s.randseed_set);
  CHECK(s.randseed == 42);
  CHECK(s.number_ios == 1000);
  CHECK(s.distribution.kind == RandomDist::kPareto);
  CHECK(s.iodepth == 8);
  CHECK(s.bs_unaligned);
  const FioPhase seq = fio_job_to_phase(parse("[j]\nrw=write:8k\n").jobs[0], "job.fio");
  CHECK(seq.job.seq_skip_bytes == 8192);
  CHECK(seq.job.random_run == 1);
}

TEST_CASE("stonewall groups of a fio file become phases whose jobs run at the same time", "[fio]") {
  const FioJobFile f = parse(
      "[global]\nbs=4k\nioengine=psync\n[fill]\nrw=write\nsize=10%\n[hot]\nwait_for_previous\nrw=randwrite\n"
      "random_distribution=zipf:1.2\nio_size=64m\nstartdelay=2\n[cold]\nrw=randread\nnumjobs=2\n"
      "offset_increment=1g\n",
      env({}));
  const ScenarioSpec s = fio_scenario(f, "drive.yaml");
  CHECK(s.name == "job");
  CHECK(s.drive_path == "drive.yaml");
  REQUIRE(s.phases.size() == 2);
  CHECK(s.phases[0].name == "fill");
  CHECK(s.phases[0].job.rw == RwMode::kWrite);
  CHECK(s.phases[0].more_jobs.empty());
  const PhaseSpec& hot = s.phases[1];
  CHECK(hot.name == "hot");
  CHECK(hot.line == 7);
  CHECK(hot.job.name == "hot");
  CHECK(hot.job.distribution.kind == RandomDist::kZipf);
  CHECK(hot.job.startdelay_ps == 2 * kPicosPerSec);  // the job's own delay, not an idle phase
  REQUIRE(hot.more_jobs.size() == 2);                // [cold] x numjobs=2, beside [hot]
  for (std::uint32_t c = 0; c < 2; ++c) {
    CHECK(hot.more_jobs[c].name == "cold");
    CHECK(hot.more_jobs[c].rw == RwMode::kRandRead);
    CHECK(hot.more_jobs[c].clone_index == c);
    CHECK(hot.more_jobs[c].offset_increment.bytes == (1ull << 30));
  }
  REQUIRE(s.notes.size() == 1);
  CHECK_THAT(s.notes[0], Catch::StartsWith("job.fio:3: ioengine=psync accepted and ignored"));
}

TEST_CASE("fio pacing keys map onto the JobSpec", "[fio]") {
  const FioPhase p = fio_job_to_phase(parse("[j]\nramp_time=2\nthinktime=50\nthinktime_spin=10\nthinktime_blocks=4\n"
                                            "rate=1m\nrate_iops=500\nfdatasync=8\nstartdelay=100ms\n")
                                          .jobs[0],
                                      "job.fio");
  CHECK(p.job.ramp_ps == 2 * kPicosPerSec);
  CHECK(p.job.thinktime_ps == 50 * kPicosPerUs);
  CHECK(p.job.thinktime_blocks == 4);
  CHECK(p.job.rate_bytes == 1024 * 1024);
  CHECK(p.job.rate_iops == 500);
  CHECK(p.job.flush_every == 8);
  CHECK(p.job.startdelay_ps == 100 * kPicosPerMs);
  CHECK(p.job.paced());
  CHECK_FALSE(fio_job_to_phase(parse("[j]\nrw=read\n").jobs[0], "job.fio").job.paced());
}

TEST_CASE("a bad kb_base is a located error like any other value", "[fio]") {
  // Found by fuzz_fio_job: kb_base is applied before the other keys, outside their error handling,
  // so its std::invalid_argument escaped instead of a ConfigError.
  CHECK(error_of("[global]\nkb_base=4752\n[j]\nbs=4k\n") == "job.fio:2: kb_base: must be 1000 or 1024, got '4752'");
}

TEST_CASE("The nbd engine's uri is accepted and ignored like ioengine", "[fio]") {
  // The same job file runs under real fio against ssdlab serve and under ssdlab run --fio.
  const FioJobFile f = parse("[global]\nioengine=nbd\nuri=nbd://127.0.0.1:10809\n[j]\nrw=randread\n");
  REQUIRE(f.notes.size() == 2);
  CHECK_THAT(f.notes[1], Catch::StartsWith("job.fio:3: uri=nbd://127.0.0.1:10809 accepted and ignored"));
}

TEST_CASE("fio's steadystate keys and their aliases become the job's steady-state criterion", "[fio][steady]") {
  const FioJobFile f = parse(
      "[a]\nsteadystate=iops_slope:0.1%\nsteadystate_duration=30\nsteadystate_ramp_time=5s\n"
      "[b]\nss=bw:2000000\nss_dur=2m\nss_ramp=500ms\n[c]\nrw=randread\n");
  const JobSpec a = fio_job_to_phase(f.jobs[0], "job.fio").job;
  CHECK(a.steadystate.kind == SteadyStateSpec::Kind::kIopsSlope);
  CHECK(a.steadystate.limit == Approx(0.1));
  CHECK(a.steadystate.percent);
  CHECK(a.steadystate.duration_ps == 30 * kPicosPerSec);
  CHECK(a.steadystate.ramp_ps == 5 * kPicosPerSec);
  CHECK(a.steadystate.enabled());
  CHECK(to_string(a.steadystate) == "iops_slope:0.1%");
  const JobSpec b = fio_job_to_phase(f.jobs[1], "job.fio").job;
  CHECK(b.steadystate.kind == SteadyStateSpec::Kind::kBw);
  CHECK_FALSE(b.steadystate.percent);
  CHECK(b.steadystate.limit == Approx(2e6));
  CHECK(b.steadystate.duration_ps == 120 * kPicosPerSec);
  CHECK(b.steadystate.ramp_ps == kPicosPerSec / 2);
  CHECK_FALSE(fio_job_to_phase(f.jobs[2], "job.fio").job.steadystate.enabled());
  CHECK(error_of("[j]\nss=latency:1%\n") ==
        "job.fio:2: ss: unknown criterion 'latency' (iops, iops_slope, bw or bw_slope)");  // the key as written
  CHECK(error_of("[j]\nss=iops\n").find("job.fio:2: ss: expected CRITERION:LIMIT") == 0);
  CHECK(error_of("[j]\nsteadystate=iops:-1\n").find("job.fio:2: steadystate: the limit must be a number >= 0") == 0);
  CHECK(error_of("[j]\nss=iops:1%\nss_dur=1500ms\n") ==
        "job.fio:3: steadystate_duration: must be a whole number of seconds (fio measures once per second)");
}
