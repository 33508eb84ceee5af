// libFuzzer target: the unit parsers (base/core/units.h). A value that parses must format to
// text that parses back to the same value: the effective config relies on that.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "base/core/units.h"

namespace {

template <typename Parse, typename Format>
void round_trip(const std::string& text, Parse parse, Format format, const char* what) {
  std::uint64_t value = 0;
  try {
    value = parse(text);
  } catch (const std::invalid_argument&) {
    return;  // rejected with a message: fine
  }
  const std::string printed = format(value);
  std::uint64_t again = 0;
  try {
    again = parse(printed);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: '%s' -> %llu -> '%s' does not parse: %s\n", what, text.c_str(),
                 static_cast<unsigned long long>(value), printed.c_str(), e.what());
    std::abort();
  }
  if (again != value) {
    std::fprintf(stderr, "%s: '%s' -> %llu -> '%s' -> %llu\n", what, text.c_str(),
                 static_cast<unsigned long long>(value), printed.c_str(), static_cast<unsigned long long>(again));
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 256) return 0;  // unit strings are short; longer inputs only slow the search
  const std::string text(reinterpret_cast<const char*>(data), size);
  round_trip(text, ssdlab::parse_duration, ssdlab::format_duration, "duration");
  round_trip(text, ssdlab::parse_size, ssdlab::format_size, "size");
  round_trip(text, ssdlab::parse_bits_per_s, ssdlab::format_bits_per_s, "bit rate");
  round_trip(text, ssdlab::parse_bytes_per_s, ssdlab::format_bytes_per_s, "data rate");
  return 0;
}
