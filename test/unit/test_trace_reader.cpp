// Block-trace readers: every sample in test/data/traces read with the format given and guessed,
// its records counted against an independent count of the raw text (the awk command beside
// each expected figure), malformed lines located, compressed copies read alike.
#include <catch2/catch.hpp>

#include <zlib.h>
#include <zstd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "host/workload/trace/trace_reader.h"

using namespace ssdlab;

namespace {

const std::string kTraces = std::string(SSDLAB_SOURCE_DIR) + "/test/data/traces/";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Tally {
  std::map<TraceOp, std::uint64_t> count, bytes;
  std::map<std::uint64_t, std::uint64_t> per_device;
  std::uint64_t records = 0;
};

Tally tally(TraceReader& reader) {
  Tally t;
  TraceRecord r;
  while (reader.next(r)) {
    ++t.count[r.op];
    t.bytes[r.op] += r.bytes;
    ++t.per_device[r.device];
    ++t.records;
  }
  return t;
}

TraceReaderOptions given(TraceFormat f) {
  TraceReaderOptions o;
  o.format_given = true;
  o.format = f;
  return o;
}

// Reads `file` with the format given, then guessed: both must agree and the guess be `f`.
Tally read_both(const std::string& file, TraceFormat f) {
  TraceReader a(kTraces + file, given(f));
  const Tally ta = tally(a);
  TraceReader b(kTraces + file, TraceReaderOptions{});
  CHECK(b.format() == f);
  const Tally tb = tally(b);
  CHECK(tb.records == ta.records);
  CHECK(tb.count == ta.count);
  return ta;
}

std::string error_of(const std::string& text, TraceReaderOptions options, const std::string& name = "t.trace") {
  try {
    TraceReader reader(memory_byte_stream(text), name, options);
    TraceRecord r;
    while (reader.next(r)) {}
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("MSR sample: reads and writes and bytes as counted from the text", "[trace]") {
  // grep -v '^#' msr_sample.csv | awk -F, '{n[$4]++; b[$4]+=$6} END{for(k in n) print k, n[k], b[k]}'
  //   -> Read 4 70244, Write 4 144360
  const Tally t = read_both("msr_sample.csv", TraceFormat::kMsr);
  CHECK(t.count.at(TraceOp::kRead) == 4);
  CHECK(t.count.at(TraceOp::kWrite) == 4);
  CHECK(t.bytes.at(TraceOp::kRead) == 70244);
  CHECK(t.bytes.at(TraceOp::kWrite) == 144360);
  CHECK(t.per_device.at(0) == 6);  // awk -F, '$3==0' | wc -l
  CHECK(t.per_device.at(1) == 2);
}

TEST_CASE("MSR timestamps: 100 ns ticks after the first record", "[trace]") {
  TraceReader reader(kTraces + "msr_sample.csv", given(TraceFormat::kMsr));
  TraceRecord r;
  REQUIRE(reader.next(r));
  CHECK(r.time_ps == 0);
  CHECK(r.line == 4);  // three comment lines first
  REQUIRE(reader.next(r));
  CHECK(r.time_ps == (128166372003090000ull - 128166372003061629ull) * 100 * 1000);
  CHECK(r.offset == 1048576);
  CHECK(r.op == TraceOp::kWrite);
}

TEST_CASE("SPC sample: opcodes in either case and trailing fields", "[trace]") {
  // grep -v '^#' spc_sample.csv | awk -F, '{o=tolower($4); n[o]++; b[o]+=$3} END{...}' -> r 3 20992, w 3 7680
  const Tally t = read_both("spc_sample.csv", TraceFormat::kSpc);
  CHECK(t.count.at(TraceOp::kRead) == 3);
  CHECK(t.count.at(TraceOp::kWrite) == 3);
  CHECK(t.bytes.at(TraceOp::kRead) == 20992);
  CHECK(t.bytes.at(TraceOp::kWrite) == 7680);
  CHECK(t.per_device.size() == 3);  // ASUs 0, 1, 2
  TraceReader reader(kTraces + "spc_sample.csv", given(TraceFormat::kSpc));
  TraceRecord r;
  REQUIRE(reader.next(r));
  CHECK(r.offset == 303567ull * 512);  // LBA in sectors
  REQUIRE(reader.next(r));
  CHECK(r.time_ps == 536ull * 1000 * 1000);  // 0.000536 s
}

TEST_CASE("blkparse sample: Q events by default and D events when asked", "[trace]") {
  // awk '$1 ~ /^[0-9]+,[0-9]+$/ && $6=="Q"' blkparse_sample.txt: by RWBS D -> trim, R -> read,
  // W with "+" -> write, F -> flush: read 2 (12288 bytes), write 2 (16384), trim 1 (1048576), flush 1
  const Tally q = read_both("blkparse_sample.txt", TraceFormat::kBlkparse);
  CHECK(q.count.at(TraceOp::kRead) == 2);
  CHECK(q.count.at(TraceOp::kWrite) == 2);
  CHECK(q.count.at(TraceOp::kTrim) == 1);
  CHECK(q.count.at(TraceOp::kFlush) == 1);
  CHECK(q.bytes.at(TraceOp::kRead) == 12288);
  CHECK(q.bytes.at(TraceOp::kWrite) == 16384);
  CHECK(q.bytes.at(TraceOp::kTrim) == 1048576);
  CHECK(q.per_device.at(8u << 20 | 16) == 1);  // 8,16
  TraceReaderOptions d = given(TraceFormat::kBlkparse);
  d.blkparse_dispatch = true;
  TraceReader reader(kTraces + "blkparse_sample.txt", d);
  const Tally t = tally(reader);  // same awk with $6=="D": read 1 (8192), write 1 (4096)
  CHECK(t.records == 2);
  CHECK(t.bytes.at(TraceOp::kRead) == 8192);
  CHECK(t.bytes.at(TraceOp::kWrite) == 4096);
}

TEST_CASE("DiskSim sample: flags bit 0 is read and sizes are sectors", "[trace]") {
  // grep -v '^#' disksim_sample.txt | awk '{k=($5%2)?"read":"write"; n[k]++; s[k]+=$4*512} END{...}'
  //   -> read 3 139264, write 3 12800
  const Tally t = read_both("disksim_sample.txt", TraceFormat::kDiskSim);
  CHECK(t.count.at(TraceOp::kRead) == 3);
  CHECK(t.count.at(TraceOp::kWrite) == 3);
  CHECK(t.bytes.at(TraceOp::kRead) == 139264);
  CHECK(t.bytes.at(TraceOp::kWrite) == 12800);
  TraceReader reader(kTraces + "disksim_sample.txt", given(TraceFormat::kDiskSim));
  TraceRecord r;
  REQUIRE(reader.next(r));
  REQUIRE(reader.next(r));
  CHECK(r.time_ps == 125ull * kPicosPerUs);  // 0.125 ms
}

TEST_CASE("fio iologs written by fio 3.33: v3 and the same log as v2", "[trace]") {
  // awk 'NR>1 {n[$3]++; if($3=="read"||$3=="write") b[$3]+=$5}' fio_v3_randrw.log
  //   -> read 23 168960, write 17 136704, sync 10 (flushes), add/open/close 1 each
  for (const auto& [file, format] :
       {std::pair{"fio_v3_randrw.log", TraceFormat::kFioV3}, std::pair{"fio_v2_randrw.log", TraceFormat::kFioV2}}) {
    const Tally t = read_both(file, format);
    CHECK(t.count.at(TraceOp::kRead) == 23);
    CHECK(t.count.at(TraceOp::kWrite) == 17);
    CHECK(t.count.at(TraceOp::kFlush) == 10);
    CHECK(t.bytes.at(TraceOp::kRead) == 168960);
    CHECK(t.bytes.at(TraceOp::kWrite) == 136704);
    CHECK(t.per_device.size() == 1);
  }
  // awk 'NR>1 && $3=="trim" {print $4, $5}' fio_v3_trim.log -> 57344 8192
  const Tally trim = read_both("fio_v3_trim.log", TraceFormat::kFioV3);
  CHECK(trim.records == 1);
  CHECK(trim.bytes.at(TraceOp::kTrim) == 8192);
  // v3 timestamps are microseconds. awk 'NR>1 && ($3=="read"||$3=="write"||$3=="sync") {t=$1} ...'
  // fio_v3_randrw.log: the first request at 179 us, the last at 67866 us.
  TraceReader reader(kTraces + "fio_v3_randrw.log", given(TraceFormat::kFioV3));
  TraceRecord r, last;
  REQUIRE(reader.next(r));
  CHECK(r.line == 4);
  while (reader.next(r)) last = r;
  CHECK(last.time_ps == (67866ull - 179) * kPicosPerUs);
}

TEST_CASE("fio v2 wait lines add to the time", "[trace]") {
  TraceReader reader(memory_byte_stream("fio version 2 iolog\nf add\nf open\nf write 0 4096\nf wait 2500 0\n"
                                        "f read 4096 4096\nf close\n"),
                     "w.log", TraceReaderOptions{});
  CHECK(reader.format() == TraceFormat::kFioV2);
  TraceRecord r;
  REQUIRE(reader.next(r));
  REQUIRE(reader.next(r));
  CHECK(r.time_ps == 2500 * kPicosPerUs);
  CHECK_FALSE(reader.next(r));
}

TEST_CASE("gzip and zstd copies give the same records as the plain file", "[trace]") {
  std::vector<TraceRecord> plain, gz, zst;
  for (auto [file, out] : {std::pair{"msr_sample.csv", &plain}, std::pair{"msr_sample.csv.gz", &gz},
                           std::pair{"msr_sample.csv.zst", &zst}}) {
    Compression c = Compression::kNone;
    (void)open_byte_stream(kTraces + file, &c);
    CHECK(c == (out == &plain ? Compression::kNone : out == &gz ? Compression::kGzip : Compression::kZstd));
    TraceReader reader(kTraces + file, TraceReaderOptions{});
    TraceRecord r;
    while (reader.next(r)) out->push_back(r);
  }
  REQUIRE(plain.size() == 8);
  const auto same = [](const std::vector<TraceRecord>& a, const std::vector<TraceRecord>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].time_ps != b[i].time_ps || a[i].offset != b[i].offset || a[i].bytes != b[i].bytes ||
          a[i].op != b[i].op || a[i].device != b[i].device || a[i].line != b[i].line)
        return false;
    return true;
  };
  CHECK(same(plain, gz));
  CHECK(same(plain, zst));
}

TEST_CASE("Compressed streams across many chunks: a large gzip and zstd trace reads like plain", "[trace]") {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += std::to_string(i) + " 0 " + std::to_string(i * 8) + " 8 " + std::to_string(i % 2) + "\n";
  // gzip, two members back to back (as `cat a.gz b.gz` makes)
  const auto gzip = [](const std::string& in) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, in.size()), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
  };
  const std::string half = text.substr(0, text.size() / 2 / 1000 * 1000);
  const std::size_t cut = text.find('\n', text.size() / 2) + 1;
  const std::string gz = gzip(text.substr(0, cut)) + gzip(text.substr(cut));
  std::string zst(ZSTD_compressBound(text.size()), '\0');
  zst.resize(ZSTD_compress(zst.data(), zst.size(), text.data(), text.size(), 3));
  for (const std::string& bytes : {text, gz, zst}) {
    TraceReader reader(memory_byte_stream(bytes), "big", given(TraceFormat::kDiskSim));
    const Tally t = tally(reader);
    CHECK(t.records == 20000);
    CHECK(t.count.at(TraceOp::kRead) == 10000);
  }
  (void)half;
  // A truncated compressed file is an error, not a short trace.
  CHECK_THAT(error_of(gz.substr(0, gz.size() / 3), given(TraceFormat::kDiskSim)), Catch::Contains("truncated"));
  CHECK_THAT(error_of(zst.substr(0, zst.size() / 2), given(TraceFormat::kDiskSim)), Catch::Contains("truncated"));
}

