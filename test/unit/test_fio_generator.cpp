// The generator's fio options (bssplit, bsrange, rw:N, percentage_random, trimwrite...) and a
// fio job file against the same job in YAML: identical JobSpec, identical request streams.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <vector>

#include "base/config/config_loader.h"
#include "base/config/fio_job.h"
#include "host/workload/job_generator.h"

using namespace ssdlab;

namespace {

JobSpec fio_spec(const std::string& text) {
  FioParseOptions o;
  o.getenv = [](const std::string&, std::string&) { return false; };
  const FioJobFile f = parse_fio_job_file(text, "t.fio", o);
  return fio_job_to_phase(f.jobs.at(0), "t.fio").job;
}

std::vector<IoSpec> stream(const JobSpec& job, std::uint64_t capacity, std::uint64_t seed, std::size_t n) {
  JobGenerator gen(job, capacity, seed);
  std::vector<IoSpec> out;
  IoSpec io;
  while (out.size() < n && gen.next(io)) out.push_back(io);
  return out;
}

constexpr std::uint64_t kCap = 1ull << 30;

}  // namespace

TEST_CASE("bssplit sizes come in their shares and bsrange stays in range", "[workload][fio]") {
  const auto ios = stream(fio_spec("[j]\nrw=randread\nbssplit=4k/70:64k/30\ntime_based\nruntime=1\n"), kCap, 1, 50000);
  std::map<std::uint32_t, int> by_size;
  for (const IoSpec& io : ios) ++by_size[io.sectors];
  REQUIRE(by_size.size() == 2);
  CHECK(by_size[8] > 34300);  // 70 % of 50000 = 35000
  CHECK(by_size[8] < 35700);
  const auto r = stream(fio_spec("[j]\nrw=randwrite\nbsrange=4k-16k\ntime_based\nruntime=1\n"), kCap, 1, 20000);
  std::set<std::uint32_t> sizes;
  for (const IoSpec& io : r) sizes.insert(io.sectors);
  CHECK(sizes == std::set<std::uint32_t>{8, 16, 24, 32});  // multiples of the minimum
  const auto u =
      stream(fio_spec("[j]\nrw=randwrite\nbsrange=4k-8k\nbs_unaligned\ntime_based\nruntime=1\n"), kCap, 1, 20000);
  std::set<std::uint32_t> usizes;
  for (const IoSpec& io : u) usizes.insert(io.sectors);
  CHECK(usizes.size() == 9);  // every sector count 8..16
}

TEST_CASE("rw=write:N leaves holes and rw=randread:N keeps N sequential requests per offset", "[workload][fio]") {
  const auto seq = stream(fio_spec("[j]\nrw=write:4k\nbs=4k\nsize=1m\n"), kCap, 1, 1000);
  REQUIRE(seq.size() >= 3);
  CHECK(seq[0].lba == 0);
  CHECK(seq[1].lba == 16);  // 4 KiB written, 4 KiB skipped
  CHECK(seq[2].lba == 32);
  CHECK(seq.size() == 128);  // size counts the bytes transferred: 1 MiB / 4 KiB... over the region once
  const auto runs = stream(fio_spec("[j]\nrw=randread:4\nbs=4k\nnorandommap\n"), kCap, 3, 400);
  // As fio 3.33 does (its write_iolog of this job): a random offset, then 3 sequential requests.
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i % 4 != 0) CHECK(runs[i].lba == runs[i - 1].lba + 8);
  }
  int jumps = 0;
  for (std::size_t i = 4; i < runs.size(); i += 4) jumps += runs[i].lba != runs[i - 1].lba + 8;
  CHECK(jumps >= 95);
}

TEST_CASE("percentage_random mixes sequential and random requests", "[workload][fio]") {
  const auto none = stream(fio_spec("[j]\nrw=randwrite\npercentage_random=0\nbs=4k\n"), kCap, 1, 100);
  for (std::size_t i = 0; i < none.size(); ++i) CHECK(none[i].lba == i * 8);
  const auto half = stream(fio_spec("[j]\nrw=randwrite\npercentage_random=50\nbs=4k\nnorandommap\n"), kCap, 1, 20000);
  int sequential = 0;
  for (std::size_t i = 1; i < half.size(); ++i) sequential += half[i].lba == half[i - 1].lba + 8;
  CHECK(sequential > 9600);
  CHECK(sequential < 10400);
}

TEST_CASE("trimwrite trims each block and then writes it and number_ios stops the job", "[workload][fio]") {
  const auto ios = stream(fio_spec("[j]\nrw=trimwrite\nbs=8k\nsize=64k\n"), kCap, 1, 100);
  REQUIRE(ios.size() == 16);
  for (std::size_t i = 0; i < ios.size(); i += 2) {
    CHECK(ios[i].trim);
    CHECK_FALSE(ios[i].write);
    CHECK(ios[i + 1].write);
    CHECK_FALSE(ios[i + 1].trim);
    CHECK(ios[i + 1].lba == ios[i].lba);
    CHECK(ios[i].lba == i / 2 * 16);
  }
  CHECK(stream(fio_spec("[j]\nrw=randtrim\nnumber_ios=37\n"), kCap, 1, 1000).size() == 37);
}

