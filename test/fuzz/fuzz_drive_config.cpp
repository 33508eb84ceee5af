// libFuzzer target: the drive config loader with overrides. Input: YAML text, optionally
// followed by a line "%%" and one override ("key.path=value") per line. A config that loads
// must write an effective config that loads back to the same effective config.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/config/config_loader.h"

namespace {

void split(const std::string& input, std::string& yaml, std::vector<std::string>& overrides) {
  const std::size_t marker = input.find("\n%%\n");
  yaml = input.substr(0, marker);
  if (marker == std::string::npos) return;
  std::size_t start = marker + 4;
  while (start <= input.size() && overrides.size() < 16) {
    const std::size_t end = input.find('\n', start);
    overrides.push_back(input.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return 0;
  std::string yaml;
  std::vector<std::string> overrides;
  split(std::string(reinterpret_cast<const char*>(data), size), yaml, overrides);
  ssdlab::DriveConfig config;
  try {
    config = ssdlab::parse_drive_config(yaml, "fuzz.yaml", overrides);
  } catch (const ssdlab::ConfigError&) {
    return 0;  // rejected with a located message: fine
  }
  const std::string effective = ssdlab::effective_config_yaml(config);
  std::string again;
  try {
    again = ssdlab::effective_config_yaml(ssdlab::parse_drive_config(effective, "effective.yaml"));
  } catch (const ssdlab::ConfigError& e) {
    std::fprintf(stderr, "the effective config does not load back: %s\n%s", e.what(), effective.c_str());
    std::abort();
  }
  if (again != effective) {
    std::fprintf(stderr, "the effective config changes on reload:\n%s---\n%s", effective.c_str(), again.c_str());
    std::abort();
  }
  return 0;
}