TEST_CASE("A malformed line names the file and its line and quotes at most 80 characters", "[trace]") {
  std::string text = slurp(kTraces + "msr_sample.csv");  // 3 comment lines + 8 records
  text += "128166372004061700,hm,0,Flush,0,0,0\n";       // line 12
  CHECK_THAT(error_of(text, given(TraceFormat::kMsr), "m.csv"),
             Catch::StartsWith("m.csv:12: Type must be Read or Write: '128166372004061700,hm,0,Flush,0,0,0'"));
  // Guessed format: the sampled lines are replayed with their own numbers (line 5 here).
  std::string early = "0 0 8 8 1\n0 0 16 8 0\n1 0 24 8 1\n2 0 32 8 0\n3 0 x 8 1\n4 0 40 8 1\n";
  const std::string e = error_of(early, TraceReaderOptions{}, "d.txt");
  CHECK_THAT(e, Catch::Contains("no trace format reads its 6 lines (the whole file)"));
  CHECK_THAT(e, Catch::Contains("disksim: line 5: BLOCK is not a sector number"));
  // Past the guess window: line 40.
  std::string later;
  for (int i = 1; i < 40; ++i) later += std::to_string(i) + " 0 8 8 1\n";
  later += "40 0 8 eight 1\n";
  CHECK_THAT(error_of(later, TraceReaderOptions{}, "d.txt"), Catch::StartsWith("d.txt:40: SIZE is not a sector count"));
  // A long line is cut to 80 characters in the message.
  const std::string junk(300, 'x');
  const std::string msg = error_of("1,2,3,r,0.5\n" + junk + "\n", given(TraceFormat::kSpc), "s.csv");
  CHECK_THAT(msg, Catch::StartsWith("s.csv:2: expected ASU,LBA,Size,Opcode,Timestamp, got 1 fields: '" +
                                    std::string(80, 'x') + "...'"));
  // Each format locates its own bad line.
  CHECK_THAT(error_of("8,0 0 1 0.5 1 Q W x + 8 [p]\n", given(TraceFormat::kBlkparse), "b"), Catch::StartsWith("b:1: "));
  CHECK_THAT(
      error_of("fio version 3 iolog\n1 f add\n2 f write 0 4096\n3 g write 0 1\n", given(TraceFormat::kFioV3), "f"),
      Catch::StartsWith("f:4: file 'g' was not added"));
  CHECK_THAT(error_of("fio version 2 iolog\nf add\nf scribble 0 1\n", given(TraceFormat::kFioV2), "f"),
             Catch::StartsWith("f:3: unknown action 'scribble'"));
  CHECK_THAT(error_of("a,b,c,r,1\n", given(TraceFormat::kSpc), "s"), Catch::StartsWith("s:1: ASU is not a number"));
}

