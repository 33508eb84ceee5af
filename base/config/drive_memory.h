// What building a drive from a config allocates at set-up, by the keys that size it, so that
// an allocation failure (std::bad_alloc names nothing) can say what it was and which key to
// lower. Estimates from the firmware's tables; plain C++, no SystemC.
#pragma once

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "base/config/config.h"
#include "base/config/config_loader.h"

namespace ssdlab {

struct SizedAllocation {
  std::string what;     // "L2P mapping table"
  std::string keys;     // the config keys that size it
  std::uint64_t bytes;  // about this much
};

// The set-up allocations of a drive from `config`, largest first. `keep_data`: the drive
// carries real bytes (`ssdlab serve`).
std::vector<SizedAllocation> drive_allocations(const DriveConfig& config, bool keep_data);

// "out of memory for drive 'NAME' (SOURCE) in WHAT: its largest set-up allocations are
// <what> <size>, sized by <keys>; ...".
std::string allocation_failure_message(const DriveConfig& config, bool keep_data, const std::string& what);

// Runs `build` (which sets up a drive from `config`); a std::bad_alloc from it becomes a
// ConfigError carrying allocation_failure_message.
template <typename Build>
auto with_named_allocations(const DriveConfig& config, bool keep_data, const std::string& what, Build&& build)
    -> decltype(build()) {
  try {
    return build();
  } catch (const std::bad_alloc&) {
    throw ConfigError(allocation_failure_message(config, keep_data, what));
  }
}

}  // namespace ssdlab
