// Exact parsing and formatting of quantities with units (see units.h).
//
// Numbers are read as decimal digits (integer part and fraction) and scaled with 128-bit
// integer arithmetic, never through a double, so "0.1ms" is exactly 100000000 ps.
#include "base/core/units.h"

#include <cctype>
#include <cstddef>
#include <limits>
#include <vector>

namespace ssdlab {
namespace {

using u128 = unsigned __int128;
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::size_t kMaxFractionDigits = 18;  // keeps every product inside 128 bits

struct Unit {
  const char* name;
  std::uint64_t multiplier;
};

// What a family of quantities accepts, and how a value is turned into an integer.
struct Family {
  const char* what;         // "duration", "size", ...
  std::vector<Unit> units;  // largest first is not required
  const char* bare_unit;    // unit of a bare number, nullptr = only zero may be bare
  bool round_to_nearest;    // otherwise the value must come out whole
  const char* whole_what;   // "bytes", "bits per second", ...
};

const Family& duration_family() {
  static const Family f{"duration",
                        {{"ps", 1},
                         {"ns", kPicosPerNs},
                         {"us", kPicosPerUs},
                         {"ms", kPicosPerMs},
                         {"s", kPicosPerSec},
                         {"min", 60 * kPicosPerSec},
                         {"h", 3600 * kPicosPerSec}},
                        nullptr,
                        true,
                        "picoseconds"};
  return f;
}

// Data ages (retention): months and years, beyond Picos' 213 days; whole seconds.
const Family& age_family() {
  static const Family f{"age",
                        {{"s", 1}, {"min", 60}, {"h", 3600}, {"d", 86400}, {"w", 7 * 86400}, {"y", 365 * 86400}},
                        nullptr,
                        true,
                        "seconds"};
  return f;
}

constexpr std::uint64_t kKi = 1024;
const Family& size_family() {
  static const Family f{"size",
                        {{"B", 1},
                         {"KiB", kKi},
                         {"MiB", kKi * kKi},
                         {"GiB", kKi * kKi * kKi},
                         {"TiB", kKi * kKi * kKi * kKi},
                         {"KB", 1000ULL},
                         {"MB", 1000000ULL},
                         {"GB", 1000000000ULL},
                         {"TB", 1000000000000ULL}},
                        "B",
                        false,
                        "bytes"};
  return f;
}

const Family& bits_family() {
  static const Family f{"bit rate",
                        {{"bps", 1}, {"Kbps", 1000ULL}, {"Mbps", 1000000ULL}, {"Gbps", 1000000000ULL}},
                        nullptr,
                        false,
                        "bits per second"};
  return f;
}

const Family& bytes_rate_family() {
  static const Family f{"data rate",
                        {{"B/s", 1},
                         {"KB/s", 1000ULL},
                         {"MB/s", 1000000ULL},
                         {"GB/s", 1000000000ULL},
                         {"KiB/s", kKi},
                         {"MiB/s", kKi * kKi},
                         {"GiB/s", kKi * kKi * kKi}},
                        nullptr,
                        false,
                        "bytes per second"};
  return f;
}

std::string unit_list(const Family& f) {
  std::string out;
  for (const Unit& u : f.units) {
    if (!out.empty()) out += ", ";
    out += u.name;
  }
  return out;
}

[[noreturn]] void fail(const Family& f, const std::string& text, const std::string& why) {
  throw std::invalid_argument("invalid " + std::string(f.what) + " \"" + text + "\": " + why +
                              " (accepted units: " + unit_list(f) + ")");
}

// A non-negative decimal number split into digits: value = integer + fraction / 10^digits.
struct Decimal {
  std::uint64_t integer = 0;
  std::uint64_t fraction = 0;
  std::uint64_t scale = 1;  // 10^(fraction digits)
  bool zero() const { return integer == 0 && fraction == 0; }
};

// Reads digits at text[pos...]; returns the end of the number. Throws on overflow.
std::size_t read_decimal(const Family& f, const std::string& text, Decimal& out) {
  std::size_t pos = 0;
  const std::size_t n = text.size();
  if (pos < n && (text[pos] == '-' || text[pos] == '+')) {
    if (text[pos] == '-') fail(f, text, "must not be negative");
    fail(f, text, "expected a number without a sign");
  }
  if (pos >= n || !std::isdigit(static_cast<unsigned char>(text[pos])))
    fail(f, text, "expected a number followed by a unit");
  for (; pos < n && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) {
    const u128 next = u128(out.integer) * 10 + (text[pos] - '0');
    if (next > kU64Max) fail(f, text, "value too large");
    out.integer = static_cast<std::uint64_t>(next);
  }
  if (pos < n && text[pos] == '.') {
    ++pos;
    if (pos >= n || !std::isdigit(static_cast<unsigned char>(text[pos])))
      fail(f, text, "expected digits after the decimal point");
    std::string digits;
    for (; pos < n && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) digits += text[pos];
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    if (digits.size() > kMaxFractionDigits) fail(f, text, "too many decimal places");
    for (char c : digits) {
      out.fraction = out.fraction * 10 + static_cast<std::uint64_t>(c - '0');
      out.scale *= 10;
    }
  }
  return pos;
}

const Unit* find_unit(const Family& f, const std::string& name) {
  for (const Unit& u : f.units)
    if (name == u.name) return &u;
  return nullptr;
}

std::uint64_t parse_quantity(const Family& f, const std::string& text) {
  if (text.empty()) fail(f, text, "empty value");
  Decimal d;
  std::size_t pos = read_decimal(f, text, d);
  if (pos < text.size() && text[pos] == ' ') ++pos;  // allow "4 KiB"
  const std::string unit_name = text.substr(pos);
  std::uint64_t multiplier = 1;
  if (unit_name.empty()) {
    if (f.bare_unit == nullptr && !d.zero()) fail(f, text, "a unit is required (a bare number is ambiguous)");
  } else {
    const Unit* unit = find_unit(f, unit_name);
    if (unit == nullptr) fail(f, text, "unknown unit \"" + unit_name + "\"");
    multiplier = unit->multiplier;
  }
  u128 value = u128(d.integer) * multiplier;
  const u128 frac = u128(d.fraction) * multiplier;
  value += frac / d.scale;
  const u128 rest = frac % d.scale;
  if (rest != 0) {
    if (!f.round_to_nearest) fail(f, text, "not a whole number of " + std::string(f.whole_what));
    if (2 * rest >= d.scale) ++value;
  }
  if (value > kU64Max) fail(f, text, "value too large");
  return static_cast<std::uint64_t>(value);
}

// Exact decimal rendering of value / multiplier, or "" if that needs more than 18 decimals.
std::string exact_decimal(std::uint64_t value, std::uint64_t multiplier) {
  std::string out = std::to_string(value / multiplier);
  u128 rest = value % multiplier;
  if (rest == 0) return out;
  out += '.';
  for (std::size_t i = 0; rest != 0; ++i) {
    if (i >= kMaxFractionDigits) return "";
    rest *= 10;
    out += static_cast<char>('0' + static_cast<int>(rest / multiplier));
    rest %= multiplier;
  }
  return out;
}

// Shortest exact representation without a leading "0." ("900us", not "0.9ms");
// on a tie the larger unit wins ("1.5ms", not "1500us"; "1KB", not "1000B").
std::string format_quantity(const Family& f, std::uint64_t value, const char* zero_text) {
  if (value == 0) return zero_text;
  std::string best;
  std::uint64_t best_multiplier = 0;
  for (const Unit& u : f.units) {
    if (value < u.multiplier) continue;
    const std::string number = exact_decimal(value, u.multiplier);
    if (number.empty()) continue;
    const std::string candidate = number + u.name;
    const bool shorter = best.empty() || candidate.size() < best.size();
    const bool tie_larger = candidate.size() == best.size() && u.multiplier > best_multiplier;
    if (shorter || tie_larger) {
      best = candidate;
      best_multiplier = u.multiplier;
    }
  }
  return best;
}

}  // namespace

Picos parse_duration(const std::string& text) { return parse_quantity(duration_family(), text); }
std::uint64_t parse_age_seconds(const std::string& text) { return parse_quantity(age_family(), text); }
std::uint64_t parse_size(const std::string& text) { return parse_quantity(size_family(), text); }
std::uint64_t parse_bits_per_s(const std::string& text) { return parse_quantity(bits_family(), text); }
std::uint64_t parse_bytes_per_s(const std::string& text) { return parse_quantity(bytes_rate_family(), text); }

std::string format_duration(Picos ps) { return format_quantity(duration_family(), ps, "0"); }
std::string format_age(std::uint64_t seconds) { return format_quantity(age_family(), seconds, "0"); }
std::string format_size(std::uint64_t bytes) { return format_quantity(size_family(), bytes, "0B"); }
std::string format_bits_per_s(std::uint64_t bps) { return format_quantity(bits_family(), bps, "0bps"); }
std::string format_bytes_per_s(std::uint64_t bytes_per_s) {
  return format_quantity(bytes_rate_family(), bytes_per_s, "0B/s");
}

}  // namespace ssdlab