TEST_CASE("skip_bad counts malformed lines and replays the rest", "[trace]") {
  TraceReaderOptions o = given(TraceFormat::kDiskSim);
  o.skip_bad = true;
  TraceReader reader(memory_byte_stream("0 0 8 8 1\nbad\n1 0 8 8 0\n2 0 8 8\n3 0 8 8 1\n"), "d", o);
  const Tally t = tally(reader);
  CHECK(t.records == 3);
  CHECK(reader.bad_lines() == 2);
}

TEST_CASE("A 10 MB line without a newline is an error and not an allocation", "[trace]") {
  const std::string huge(10 * 1000 * 1000, '7');
  const std::string e = error_of(huge, given(TraceFormat::kDiskSim), "huge");
  CHECK_THAT(e, Catch::StartsWith("huge:1: line longer than 65536 bytes"));
  CHECK_THAT(error_of("0 0 8 8 1\n" + huge, given(TraceFormat::kDiskSim), "huge"), Catch::StartsWith("huge:2: "));
}

TEST_CASE("A format that cannot be guessed names the candidates", "[trace]") {
  // DiskSim requests, then a line no format reads (blkparse takes "1,2" for a device).
  const std::string none = error_of("0 0 8 8 1\n1 0 16 8 1\n1,2 x\n", TraceReaderOptions{}, "c.txt");
  CHECK_THAT(none, Catch::StartsWith("c.txt: no trace format reads its 3 lines (the whole file); msr: line 1: "));
  CHECK_THAT(none, Catch::Contains("give --format (msr, spc, blkparse, fio2, fio3, disksim)"));
  // A file that a format reads whole without finding a request is an empty trace (issue 23);
  // text that only blkparse skips (it skips any line that is not an event) is no trace.
  CHECK(error_of("# nothing but a comment\n", TraceReaderOptions{}, "c.txt") == "c.txt: no request in c.txt");
  CHECK(error_of("", TraceReaderOptions{}, "c.txt") == "c.txt: no request in c.txt");
  CHECK_THAT(error_of("hello world\n", TraceReaderOptions{}, "c.txt"),
             Catch::StartsWith("c.txt: no trace format reads its 1 line (the whole file); msr: line 1: "));
  TraceFormat f;
  CHECK(parse_trace_format("umass", f));
  CHECK(f == TraceFormat::kSpc);
  CHECK_FALSE(parse_trace_format("csv", f));
}

