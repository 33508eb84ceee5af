// Drive-config test helpers shared by test_config.cpp and test_config_limits.cpp: a small
// valid drive (kBase) and parse / error_of over it.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "base/config/config_loader.h"

namespace ssdlab::config_test {

// Line numbers in the tests below refer to this text.
inline const std::string kBase =
    "name: test\n"                          // 1
    "nand:\n"                               // 2
    "  channels: 4\n"                       // 3
    "  dies_per_channel: 4\n"               // 4
    "  blocks_per_plane: 128\n"             // 5
    "  pages_per_block: 128\n"              // 6
    "  page_size: 4KiB\n"                   // 7
    "  cell: MLC\n"                         // 8
    "  t_read: 50us\n"                      // 9
    "  t_prog: {lsb: 250us, msb: 900us}\n"  // 10
    "  t_erase: 2ms\n"                      // 11
    "  bus_rate: 100MB/s\n"                 // 12
    "controller:\n"                         // 13
    "  write_buffer: 8MiB\n"                // 14
    "  op: 0.07\n";                         // 15

inline constexpr std::uint64_t kRaw = 1ULL << 30;  // 16 dies x 128 blocks x 128 pages x 4 KiB

// kBase with one piece of text replaced (the text must occur).
inline std::string with(const std::string& from, const std::string& to, std::string text = kBase) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

inline DriveConfig parse(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return parse_drive_config(yaml, "x.yaml", overrides);
}

// The ConfigError message, or "(no error)".
inline std::string error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    parse(yaml, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace ssdlab::config_test
