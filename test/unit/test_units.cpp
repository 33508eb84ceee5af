// Units: exact parsing of durations, sizes and rates, and formatting that parses back.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "base/core/units.h"

using namespace ssdlab;

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// The message of the std::invalid_argument thrown by `parse`, or "" if none was thrown.
template <typename Parse>
std::string error_of(Parse parse, const std::string& text) {
  try {
    parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// A fixed pseudo-random sequence (no dependence on the standard library's engines).
std::uint64_t next_random(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return state ^ (state >> 29);
}

}  // namespace

TEST_CASE("durations parse to exact picoseconds in every unit", "[units]") {
  CHECK(parse_duration("0") == 0);
  CHECK(parse_duration("250ps") == 250);
  CHECK(parse_duration("50ns") == 50'000);
  CHECK(parse_duration("50us") == 50'000'000);
  CHECK(parse_duration("2ms") == 2'000'000'000);
  CHECK(parse_duration("2s") == 2'000'000'000'000);
  CHECK(parse_duration("30min") == 30ULL * 60 * 1'000'000'000'000);
  CHECK(parse_duration("1h") == 3600ULL * 1'000'000'000'000);
  CHECK(parse_duration("0s") == 0);
}

TEST_CASE("decimal durations are exact, not rounded through a double", "[units]") {
  CHECK(parse_duration("0.1ms") == 100'000'000);
  CHECK(parse_duration("1.5ms") == 1'500'000'000);
  CHECK(parse_duration("0.3us") == 300'000);
  CHECK(parse_duration("2.000ns") == 2'000);
  CHECK(parse_duration("0.000001us") == 1);
  CHECK(parse_duration("1.25h") == 4500ULL * 1'000'000'000'000);
  CHECK(parse_duration("4 us") == 4'000'000);  // one space before the unit is allowed
}

TEST_CASE("sub-picosecond durations round to the nearest picosecond", "[units]") {
  CHECK(parse_duration("0.4ps") == 0);
  CHECK(parse_duration("0.5ps") == 1);
  CHECK(parse_duration("1.0004ns") == 1'000);
  CHECK(parse_duration("1.0005ns") == 1'001);
}

TEST_CASE("bad durations are rejected with the text and the accepted units", "[units]") {
  const std::string message = error_of(parse_duration, "5");
  CHECK_THAT(message, Catch::Contains("\"5\""));
  CHECK_THAT(message, Catch::Contains("unit is required"));
  CHECK_THAT(message, Catch::Contains("ps, ns, us, ms, s, min, h"));
  CHECK_THAT(error_of(parse_duration, "-1ms"), Catch::Contains("negative"));
  CHECK_THAT(error_of(parse_duration, "1.5xs"), Catch::Contains("unknown unit \"xs\""));
  CHECK_THAT(error_of(parse_duration, "1ms junk"), Catch::Contains("unknown unit"));
  CHECK_THAT(error_of(parse_duration, ""), Catch::Contains("empty"));
  CHECK_THAT(error_of(parse_duration, "99999999h"), Catch::Contains("too large"));
  CHECK_THAT(error_of(parse_duration, "18446744073709551616ps"), Catch::Contains("too large"));
  for (const char* bad : {"nan", "NaN ms", "inf", "1e3ms", ".5ms", "5.ms", "ms", "+1ms", "1MS"})
    CHECK_THROWS_AS(parse_duration(bad), std::invalid_argument);
}

TEST_CASE("sizes accept bytes and binary and decimal multiples", "[units]") {
  CHECK(parse_size("0") == 0);
  CHECK(parse_size("512") == 512);
  CHECK(parse_size("512B") == 512);
  CHECK(parse_size("4KiB") == 4096);
  CHECK(parse_size("1MiB") == 1048576);
  CHECK(parse_size("2GiB") == 2147483648ULL);
  CHECK(parse_size("1TiB") == 1099511627776ULL);
  CHECK(parse_size("1KB") == 1000);
  CHECK(parse_size("4MB") == 4000000);
  CHECK(parse_size("30GB") == 30000000000ULL);
  CHECK(parse_size("1TB") == 1000000000000ULL);
  CHECK(parse_size("1.5KiB") == 1536);
  CHECK(parse_size("0.5MB") == 500000);
  CHECK(parse_size("18446744073709551615") == kMax);
}

TEST_CASE("sizes must come out as a whole number of bytes", "[units]") {
  CHECK_THAT(error_of(parse_size, "1.3B"), Catch::Contains("whole number of bytes"));
  CHECK_THAT(error_of(parse_size, "1.5"), Catch::Contains("whole number of bytes"));
  CHECK_THAT(error_of(parse_size, "0.0001KiB"), Catch::Contains("whole number"));
  CHECK_THAT(error_of(parse_size, "4kib"), Catch::Contains("KiB, MiB, GiB, TiB, KB, MB"));
  CHECK_THAT(error_of(parse_size, "-4KiB"), Catch::Contains("negative"));
  CHECK_THAT(error_of(parse_size, "20000000TiB"), Catch::Contains("too large"));
  CHECK_THAT(error_of(parse_size, "18446744073709551616"), Catch::Contains("too large"));
  CHECK_THAT(error_of(parse_size, "4KiBx"), Catch::Contains("\"4KiBx\""));
}

TEST_CASE("bit rates and byte rates parse exactly", "[units]") {
  CHECK(parse_bits_per_s("1.5Gbps") == 1500000000ULL);
  CHECK(parse_bits_per_s("3Gbps") == 3000000000ULL);
  CHECK(parse_bits_per_s("6Gbps") == 6000000000ULL);
  CHECK(parse_bits_per_s("100Mbps") == 100000000ULL);
  CHECK(parse_bits_per_s("10Kbps") == 10000);
  CHECK(parse_bits_per_s("1bps") == 1);
  CHECK(parse_bytes_per_s("100MB/s") == 100000000ULL);
  CHECK(parse_bytes_per_s("40MiB/s") == 40ULL * 1048576);
  CHECK(parse_bytes_per_s("1.2GB/s") == 1200000000ULL);
  CHECK(parse_bytes_per_s("500KB/s") == 500000);
  CHECK(parse_bytes_per_s("1B/s") == 1);
  CHECK(parse_bytes_per_s("2KiB/s") == 2048);
  CHECK(parse_bytes_per_s("1GiB/s") == 1073741824ULL);
}

TEST_CASE("bad rates are rejected", "[units]") {
  CHECK_THAT(error_of(parse_bits_per_s, "3"), Catch::Contains("bps, Kbps, Mbps, Gbps"));
  CHECK_THAT(error_of(parse_bits_per_s, "3GB/s"), Catch::Contains("unknown unit"));
  CHECK_THAT(error_of(parse_bits_per_s, "1.5bps"), Catch::Contains("whole number"));
  CHECK_THAT(error_of(parse_bytes_per_s, "100MB"), Catch::Contains("B/s, KB/s, MB/s"));
  CHECK_THAT(error_of(parse_bytes_per_s, "-1MB/s"), Catch::Contains("negative"));
  CHECK_THROWS_AS(parse_bytes_per_s("100 MB/s/s"), std::invalid_argument);
}

TEST_CASE("format picks the largest exact, short unit", "[units]") {
  CHECK(format_duration(0) == "0");
  CHECK(format_duration(250) == "250ps");
  CHECK(format_duration(50'000) == "50ns");
  CHECK(format_duration(50'000'000) == "50us");
  CHECK(format_duration(1'500'000'000) == "1.5ms");
  CHECK(format_duration(2'000'000'000'000) == "2s");
  CHECK(format_duration(90ULL * 1'000'000'000'000) == "90s");
  CHECK(format_duration(3600ULL * 1'000'000'000'000) == "1h");
  CHECK(format_duration(1'234'567) == "1234567ps");
  CHECK(format_size(0) == "0B");
  CHECK(format_size(4096) == "4KiB");
  CHECK(format_size(30000000000ULL) == "30GB");
  CHECK(format_size(1000) == "1KB");
  CHECK(format_size(1234) == "1234B");
  CHECK(format_size(8ULL << 20) == "8MiB");
  CHECK(format_size(1ULL << 30) == "1GiB");
  CHECK(format_bits_per_s(3000000000ULL) == "3Gbps");
  CHECK(format_bits_per_s(1500000000ULL) == "1.5Gbps");
  CHECK(format_bytes_per_s(100000000ULL) == "100MB/s");
  CHECK(format_bytes_per_s(40ULL * 1048576) == "40MiB/s");
}

TEST_CASE("formatted quantities parse back to the same value", "[units]") {
  std::vector<std::uint64_t> values = {0,    1,    7,    511,        512,  1000,     1023,
                                       1024, 1536, 4096, 1000000000, kMax, kMax - 1, 1ULL << 63};
  std::uint64_t state = 42;
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t r = next_random(state);
    values.push_back(r >> (r % 64));                   // all magnitudes
    values.push_back((r % 100000) * 1000000);          // round decimal values
    values.push_back((r % 100000) << (10 * (r % 5)));  // round binary values
  }
  for (const std::uint64_t v : values) {
    INFO("value " << v);
    REQUIRE(parse_duration(format_duration(v)) == v);
    REQUIRE(parse_size(format_size(v)) == v);
    REQUIRE(parse_bits_per_s(format_bits_per_s(v)) == v);
    REQUIRE(parse_bytes_per_s(format_bytes_per_s(v)) == v);
  }
}
