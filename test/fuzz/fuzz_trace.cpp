// libFuzzer target: block traces in every format (and guessed), plain or compressed, through the
// readers and the TraceSource: bad input is a TraceError or a counted bad line, in bounded time
// and memory, and every command handed out lies on the drive and within max transfer, with an
// issue time within the simulator's limit. The speed and the LBA policy are drawn from a hash
// of the input (the corpus stays plain traces): 2^-30 .. 2^19, 1 and 1e6 (issue 23: a speed
// below 1 overflowed the issue time).
#include <cstddef>
#include <cstdint>
#include <string>

#include "host/workload/trace/trace_source.h"

namespace {

constexpr std::uint64_t kCapacity = 1u << 20;  // sectors
constexpr std::uint32_t kMaxTransfer = 256;

std::uint64_t hash(const std::string& bytes) {  // FNV-1a
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

double speed_of(std::uint64_t h) {
  const std::uint64_t pick = h % 52;
  if (pick == 50) return 1.0;
  if (pick == 51) return 1e6;
  return static_cast<double>(std::uint64_t(1) << (pick % 50)) / double(std::uint64_t(1) << 30);
}

void replay(const std::string& bytes, const ssdlab::TraceReaderOptions& ro, ssdlab::TraceLba lba, double speed) {
  ssdlab::TraceSourceOptions so;
  so.capacity_sectors = kCapacity;
  so.max_transfer_sectors = kMaxTransfer;
  so.lba = lba;
  so.timing = ssdlab::TraceTiming::kTrace;
  so.speed = speed;
  try {
    ssdlab::TraceSource source(
        [&] {
          ssdlab::TraceReaderOptions o = ro;
          o.max_line = 4096;
          return std::make_unique<ssdlab::TraceReader>(ssdlab::memory_byte_stream(bytes), "fuzz", o);
        },
        so);
    ssdlab::IoSpec io;
    for (int i = 0; i < 100000 && source.next(io); ++i) {
      if (io.flush) continue;
      if (io.sectors == 0 || io.lba + io.sectors > kCapacity) __builtin_trap();
      if (!io.trim && io.sectors > kMaxTransfer) __builtin_trap();
      if (io.issue_at_ps > ssdlab::kMaxIssuePs) __builtin_trap();
    }
  } catch (const ssdlab::TraceError&) {
    // refused with a located message: fine
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 65536) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::uint64_t h = hash(bytes);
  ssdlab::TraceReaderOptions guess;
  guess.skip_bad = size % 2 == 1;
  guess.blkparse_dispatch = size % 3 == 0;
  replay(bytes, guess, static_cast<ssdlab::TraceLba>((h >> 8) % 3), speed_of(h));
  ssdlab::TraceReaderOptions given;
  given.format_given = true;
  given.format = static_cast<ssdlab::TraceFormat>(size % ssdlab::kTraceFormats);
  given.skip_bad = true;
  replay(bytes, given, static_cast<ssdlab::TraceLba>((h >> 16) % 3), speed_of(h >> 24));
  return 0;
}