TEST_CASE("percentage offsets are aligned up to offset_align or the block size", "[workload][fio]") {
  JobGenerator a(fio_spec("[j]\nrw=read\nbs=64k\noffset=10%\n"), 1000000 * 512ull, 1);
  CHECK(a.region_start() % 65536 == 0);
  CHECK(a.region_start() >= 100000 * 512ull);
  CHECK(a.region_start() < 100000 * 512ull + 65536);
  JobGenerator b(fio_spec("[j]\nrw=read\nbs=4k\noffset=10%\noffset_align=1m\n"), 1000000 * 512ull, 1);
  CHECK(b.region_start() % (1 << 20) == 0);
  CHECK(b.region_start() >= 100000 * 512ull);
}

TEST_CASE("a zipf job over a 1 TB drive needs no table per block", "[workload][fio]") {
  const JobSpec j = fio_spec("[j]\nrw=randwrite\nbs=4k\nrandom_distribution=zipf:1.2\nio_size=40m\n");
  JobGenerator gen(j, 1ull << 40, 9);  // a table per block would be 2^28 entries
  IoSpec io;
  std::uint64_t n = 0;
  std::map<Lba, int> hits;
  while (gen.next(io)) {
    REQUIRE(io.lba * 512 + 4096 <= (1ull << 40));
    ++hits[io.lba];
    ++n;
  }
  CHECK(n == 10240);
  int top = 0;
  for (const auto& h : hits) top = std::max(top, h.second);
  CHECK(top > 500);  // rank 1 takes ~1/H(2^28, 1.2) ~ 18 % of 10240
}

TEST_CASE("a fio job and the same job in YAML give the same JobSpec and requests", "[workload][fio]") {
  const std::string fio =
      "[global]\n"
      "ioengine=libaio\n"
      "direct=1\n"
      "[hotcold]\n"
      "rw=randrw\n"
      "bssplit=4k/75:16k/25\n"
      "iodepth=16\n"
      "size=50%\n"
      "offset=1m\n"
      "io_size=64m\n"
      "rwmixread=30\n"
      "percentage_random=80\n"
      "random_distribution=zoned:70/10:20/30:10/60\n"
      "randseed=77\n"
      "number_ios=5000\n"
      "runtime=20s\n";
  const std::string yaml =
      "drive: d.yaml\n"
      "phases:\n"
      "  - job:\n"
      "      rw: randrw\n"
      "      bs: 4k\n"
      "      bssplit: 4k/75:16k/25\n"
      "      iodepth: 16\n"
      "      size: 50%\n"
      "      offset: 1MiB\n"
      "      io_size: 64MiB\n"
      "      rwmixread: 30\n"
      "      percentage_random: 80\n"
      "      random_distribution: zoned:70/10:20/30:10/60\n"
      "      randseed: 77\n"
      "      number_ios: 5000\n"
      "      runtime: 20s\n";
  const JobSpec a = fio_spec(fio);
  const JobSpec b = parse_scenario(yaml, "s.yaml").phases.at(0).job;
  CHECK(a == b);
  JobSpec c = b;
  c.distribution.zones[0].access_percent = 69;
  CHECK(a != c);  // the comparison sees the skew
  const auto sa = stream(a, kCap, a.randseed, 10000), sb = stream(b, kCap, b.randseed, 10000);
  REQUIRE(sa.size() == 5000);
  REQUIRE(sb.size() == sa.size());
  bool same = true;
  for (std::size_t i = 0; i < sa.size(); ++i)
    same = same && sa[i].lba == sb[i].lba && sa[i].sectors == sb[i].sectors && sa[i].write == sb[i].write;
  CHECK(same);

  const JobSpec z = fio_spec("[j]\nrw=randwrite\nrandom_distribution=zipf:1.2:0.5\n");
  const JobSpec zy = parse_scenario(
                         "drive: d.yaml\nphases:\n  - job: {rw: randwrite, bs: 4k, random_distribution: "
                         "\"zipf:1.2:0.5\"}\n",
                         "s.yaml")
                         .phases.at(0)
                         .job;
  CHECK(z == zy);
}

TEST_CASE("YAML random_distribution errors name the key", "[workload][fio]") {
  try {
    parse_scenario("drive: d.yaml\nphases:\n  - job: {rw: randwrite, bs: 4k, random_distribution: \"zipf:-1\"}\n",
                   "s.yaml");
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("s.yaml:3: phases[0].job.random_distribution:") &&
                             Catch::Contains("zipf theta must be > 0"));
  }
}