TEST_CASE("CRLF line ends and a last line without a newline", "[trace]") {
  TraceReader reader(memory_byte_stream("0 0 8 8 1\r\n1 0 16 8 0"), "d", given(TraceFormat::kDiskSim));
  const Tally t = tally(reader);
  CHECK(t.records == 2);
}

// Issue 23: the docs said "the first 32 lines", the message "its first 24 lines" (a 24-line
// file). The guess reads at most TraceReader::kGuessLines lines; the message says which.
TEST_CASE("The format guess reads the first 32 lines and says so", "[trace]") {
  STATIC_REQUIRE(TraceReader::kGuessLines == 32);
  std::string text, short_text;
  for (int i = 0; i < 40; ++i) text += "not a trace line " + std::to_string(i) + "\n";
  for (int i = 0; i < 23; ++i) short_text += std::to_string(i) + " 0 8 8 1\n";
  const std::string long_error = error_of(text, TraceReaderOptions{}, "long.txt");
  CHECK_THAT(long_error, Catch::StartsWith("long.txt: no trace format reads its first 32 lines;"));
  CHECK_THAT(long_error, Catch::Contains("blkparse: no request in its first 32 lines"));
  CHECK_THAT(error_of(short_text + "1,2 x\n", TraceReaderOptions{}, "short.txt"),
             Catch::StartsWith("short.txt: no trace format reads its 24 lines (the whole file);"));
}
