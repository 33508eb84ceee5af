// TraceSource: trace records into IoSpecs (sector rounding, TRIM, FLUSH, timing, LBA handling,
// volume selection, splitting at max transfer).
#include <catch2/catch.hpp>

#include <vector>

#include "host/workload/trace/replay_setup.h"
#include "host/workload/trace/trace_source.h"

using namespace ssdlab;

namespace {

const std::string kTraces = std::string(SSDLAB_SOURCE_DIR) + "/test/data/traces/";

TraceSource::Opener file(const std::string& name) {
  return [name] { return std::make_unique<TraceReader>(kTraces + name, TraceReaderOptions{}); };
}

TraceSource::Opener text(const std::string& t, TraceFormat f = TraceFormat::kDiskSim) {
  return [t, f] {
    TraceReaderOptions o;
    o.format_given = true;
    o.format = f;
    return std::make_unique<TraceReader>(memory_byte_stream(t), "t.trace", o);
  };
}

TraceSourceOptions drive(std::uint64_t sectors = 1ull << 30, std::uint32_t max_transfer = 256) {
  TraceSourceOptions o;
  o.capacity_sectors = sectors;
  o.max_transfer_sectors = max_transfer;
  return o;
}

std::vector<IoSpec> all(TraceSource& s) {
  std::vector<IoSpec> out;
  IoSpec io;
  while (s.next(io)) out.push_back(io);
  return out;
}

}  // namespace

TEST_CASE("TraceSource rounds each request out to whole sectors", "[trace]") {
  TraceSource s(file("msr_sample.csv"), drive());
  const std::vector<IoSpec> ios = all(s);
  REQUIRE(ios.size() == 8);
  // 1049000 + 1000 bytes: sectors 2048 (start rounded down) to 2051 (end rounded up).
  CHECK(ios[3].lba == 2048);
  CHECK(ios[3].sectors == 3);
  CHECK(ios[6].lba == 9);  // 5000 + 100 bytes: sector 9 only
  CHECK(ios[6].sectors == 1);
  // grep -v '^#' msr_sample.csv | awk -F, '{s=int($5/512); e=int(($5+$6+511)/512); sec[$4]+=e-s} ...'
  //   -> Read 70656 bytes, Write 144896 bytes after rounding; lowest LBA 0, highest end 7563808
  const TraceCounts& c = s.counts();
  CHECK(c.read_bytes == 70656);
  CHECK(c.write_bytes == 144896);
  CHECK(c.min_lba == 0);
  CHECK(c.max_lba_end == 7563808);
  CHECK(c.reads == 4);
  CHECK(c.writes == 4);
  for (const IoSpec& io : ios) CHECK(io.issue_at_ps == 0);  // closed loop
}

TEST_CASE("TraceSource: discards are TRIM and flushes FLUSH CACHE", "[trace]") {
  TraceSource s(file("blkparse_sample.txt"), drive(1ull << 30, 1u << 16));
  const std::vector<IoSpec> ios = all(s);
  REQUIRE(ios.size() == 6);
  CHECK(ios[3].trim);
  CHECK(ios[3].lba == 4096);
  CHECK(ios[3].sectors == 2048);
  CHECK(ios[4].flush);
  CHECK_FALSE(ios[4].write);
  CHECK(ios[5].write);
  const TraceCounts& c = s.counts();
  CHECK(c.trims == 1);
  CHECK(c.flushes == 1);
  CHECK(c.trim_bytes == 1048576);
  TraceSource f(file("fio_v3_randrw.log"), drive());
  all(f);
  CHECK(f.counts().flushes == 10);
  CHECK(f.counts().reads == 23);
  CHECK(f.counts().writes == 17);
}

