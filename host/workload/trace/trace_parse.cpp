#include "host/workload/trace/trace_parse.h"

#include <array>
#include <cctype>
#include <limits>

namespace ssdlab::trace_detail {

namespace {

constexpr std::size_t kMaxFields = 12;
constexpr std::size_t kMaxFioFiles = 4096;
constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

struct Fields {
  std::array<std::string_view, kMaxFields> f;
  std::size_t n = 0;  // fields found (counting past kMaxFields: n can be larger than f holds)
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Fields split_commas(std::string_view line) {
  Fields out;
  for (;;) {
    const std::size_t comma = line.find(',');
    if (out.n < kMaxFields) out.f[out.n] = trim(line.substr(0, comma));
    ++out.n;
    if (comma == std::string_view::npos) return out;
    line.remove_prefix(comma + 1);
  }
}

Fields split_spaces(std::string_view line) {
  Fields out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (out.n < kMaxFields) out.f[out.n] = line.substr(start, i - start);
    ++out.n;
  }
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

bool mul_ok(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  if (b != 0 && a > kMaxU64 / b) return false;
  out = a * b;
  return true;
}

LineKind bad(std::string& why, std::string text) {
  why = std::move(text);
  return LineKind::kBad;
}

// Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (time in 100 ns ticks).
LineKind parse_msr(std::string_view line, ParseState& st, RawRecord& out, std::string& why) {
  const Fields f = split_commas(line);
  if (st.line == 1 && f.n >= 1 && iequals(f.f[0], "timestamp")) return LineKind::kSkip;  // a header some copies add
  if (f.n != 7)
    return bad(why,
               "expected 7 comma-separated fields (Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
               "ResponseTime), got " +
                   std::to_string(f.n));
  std::uint64_t ticks = 0;
  if (!parse_u64(f.f[0], ticks) || !mul_ok(ticks, 100, out.time_ns))
    return bad(why, "Timestamp is not a count of 100 ns ticks");
  if (!parse_u64(f.f[2], out.device)) return bad(why, "DiskNumber is not a number");
  if (iequals(f.f[3], "read")) {
    out.op = TraceOp::kRead;
  } else if (iequals(f.f[3], "write")) {
    out.op = TraceOp::kWrite;
  } else {
    return bad(why, "Type must be Read or Write");
  }
  if (!parse_u64(f.f[4], out.offset)) return bad(why, "Offset is not a byte count");
  if (!parse_u64(f.f[5], out.bytes)) return bad(why, "Size is not a byte count");
  return LineKind::kRecord;
}

// ASU,LBA,Size,Opcode,Timestamp[,...] (LBA in sectors, Size in bytes, time in seconds).
LineKind parse_spc(std::string_view line, ParseState&, RawRecord& out, std::string& why) {
  const Fields f = split_commas(line);
  if (f.n < 5) return bad(why, "expected ASU,LBA,Size,Opcode,Timestamp, got " + std::to_string(f.n) + " fields");
  if (!parse_u64(f.f[0], out.device)) return bad(why, "ASU is not a number");
  std::uint64_t lba = 0;
  if (!parse_u64(f.f[1], lba) || !mul_ok(lba, kSectorBytes, out.offset)) return bad(why, "LBA is not a sector number");
  if (!parse_u64(f.f[2], out.bytes)) return bad(why, "Size is not a byte count");
  const std::string_view op = f.f[3];
  if (iequals(op, "r") || iequals(op, "read")) {
    out.op = TraceOp::kRead;
  } else if (iequals(op, "w") || iequals(op, "write")) {
    out.op = TraceOp::kWrite;
  } else {
    return bad(why, "Opcode must be r or w");
  }
  if (!parse_fixed(f.f[4], 9, out.time_ns)) return bad(why, "Timestamp is not a time in seconds");
  return LineKind::kRecord;
}

bool parse_dev(std::string_view text, std::uint64_t& dev) {
  const std::size_t comma = text.find(',');
  std::uint64_t major = 0, minor = 0;
  if (comma == std::string_view::npos || !parse_u64(text.substr(0, comma), major) ||
      !parse_u64(text.substr(comma + 1), minor) || major >= (1u << 12) || minor >= (1u << 20))
    return false;
  dev = major << 20 | minor;
  return true;
}

// MAJ,MIN CPU SEQ TIMESTAMP PID ACTION RWBS [SECTOR + NSECTORS] [PROCESS]
LineKind parse_blkparse(std::string_view line, ParseState& st, RawRecord& out, std::string& why) {
  const Fields f = split_spaces(line);
  if (f.n == 0 || !parse_dev(f.f[0], out.device)) return LineKind::kSkip;  // summaries, CPU totals
  if (f.n < 7) return bad(why, "a blkparse event needs MAJ,MIN CPU SEQ TIMESTAMP PID ACTION RWBS");
  if (!parse_fixed(f.f[3], 9, out.time_ns)) return bad(why, "TIMESTAMP is not a time in seconds");
  const std::string_view action = f.f[5];
  if (action != (st.blkparse_dispatch ? "D" : "Q")) return LineKind::kEvent;
  const std::string_view rwbs = f.f[6];
  const bool has_range = f.n >= 10 && f.f[8] == "+";
  std::uint64_t sector = 0, sectors = 0;
  if (has_range && (!parse_u64(f.f[7], sector) || !parse_u64(f.f[9], sectors) ||
                    !mul_ok(sector, kSectorBytes, out.offset) || !mul_ok(sectors, kSectorBytes, out.bytes)))
    return bad(why, "SECTOR + NSECTORS are not numbers");
  const auto has = [&](char c) { return rwbs.find(c) != std::string_view::npos; };
  if (has('D')) {
    out.op = TraceOp::kTrim;
  } else if (has('R')) {
    out.op = TraceOp::kRead;
  } else if (has('W') && has_range && sectors > 0) {
    out.op = TraceOp::kWrite;  // a preflush or FUA flag on a write is not replayed on its own
  } else if (has('F')) {
    out.op = TraceOp::kFlush;
    out.offset = out.bytes = 0;
    return LineKind::kRecord;
  } else {
    return LineKind::kEvent;  // N (no data) and the like
  }
  if (!has_range) return bad(why, "a read, write or discard needs SECTOR + NSECTORS");
  return LineKind::kRecord;
}

// fio iologs: [TIMESTAMP] FILE ACTION [OFFSET LENGTH].
LineKind parse_fio(std::string_view line, bool v3, ParseState& st, RawRecord& out, std::string& why) {
  const char* header = v3 ? "fio version 3 iolog" : "fio version 2 iolog";
  if (st.line == 1) {
    if (trim(line) == header) return LineKind::kSkip;
    return bad(why, std::string("the first line of this format is '") + header + "'");
  }
  const Fields all = split_spaces(line);
  if (all.n == 0) return LineKind::kSkip;
  std::size_t i = 0;
  if (v3) {
    std::uint64_t us = 0;
    if (!parse_u64(all.f[0], us) || !mul_ok(us, 1000, out.time_ns))
      return bad(why, "TIMESTAMP is not a count of microseconds");
    i = 1;
  } else {
    out.time_ns = st.fio_wait_ns;
  }
  if (all.n < i + 2) return bad(why, "expected FILE ACTION [OFFSET LENGTH]");
  const std::string_view file = all.f[i], action = all.f[i + 1];
  const bool ranged = all.n >= i + 4;
  std::uint64_t offset = 0, length = 0;
  if (ranged && (!parse_u64(all.f[i + 2], offset) || !parse_u64(all.f[i + 3], length)))
    return bad(why, "OFFSET and LENGTH must be byte counts");
  if (action == "add") {
    if (st.fio_files.size() >= kMaxFioFiles) return bad(why, "more than 4096 files");
    st.fio_files.emplace_back(file);
    return LineKind::kEvent;
  }
  std::size_t index = 0;
  while (index < st.fio_files.size() && st.fio_files[index] != file) ++index;
  if (index == st.fio_files.size()) return bad(why, "file '" + std::string(file.substr(0, 80)) + "' was not added");
  out.device = index;
  if (action == "open" || action == "close") return LineKind::kEvent;
  if (action == "wait" && !v3) {
    if (!ranged) return bad(why, "wait needs a time in microseconds");
    std::uint64_t ns = 0;
    if (!mul_ok(offset, 1000, ns) || st.fio_wait_ns > kMaxU64 - ns) return bad(why, "wait time overflows");
    st.fio_wait_ns += ns;
    return LineKind::kEvent;
  }
  if (action == "sync" || action == "datasync") {
    out.op = TraceOp::kFlush;
    out.offset = out.bytes = 0;
    return LineKind::kRecord;
  }
  if (action == "read") {
    out.op = TraceOp::kRead;
  } else if (action == "write") {
    out.op = TraceOp::kWrite;
  } else if (action == "trim") {
    out.op = TraceOp::kTrim;
  } else {
    return bad(why, "unknown action '" + std::string(action.substr(0, 20)) +
                        "' (add, open, close, read, write, trim, sync, datasync" + (v3 ? ")" : ", wait)"));
  }
  if (!ranged) return bad(why, "read, write and trim need OFFSET LENGTH");
  out.offset = offset;
  out.bytes = length;
  return LineKind::kRecord;
}

// ARRIVAL_MS DEVNO BLKNO SIZE_SECTORS FLAGS (flags bit 0 set: read).
LineKind parse_disksim(std::string_view line, ParseState&, RawRecord& out, std::string& why) {
  const Fields f = split_spaces(line);
  if (f.n != 5) return bad(why, "expected 5 fields (ARRIVAL_TIME DEVICE BLOCK SIZE FLAGS), got " + std::to_string(f.n));
  if (!parse_fixed(f.f[0], 6, out.time_ns)) return bad(why, "ARRIVAL_TIME is not a time in milliseconds");
  std::uint64_t block = 0, sectors = 0, flags = 0;
  if (!parse_u64(f.f[1], out.device)) return bad(why, "DEVICE is not a number");
  if (!parse_u64(f.f[2], block) || !mul_ok(block, kSectorBytes, out.offset))
    return bad(why, "BLOCK is not a sector number");
  if (!parse_u64(f.f[3], sectors) || !mul_ok(sectors, kSectorBytes, out.bytes))
    return bad(why, "SIZE is not a sector count");
  if (!parse_u64(f.f[4], flags)) return bad(why, "FLAGS is not a number");
  out.op = flags & 1 ? TraceOp::kRead : TraceOp::kWrite;
  return LineKind::kRecord;
}

}  // namespace

bool parse_u64(std::string_view text, std::uint64_t& out) {
  if (text.empty() || text.size() > 20) return false;
  std::uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (kMaxU64 - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

bool parse_fixed(std::string_view text, int digits, std::uint64_t& out) {
  const std::size_t dot = text.find('.');
  std::uint64_t whole = 0, scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  if (!parse_u64(text.substr(0, dot), whole) || !mul_ok(whole, scale, out)) return false;
  if (dot == std::string_view::npos) return true;
  std::uint64_t frac = 0;
  int used = 0;
  for (const char c : text.substr(dot + 1)) {
    if (c < '0' || c > '9') return false;
    if (used < digits) {
      frac = frac * 10 + static_cast<std::uint64_t>(c - '0');
      ++used;
    }
  }
  for (; used < digits; ++used) frac *= 10;
  if (out > kMaxU64 - frac) return false;
  out += frac;
  return true;
}

LineKind parse_line(TraceFormat format, std::string_view line, ParseState& state, RawRecord& out, std::string& why) {
  const std::string_view t = trim(line);
  const bool fio = format == TraceFormat::kFioV2 || format == TraceFormat::kFioV3;
  if (!(fio && state.line == 1) && (t.empty() || t.front() == '#')) return LineKind::kSkip;
  switch (format) {
    case TraceFormat::kMsr:
      return parse_msr(t, state, out, why);
    case TraceFormat::kSpc:
      return parse_spc(t, state, out, why);
    case TraceFormat::kBlkparse:
      return parse_blkparse(t, state, out, why);
    case TraceFormat::kFioV2:
      return parse_fio(t, false, state, out, why);
    case TraceFormat::kFioV3:
      return parse_fio(t, true, state, out, why);
    case TraceFormat::kDiskSim:
      return parse_disksim(t, state, out, why);
  }
  return bad(why, "unknown format");
}

}  // namespace ssdlab::trace_detail
