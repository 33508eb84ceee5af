// Quantities written as strings with units: "50us", "4KiB", "3Gbps", "100MB/s".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "base/core/types.h"

namespace ssdlab {

// All parsers throw std::invalid_argument with a message that quotes the text
// and lists the accepted units. Values must be finite, >= 0 and fit in 64 bits.

// "0", "250ps", "50ns", "50us", "1.5ms", "2s", "30min", "1h" -> picoseconds (rounded to nearest).
Picos parse_duration(const std::string& text);
// "30d", "1y", "6w", "12h" -> whole seconds (y = 365 d): a data age, beyond what Picos holds.
std::uint64_t parse_age_seconds(const std::string& text);
// "512", "512B", "4KiB", "1MiB", "2GiB", "1TiB" (binary), "30GB", "1KB", "4MB", "1TB" (decimal).
// Must come out as a whole number of bytes.
std::uint64_t parse_size(const std::string& text);
// Link rates in bits per second: "1.5Gbps", "3Gbps", "6Gbps", "100Mbps", "10Kbps", "1bps".
std::uint64_t parse_bits_per_s(const std::string& text);
// Data rates in bytes per second: "100MB/s", "40MiB/s", "1.2GB/s", "500KB/s", "1B/s".
std::uint64_t parse_bytes_per_s(const std::string& text);

// Readable forms, used in reports and in the effective config (they parse back exactly).
std::string format_age(std::uint64_t seconds);     // e.g. "1y", "30d"
std::string format_duration(Picos ps);             // e.g. "50us", "1.5ms", "250ps": exact, shortest unit that is
std::string format_size(std::uint64_t bytes);      // e.g. "4KiB", "30GB", "1000B": exact
std::string format_bits_per_s(std::uint64_t bps);  // e.g. "3Gbps", "1.5Gbps"
std::string format_bytes_per_s(std::uint64_t bytes_per_s);  // e.g. "100MB/s"

}  // namespace ssdlab
