// libFuzzer target: block traces in every format (and guessed), plain or compressed, through the
// readers and the TraceSource: bad input is a TraceError or a counted bad line, in bounded time
// and memory, and every command handed out lies on the drive and within max transfer.
#include <cstddef>
#include <cstdint>
#include <string>

#include "host/workload/trace/trace_source.h"

namespace {

constexpr std::uint64_t kCapacity = 1u << 20;  // sectors
constexpr std::uint32_t kMaxTransfer = 256;

void replay(const std::string& bytes, const ssdlab::TraceReaderOptions& ro, ssdlab::TraceLba lba) {
  ssdlab::TraceSourceOptions so;
  so.capacity_sectors = kCapacity;
  so.max_transfer_sectors = kMaxTransfer;
  so.lba = lba;
  so.timing = ssdlab::TraceTiming::kTrace;
  so.speed = 3.0;
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
    }
  } catch (const ssdlab::TraceError&) {
    // refused with a located message: fine
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 65536) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  ssdlab::TraceReaderOptions guess;
  guess.skip_bad = size % 2 == 1;
  guess.blkparse_dispatch = size % 3 == 0;
  replay(bytes, guess, static_cast<ssdlab::TraceLba>(size % 3));
  ssdlab::TraceReaderOptions given;
  given.format_given = true;
  given.format = static_cast<ssdlab::TraceFormat>(size % ssdlab::kTraceFormats);
  given.skip_bad = true;
  replay(bytes, given, ssdlab::TraceLba::kWrap);
  return 0;
}
