// Internal helpers shared by the drive config and scenario loaders: error locations,
// strict typed reads of YAML scalars, key checking with "did you mean", and the drive
// config schema used to check and apply overrides. Not for use outside model/core.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/core/types.h"

namespace ssdlab::config_detail {

// Where YAML text came from; turns (node, key path) into "FILE:LINE: key.path: " messages.
class YamlSource {
 public:
  explicit YamlSource(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  // Everything at or below `path` now comes from the override `text` ("key=value").
  void mark_overridden(const std::string& path, const std::string& text);
  // "FILE:LINE", or "override 'key=value'" for overridden paths.
  std::string where(const YAML::Node& node, const std::string& path) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& path, const std::string& message) const;
  // An error about key `path` that is absent from `map` (found at `map_path`): located at
  // the line of the key that opens the map ("nand:"), not at the map's first entry.
  [[noreturn]] void fail_absent(const YAML::Node& map, const std::string& map_path, const std::string& path,
                                const std::string& message) const;
  // "PATH from override 'key=value'", "PATH at FILE:LINE" or "PATH (default)": where the
  // value of `path` came from (for errors that follow from several keys).
  std::string origin(const std::string& path) const;
  // "override 'key=value'" of the last applied override that set any of `paths`, or "".
  std::string last_override(const std::vector<std::string>& paths) const;
  // Remembers the (0-based) line of the key of `path`; check_map records every key it sees.
  void note_key_line(const std::string& path, int line) const;

 private:
  std::string name_;
  std::vector<std::pair<std::string, std::string>> overridden_;
  mutable std::map<std::string, int> key_lines_;  // positions only: a cache, hence mutable
};

// The first YAML document of `text`; `more` tells whether a later document holds anything
// (`more_at`: where). Throws YAML::Exception on a syntax error in any document.
YAML::Node first_document(const std::string& text, bool& more, YAML::Mark& more_at);
// Parses YAML text holding one document; syntax errors become ConfigError "NAME:LINE: syntax
// error: ...", a second (non-empty) document "NAME:LINE: a second YAML document ...; HOLDER
// holds one document" (`holder`: "a drive config").
YAML::Node load_yaml(const std::string& text, const std::string& name, const std::string& holder);
// Whole file; ConfigError "PATH: cannot open" if it cannot be read, "PATH: not a regular
// file (a character device)..." for anything but a regular file (/dev/zero would never end),
// "PATH: N bytes, more than a config file may hold" above kMaxConfigFileBytes.
std::string read_text_file(const std::string& path);

std::string join_path(const std::string& parent, const std::string& key);
std::string index_path(const std::string& parent, std::size_t index);  // "phases[2]"
std::string lowercase(std::string text);
// " (did you mean 'x'?)" when a candidate is close to `word` by edit distance, else "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

// `node` must be a map whose keys are all in `allowed` (no duplicates).
void check_map(const YamlSource& src, const YAML::Node& node, const std::string& path,
               const std::vector<std::string>& allowed);
// map[key], or a "required key missing" error located at the map.
YAML::Node require(const YamlSource& src, const YAML::Node& map, const std::string& path, const std::string& key);

// Strict reads of scalars; each reports errors at the node under `path`.
std::string get_scalar(const YamlSource& src, const YAML::Node& node, const std::string& path, const char* expected);
std::string get_string(const YamlSource& src, const YAML::Node& node, const std::string& path);
std::uint64_t get_uint(const YamlSource& src, const YAML::Node& node, const std::string& path, std::uint64_t min,
                       std::uint64_t max);
double get_double(const YamlSource& src, const YAML::Node& node, const std::string& path);
bool get_bool(const YamlSource& src, const YAML::Node& node, const std::string& path);
Picos get_duration(const YamlSource& src, const YAML::Node& node, const std::string& path);
std::uint64_t get_size(const YamlSource& src, const YAML::Node& node, const std::string& path);
std::uint64_t get_bits_per_s(const YamlSource& src, const YAML::Node& node, const std::string& path);
std::uint64_t get_bytes_per_s(const YamlSource& src, const YAML::Node& node, const std::string& path);
// Strict decimal number ("0.07", "-1", "1e-3"); false if `text` is not one (or not finite).
bool parse_plain_double(const std::string& text, double& out);

// ---- Drive config schema ----
// Child keys allowed under a drive config path ("" = top level, "nand", "nand.t_read", ...).
std::vector<std::string> drive_keys(const std::string& path);
// True if `path` ("controller.gc.policy") names a key of the drive config schema.
bool is_drive_key(const std::string& path);
// Keys of the per-page-type timing maps for a cell with `types` bits: lsb[, csb], msb.
std::vector<std::string> page_type_keys(unsigned types);
// Applies "key.path=value" overrides to `root` in order (see config_loader.h).
void apply_drive_overrides(YAML::Node& root, const std::vector<std::string>& overrides, YamlSource& src);

}  // namespace ssdlab::config_detail