TEST_CASE("TraceSource open loop: issue times after the first record scaled by speed", "[trace]") {
  TraceSourceOptions o = drive();
  o.timing = TraceTiming::kTrace;
  TraceSource s1(file("disksim_sample.txt"), o);
  const std::vector<IoSpec> a = all(s1);
  o.speed = 2.0;
  TraceSource s2(file("disksim_sample.txt"), o);
  const std::vector<IoSpec> b = all(s2);
  REQUIRE(a.size() == 6);
  REQUIRE(b.size() == 6);
  CHECK(a[0].issue_at_ps == 0);
  CHECK(a[1].issue_at_ps == 125 * kPicosPerUs);
  CHECK(a[5].issue_at_ps == 10 * kPicosPerMs);
  CHECK(b[1].issue_at_ps == a[1].issue_at_ps / 2);
  CHECK(b[5].issue_at_ps == 5 * kPicosPerMs);
}

TEST_CASE("TraceSource lba wrap reject and scale", "[trace]") {
  const std::string t = "0 0 100 8 1\n1 0 1000 8 0\n2 0 1996 8 1\n";  // the last ends at 2004
  TraceSourceOptions o = drive(1000, 256);
  TraceSource wrap(text(t), o);
  std::vector<IoSpec> w = all(wrap);
  CHECK(w[1].lba == 0);    // 1000 % 1000
  CHECK(w[2].lba == 992);  // 996 wraps to 996, 996 + 8 > 1000: moved back to end at the drive's end
  CHECK(wrap.counts().wrapped == 2);
  o.lba = TraceLba::kReject;
  TraceSource reject(text(t), o);
  IoSpec io;
  CHECK(reject.next(io));
  CHECK_FALSE(reject.next(io));  // the error ends the source (the driver calls next() from callbacks)
  CHECK_THAT(reject.error(),
             Catch::StartsWith("t.trace:2: offset 512000 + 4096 bytes is past the drive's end (512000 bytes)"));
  CHECK_FALSE(reject.next(io));
  TraceSource larger(text("0 0 0 1001 1\n"), o);  // larger than the whole drive
  CHECK_FALSE(larger.next(io));
  CHECK_THAT(larger.error(), Catch::Contains("past the drive's end"));
  o.lba = TraceLba::kWrap;
  TraceSource whole(text("0 0 5 1000 1\n"), o);  // the whole drive: moved back to start at 0
  const std::vector<IoSpec> c = all(whole);
  REQUIRE(c.size() == 4);  // 1000 sectors from 0 in max-transfer pieces of 256
  CHECK(c[0].lba == 0);
  CHECK(c[3].lba + c[3].sectors == 1000);
  o.lba = TraceLba::kScale;
  TraceSource scale(text(t), o);
  CHECK(scale.scale_from_sectors() == 2004);
  std::vector<IoSpec> s = all(scale);
  CHECK(s[0].lba == 100 * 1000 / 2004);
  CHECK(s[1].lba == 1000 * 1000 / 2004);
  CHECK(s[2].lba == 992);
  for (const IoSpec& x : s) CHECK(x.lba + x.sectors <= 1000);
}

TEST_CASE("TraceSource replays only the selected volumes", "[trace]") {
  TraceSourceOptions o = drive();
  o.volumes = {1};
  TraceSource s(file("msr_sample.csv"), o);
  CHECK(all(s).size() == 2);
  CHECK(s.counts().other_volume == 6);
  o.volumes = {8u << 20 | 16};  // blkparse 8,16
  TraceSource b(file("blkparse_sample.txt"), o);
  CHECK(all(b).size() == 1);
}

TEST_CASE("TraceSource splits a request larger than max transfer or refuses it", "[trace]") {
  TraceSourceOptions o = drive(1ull << 30, 64);
  TraceSource s(text("0 0 1000 200 0\n"), o);
  const std::vector<IoSpec> ios = all(s);
  REQUIRE(ios.size() == 4);  // 64 + 64 + 64 + 8
  CHECK(ios[0].lba == 1000);
  CHECK(ios[3].lba == 1192);
  CHECK(ios[3].sectors == 8);
  for (const IoSpec& io : ios) CHECK(io.write);
  CHECK(s.counts().split_records == 1);
  CHECK(s.counts().commands == 4);
  CHECK(s.counts().writes == 1);
  o.split = false;
  TraceSource r(text("0 0 1000 8 0\n1 0 1000 200 0\n"), o);
  IoSpec io;
  CHECK(r.next(io));
  CHECK_FALSE(r.next(io));
  CHECK(r.error() == "t.trace:2: 102400 bytes is more than the drive's max transfer (32768 bytes)");
}

