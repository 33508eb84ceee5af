// Typed reads of parameter-table entries, their defaults and their effective-config text.
#include "base/config/params_yaml.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "base/config/config_loader.h"
#include "base/core/units.h"

namespace ssdlab::config_detail {
namespace {

constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();

// The accessors only select a member; reading through them does not modify the config.
template <typename T>
const T& member(const DriveConfig& config, T& (*select)(DriveConfig&)) {
  return select(const_cast<DriveConfig&>(config));
}

std::string number_text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

std::string list_text(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

// A size checked against the entry's bounds, multiple and power-of-two facts.
void check_size(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p,
                std::uint64_t v) {
  const std::string got = ", got " + node.Scalar();
  const std::string multiple = std::to_string(p.multiple_of) + " bytes";
  if (p.power_of_two) {
    if (v < p.min || v > p.max || (v & (v - 1)) != 0 || (p.multiple_of && v % p.multiple_of != 0))
      src.fail(node, path, "must be a power of two and a multiple of " + multiple + got);
    return;
  }
  if (p.multiple_of > 1) {
    if (v >= p.min && v <= p.max && v % p.multiple_of == 0) return;
    if (p.max < kU32Max)
      src.fail(
          node, path,
          "must be a multiple of " + multiple + " between " + format_size(p.min) + " and " + format_size(p.max) + got);
    src.fail(node, path, "must be a multiple of " + multiple + " (at least " + format_size(p.min) + ")" + got);
  }
  if (v < p.min) src.fail(node, path, p.min == 1 ? "must be > 0" : "must be at least " + format_size(p.min) + got);
  if (v > p.max) src.fail(node, path, "must be at most " + format_size(p.max) + got);
}

}  // namespace

std::string fraction_text(double value) {
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::uint64_t read_param_uint(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p) {
  std::uint64_t v = 0;
  switch (p.kind) {
    case ParamKind::kCount:
      return get_uint(src, node, path, p.min, p.max);
    case ParamKind::kSize:
      v = get_size(src, node, path);
      check_size(src, node, path, p, v);
      return v;
    case ParamKind::kBitRate:
      v = get_bits_per_s(src, node, path);
      if (!p.choices.empty() && std::none_of(p.choices.begin(), p.choices.end(),
                                             [&](const std::string& rate) { return parse_bits_per_s(rate) == v; }))
        src.fail(node, path, "must be " + list_text(p.choices) + ", got " + node.Scalar());
      return v;
    case ParamKind::kDuration:
    case ParamKind::kDataRate:
      v = p.kind == ParamKind::kDuration ? get_duration(src, node, path) : get_bytes_per_s(src, node, path);
      if (v < p.min) src.fail(node, path, "must be > 0");
      return v;
    default:
      src.fail(node, path, "internal error: not an integer key");
  }
}

double read_param_number(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p) {
  const double v = get_double(src, node, path);
  const bool above = p.real_max_open ? v >= p.real_max : v > p.real_max;
  if (v < p.real_min || above)
    src.fail(node, path,
             "must be >= " + number_text(p.real_min) + " and " + (p.real_max_open ? "< " : "<= ") +
                 number_text(p.real_max) + ", got " + node.Scalar());
  return v;
}

std::string read_param_choice(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p) {
  const std::string name = lowercase(get_string(src, node, path));
  std::vector<std::string> names = p.choices;
  names.insert(names.end(), p.aliases.begin(), p.aliases.end());
  for (const std::string& candidate : names)
    if (lowercase(candidate) == name) return name;
  src.fail(node, path,
           "expected " + list_text(p.choices) + ", got '" + node.Scalar() + "'" + did_you_mean(name, names));
}

std::string read_param_string(const YamlSource& src, const YAML::Node& node, const std::string& path, const Param& p) {
  std::string text = get_string(src, node, path);
  if (p.non_empty && text.empty()) src.fail(node, path, "must not be empty");
  return text;
}

void read_drive_value(const YamlSource& src, const YAML::Node& node, const Param& p, DriveConfig& config) {
  const DriveField& f = p.field;
  switch (p.kind) {
    case ParamKind::kString:
      f.text(config) = read_param_string(src, node, p.path, p);
      return;
    case ParamKind::kNumber:
      f.real(config) = read_param_number(src, node, p.path, p);
      return;
    case ParamKind::kBool:
      f.flag(config) = get_bool(src, node, p.path);
      return;
    case ParamKind::kChoice: {
      const std::string name = read_param_choice(src, node, p.path, p);
      for (std::size_t i = 0; i < p.choices.size(); ++i)
        if (lowercase(p.choices[i]) == name) f.set_choice(config, i);
      return;
    }
    default: {
      const std::uint64_t v = read_param_uint(src, node, p.path, p);
      if (f.u32 != nullptr)
        f.u32(config) = static_cast<std::uint32_t>(v);  // the entry's bounds keep it within 32 bits
      else
        f.u64(config) = v;
    }
  }
}

void set_drive_default(const Param& p, DriveConfig& config) {
  const YamlSource table("the parameter table");
  read_drive_value(table, YAML::Node(p.default_text), p, config);
}

const std::array<Picos, 3>& drive_times(const Param& p, const DriveConfig& config) {
  return member(config, p.field.times);
}

std::string drive_value_yaml(const Param& p, const DriveConfig& c) {
  const DriveField& f = p.field;
  const auto wide = [&] { return f.u32 != nullptr ? member(c, f.u32) : member(c, f.u64); };
  switch (p.kind) {
    case ParamKind::kString: {
      YAML::Emitter out;
      out << YAML::DoubleQuoted << member(c, f.text);
      return out.c_str();
    }
    case ParamKind::kCount:
      return std::to_string(wide());
    case ParamKind::kSize:
      return format_size(wide());
    case ParamKind::kDuration:
      return format_duration(wide());
    case ParamKind::kDataRate:
      return format_bytes_per_s(wide());
    case ParamKind::kBitRate:
      return format_bits_per_s(wide());
    case ParamKind::kBool:
      return member(c, f.flag) ? "true" : "false";
    case ParamKind::kNumber:
      return fraction_text(member(c, f.real));
    case ParamKind::kChoice:
      return p.choices.at(f.get_choice(c));
    default:
      return "";
  }
}

}  // namespace ssdlab::config_detail
