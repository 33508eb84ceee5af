// libFuzzer target: the scenario loader (phases, repeat blocks, fio-like jobs, overrides).
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/config/config_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return 0;
  try {
    (void)ssdlab::parse_scenario(std::string(reinterpret_cast<const char*>(data), size), "scenarios/fuzz.yaml");
  } catch (const ssdlab::ConfigError&) {
    // rejected with a located message: fine
  }
  return 0;
}