TEST_CASE("TraceSource skips empty requests and counts them", "[trace]") {
  TraceSource s(text("0 0 10 0 1\n1 0 10 8 1\n"), drive());
  CHECK(all(s).size() == 1);
  CHECK(s.counts().empty == 1);
  CHECK(s.counts().records == 2);
}

// Issue 23: a request larger than the drive used to be cut to the drive's size under wrap and
// scale, silently. Nothing can replay it: it is refused with its line, whatever the policy.
TEST_CASE("TraceSource refuses a request larger than the drive under every lba policy", "[trace]") {
  for (const TraceLba lba : {TraceLba::kWrap, TraceLba::kScale, TraceLba::kReject}) {
    TraceSourceOptions o = drive(1000, 256);
    o.lba = lba;
    TraceSource s(text("0 0 8 8 1\n1 0 5 1001 1\n"), o);
    IoSpec io;
    CHECK(s.next(io));
    CHECK_FALSE(s.next(io));
    CHECK_THAT(s.error(), Catch::StartsWith("t.trace:2: ") && Catch::Contains("512512 bytes") &&
                              (Catch::Contains("larger than the drive (512000 bytes)") ||
                               Catch::Contains("past the drive's end")));
  }
  // The issue's MSR line: 4 EiB at offset 0.
  TraceSourceOptions o = drive();
  TraceSource msr(text("128166372003061629,hm,0,Write,0,4611686018427387904,100\n", TraceFormat::kMsr), o);
  IoSpec io;
  CHECK_FALSE(msr.next(io));
  CHECK_THAT(msr.error(), Catch::StartsWith("t.trace:1: 4611686018427387904 bytes is larger than the drive"));
}

// Issue 23: --speed below 1 turned a long gap into an issue time past 2^64 ps (undefined
// behaviour in the cast; the replay "finished" at once). The limit is named with the line.
TEST_CASE("TraceSource refuses an issue time past the simulator's limit", "[trace]") {
  TraceSourceOptions o = drive();
  o.timing = TraceTiming::kTrace;
  o.speed = 1e-3;
  const std::string week = "0 0 10 8 1\n10 0 20 8 1\n604800000 0 30 8 1\n";  // DiskSim: milliseconds
  TraceSource s(text(week), o);
  IoSpec io;
  REQUIRE(s.next(io));
  REQUIRE(s.next(io));
  CHECK(io.issue_at_ps == 10 * kPicosPerSec);  // 10 ms at a thousandth of the speed
  CHECK_FALSE(s.next(io));
  CHECK_THAT(s.error(), Catch::StartsWith("t.trace:3: ") && Catch::Contains("604800000 s") &&
                            Catch::Contains("past the simulator's limit of 100 days"));
  o.speed = 1.0;  // a week at its own speed is fine
  TraceSource ok(text(week), o);
  CHECK(all(ok).size() == 3);
  CHECK(ok.error().empty());
}

TEST_CASE("A trace with no request is refused before the replay, format given or guessed", "[trace]") {
  const std::string path = kTraces + "msr_header_only.csv";  // a header and a comment
  ReplaySpec spec;
  spec.trace = path;
  spec.format = "msr";
  CHECK_THROWS_WITH(check_replay_spec(spec), path + ": no request in " + path);
  spec.format = "";
  CHECK_THROWS_WITH(check_replay_spec(spec), path + ": no request in " + path);
  spec.format = "msr";
  spec.volumes = {"7"};  // requests, none of them on this volume
  spec.trace = kTraces + "msr_sample.csv";
  CHECK_THROWS_WITH(check_replay_spec(spec), Catch::Contains("no request of the selected volumes"));
}
