// Reading and writing values of parameter-table entries (params.h) as YAML: strict typed reads
// that check the entry's range or choices, defaults, and the effective config's value text.
// Internal to the loaders, like config_yaml.h.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "base/config/config_yaml.h"
#include "base/config/params.h"

namespace ssdlab::config_detail {

// The value of `node` (at `path`) as entry `p` reads it, checked against its bounds and
// choices: kCount, kSize, kDuration, kDataRate, kBitRate.
std::uint64_t read_param_uint(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p);
// kNumber, checked against its range.
double read_param_number(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p);
// kChoice: the lowercased choice or alias named (case-insensitive), else an error listing them.
std::string read_param_choice(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p);
// kString, non-empty if the entry says so.
std::string read_param_string(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p);

// Sets the DriveConfig member of `p` from `node` (a scalar entry; not kPageTimes).
void read_drive_value(const YamlSource& src, const YAML::Node& node, const Param& p, DriveConfig& config);
// Sets the member of an optional entry to the table's default.
void set_drive_default(const Param& p, DriveConfig& config);
// The per-page-type times a kPageTimes entry fills.
const std::array<Picos, 3>& drive_times(const Param& p, const DriveConfig& config);
// The member of `p` as the effective config writes it (not kPageTimes or kSection).
std::string drive_value_yaml(const Param& p, const DriveConfig& config);
// Shortest decimal text that reads back as exactly `value`.
std::string fraction_text(double value);

}  // namespace ssdlab::config_detail
