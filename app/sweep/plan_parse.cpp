// Sweep plans: YAML -> Plan, with the drive config loader's strict reading (config_yaml.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/sweep/derive_expr.h"
#include "app/sweep/plan.h"
#include "base/config/config_loader.h"
#include "base/config/config_yaml.h"
#include "base/config/params.h"
#include "base/core/units.h"

namespace ssdlab::sweep {
namespace {

using namespace config_detail;

std::string resolve(const std::string& path, const std::string& plan_path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (p.is_relative()) p = fs::path(plan_path).parent_path() / p;
  return fs::absolute(p).lexically_normal().string();
}

int line_of(const YAML::Node& node) { return node.Mark().is_null() ? 0 : node.Mark().line + 1; }

std::vector<std::string> drive_key_names() {
  std::vector<std::string> names;
  for (const Param& p : drive_params())
    if (p.kind != ParamKind::kSection) names.push_back(p.path);
  return names;
}

// A drive key named in the plan: known to the parameter table, else "unknown drive key" with
// the closest one.
void check_drive_key(const YamlSource& src, const YAML::Node& node, const std::string& path, const std::string& key) {
  if (!is_drive_key(key))
    src.fail(node, path, "'" + key + "' is not a drive config key" + did_you_mean(key, drive_key_names()));
}

// A value as an override writes it: a scalar as it is, anything else in YAML's flow style.
std::string value_text(const YAML::Node& node) {
  if (node.IsScalar()) return node.Scalar();
  YAML::Emitter flow;
  flow << YAML::Flow << node;
  return flow.c_str();
}

// A number, or a size with a unit ("64KiB", as bytes): range bounds and steps.
double range_number(const YamlSource& src, const YAML::Node& node, const std::string& path, bool& sized) {
  const std::string text = get_scalar(src, node, path, "a number or a size");
  double value = 0;
  if (parse_plain_double(text, value)) return value;
  try {
    sized = true;
    return double(parse_size(text));
  } catch (const std::invalid_argument&) {
    src.fail(node, path, "expected a number or a size like 64KiB, got '" + text + "'");
  }
}

// Shortest text of a range value: integers as integers, else up to 12 significant digits (so
// that 0.05 + 3 x 0.01 prints 0.08, not 0.08000000000000002).
std::string number_text(double v) {
  char buf[64];
  if (std::fabs(v - std::round(v)) < 1e-9 * std::max(1.0, std::fabs(v)) && std::fabs(v) < 9e15) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(v)));
  } else {
    std::snprintf(buf, sizeof buf, "%.12g", v);
  }
  return buf;
}

std::vector<std::string> range_values(const YamlSource& src, const YAML::Node& range, const std::string& path) {
  check_map(src, range, path, {"from", "to", "step", "factor"});
  bool sized = false;
  const double from = range_number(src, require(src, range, path, "from"), join_path(path, "from"), sized);
  const double to = range_number(src, require(src, range, path, "to"), join_path(path, "to"), sized);
  const bool by_step = static_cast<bool>(range["step"]), by_factor = static_cast<bool>(range["factor"]);
  if (by_step == by_factor)
    src.fail(range, path, "give either step (from, from+step, ...) or factor (from, from*factor, ...)");
  if (to < from) src.fail(range, join_path(path, "to"), "must not be below from (" + number_text(from) + ")");
  std::vector<std::string> values;
  if (by_step) {
    bool step_sized = false;
    const double step = range_number(src, range["step"], join_path(path, "step"), step_sized);
    if (!(step > 0)) src.fail(range["step"], join_path(path, "step"), "must be > 0");
    const double count = std::floor((to - from) / step + 1e-9) + 1;
    if (count > double(kMaxAxisValues))
      src.fail(range, path,
               "gives " + number_text(count) + " values, more than an axis may hold (" +
                   std::to_string(kMaxAxisValues) + ")");
    for (double k = 0; k < count; ++k) values.push_back(number_text(from + k * step));
  } else {
    bool factor_sized = false;
    const double factor = range_number(src, range["factor"], join_path(path, "factor"), factor_sized);
    if (!(factor > 1)) src.fail(range["factor"], join_path(path, "factor"), "must be > 1");
    if (!(from > 0)) src.fail(range["from"], join_path(path, "from"), "must be > 0 with a factor");
    for (double v = from; v <= to * (1 + 1e-12); v *= factor) {
      if (values.size() == kMaxAxisValues)
        src.fail(range, path, "gives more values than an axis may hold (" + std::to_string(kMaxAxisValues) + ")");
      values.push_back(number_text(v));
    }
  }
  (void)sized;
  return values;
}

void parse_overrides(const YamlSource& src, const YAML::Node& node, const std::string& path,
                     std::vector<std::string>& out) {
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::string item = index_path(path, i);
      const std::string text = get_string(src, node[i], item);
      const std::size_t eq = text.find('=');
      if (eq == std::string::npos || eq == 0) src.fail(node[i], item, "expected key.path=value, got '" + text + "'");
      std::string key = text.substr(0, eq);
      key.erase(key.find_last_not_of(" \t") + 1);
      check_drive_key(src, node[i], item, key);
      out.push_back(text);
    }
    return;
  }
  if (!node.IsMap()) src.fail(node, path, "expected a map of drive keys to values, or a list of key.path=value");
  if (node.size() == 0) src.fail(node, path, "must set at least one key");
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = get_string(src, it->first, path);
    check_drive_key(src, it->first, join_path(path, key), key);
    out.push_back(key + "=" + value_text(it->second));
  }
}

Axis parse_axis(const YamlSource& src, const YAML::Node& node, const std::string& path) {
  check_map(src, node, path, {"key", "name", "values", "range", "sets"});
  Axis axis;
  axis.line = line_of(node);
  const int sources = int(bool(node["values"])) + int(bool(node["range"])) + int(bool(node["sets"]));
  if (sources != 1) src.fail(node, path, "give exactly one of values, range or sets");
  if (node["sets"]) {
    if (node["key"]) src.fail(node["key"], join_path(path, "key"), "a sets axis names its keys in each set");
    axis.name = get_string(src, require(src, node, path, "name"), join_path(path, "name"));
    const YAML::Node sets = node["sets"];
    const std::string spath = join_path(path, "sets");
    if (!sets.IsSequence() || sets.size() == 0) src.fail(sets, spath, "expected a list of {label, overrides}");
    for (std::size_t i = 0; i < sets.size(); ++i) {
      const std::string item = index_path(spath, i);
      check_map(src, sets[i], item, {"label", "overrides"});
      AxisValue v;
      v.line = line_of(sets[i]);
      v.path = item;
      v.label = get_string(src, require(src, sets[i], item, "label"), join_path(item, "label"));
      parse_overrides(src, require(src, sets[i], item, "overrides"), join_path(item, "overrides"), v.overrides);
      for (const AxisValue& before : axis.values)
        if (before.label == v.label) src.fail(sets[i], join_path(item, "label"), "label '" + v.label + "' given twice");
      axis.values.push_back(v);
    }
  } else {
    const YAML::Node key = require(src, node, path, "key");
    axis.key = get_string(src, key, join_path(path, "key"));
    check_drive_key(src, key, join_path(path, "key"), axis.key);
    axis.name = node["name"] ? get_string(src, node["name"], join_path(path, "name")) : axis.key;
    if (node["values"]) {
      const YAML::Node values = node["values"];
      const std::string vpath = join_path(path, "values");
      if (!values.IsSequence() || values.size() == 0) src.fail(values, vpath, "expected a list of values");
      if (values.size() > kMaxAxisValues)
        src.fail(values, vpath, "more values than an axis may hold (" + std::to_string(kMaxAxisValues) + ")");
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (!values[i].IsScalar() && !values[i].IsMap())
          src.fail(values[i], index_path(vpath, i), "expected a value (or a map of page types)");
        AxisValue v;
        v.label = value_text(values[i]);
        v.line = line_of(values[i]);
        v.path = index_path(vpath, i);
        v.overrides = {axis.key + "=" + v.label};
        axis.values.push_back(v);
      }
    } else {
      const YAML::Node range = node["range"];
      for (const std::string& text : range_values(src, range, join_path(path, "range"))) {
        axis.values.push_back({text, {axis.key + "=" + text}, line_of(range), join_path(path, "range")});
      }
    }
  }
  if (axis.name.empty()) src.fail(node, join_path(path, "name"), "must not be empty");
  const auto& reserved = reserved_columns();
  if (std::find(reserved.begin(), reserved.end(), axis.name) != reserved.end())
    src.fail(node, join_path(path, "name"), "'" + axis.name + "' names a column of the results: choose another name");
  return axis;
}

void parse_seeds(const YamlSource& src, const YAML::Node& root, Plan& plan) {
  if (root["seeds"] && root["repeats"]) src.fail(root["repeats"], "repeats", "give seeds or repeats, not both");
  if (root["seeds"]) {
    const YAML::Node seeds = root["seeds"];
    plan.seeds_line = line_of(seeds);
    if (!seeds.IsSequence() || seeds.size() == 0) src.fail(seeds, "seeds", "expected a list of integers");
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      const std::uint64_t s = get_uint(src, seeds[i], index_path("seeds", i), 0, ~std::uint64_t(0));
      if (std::find(plan.seeds.begin(), plan.seeds.end(), s) != plan.seeds.end())
        src.fail(seeds[i], index_path("seeds", i), "seed " + std::to_string(s) + " given twice");
      plan.seeds.push_back(s);
    }
  }
  if (root["repeats"]) {
    plan.seeds_line = line_of(root["repeats"]);
    plan.repeats = static_cast<std::uint32_t>(get_uint(src, root["repeats"], "repeats", 1, 1000));
  }
}

void parse_derive(const YamlSource& src, const YAML::Node& node, Plan& plan) {
  if (!node.IsMap()) src.fail(node, "derive", "expected a map of drive keys to expressions");
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = get_string(src, it->first, "derive");
    const std::string path = join_path("derive", key);
    check_drive_key(src, it->first, path, key);
    const Param* p = find_param(drive_params(), key);
    if (p == nullptr || (p->kind != ParamKind::kCount && p->kind != ParamKind::kSize && p->kind != ParamKind::kNumber))
      src.fail(it->first, path, "only count, size and number keys can be derived");
    for (const Derivation& d : plan.derive)
      if (d.key == key) src.fail(it->first, path, "derived twice");
    for (const Axis& a : plan.axes)
      for (const AxisValue& v : a.values)
        for (const std::string& o : v.overrides)
          if (o.compare(0, key.size() + 1, key + "=") == 0)
            src.fail(it->first, path, "is also set by the axis '" + a.name + "' (line " + std::to_string(a.line) + ")");
    Derivation d{key, get_string(src, it->second, path), line_of(it->first)};
    try {
      check_expression(d.expression);
    } catch (const std::invalid_argument& e) {
      src.fail(it->second, path, e.what());
    }
    plan.derive.push_back(d);
  }
}

}  // namespace

const std::vector<std::string>& reserved_columns() {
  static const std::vector<std::string> names{"id",       "idx",         "seed",  "status", "age_group",
                                              "point_id", "phase_index", "phase", "kind"};
  return names;
}

Plan parse_plan(const std::string& yaml_text, const std::string& source_name) {
  const YamlSource src(source_name);
  const YAML::Node root = load_yaml(yaml_text, source_name, "a sweep plan");
  check_map(src, root, "",
            {"name", "description", "scenario", "drive", "seeds", "repeats", "axes", "combine", "derive", "age"});
  Plan plan;
  plan.path = source_name;
  plan.name = root["name"] ? get_string(src, root["name"], "name") : std::filesystem::path(source_name).stem().string();
  if (root["description"]) plan.description = get_string(src, root["description"], "description");
  const YAML::Node scenario = require(src, root, "", "scenario");
  plan.scenario_path = resolve(get_string(src, scenario, "scenario"), source_name);
  plan.scenario_line = line_of(scenario);
  if (root["drive"]) {
    plan.drive_path = resolve(get_string(src, root["drive"], "drive"), source_name);
    plan.drive_line = line_of(root["drive"]);
  }
  parse_seeds(src, root, plan);
  if (root["combine"]) {
    const std::string combine = get_string(src, root["combine"], "combine");
    if (combine != "cartesian" && combine != "zip")
      src.fail(root["combine"], "combine",
               "expected cartesian or zip, got '" + combine + "'" + did_you_mean(combine, {"cartesian", "zip"}));
    plan.zip = combine == "zip";
    plan.combine_line = line_of(root["combine"]);
  }
  if (root["axes"]) {
    const YAML::Node axes = root["axes"];
    if (!axes.IsSequence()) src.fail(axes, "axes", "expected a list of axes");
    for (std::size_t i = 0; i < axes.size(); ++i) {
      Axis axis = parse_axis(src, axes[i], index_path("axes", i));
      for (const Axis& before : plan.axes)
        if (before.name == axis.name)
          src.fail(axes[i], index_path("axes", i),
                   "an axis named '" + axis.name + "' is already on line " + std::to_string(before.line));
      plan.axes.push_back(std::move(axis));
    }
  }
  for (std::size_t i = 1; plan.zip && i < plan.axes.size(); ++i) {
    const Axis& a = plan.axes[i];
    const Axis& first = plan.axes.front();
    if (a.values.size() != first.values.size())
      src.fail(root["axes"][i], index_path("axes", i),
               "combine: zip needs axes of one length: '" + a.name + "' has " + std::to_string(a.values.size()) +
                   " values, '" + first.name + "' (line " + std::to_string(first.line) + ") has " +
                   std::to_string(first.values.size()));
  }
  if (root["derive"]) parse_derive(src, root["derive"], plan);
  if (root["age"]) {
    const YAML::Node age = root["age"];
    plan.age.line = line_of(age);
    if (age.IsScalar()) {
      plan.age.scenario_path = resolve(get_string(src, age, "age"), source_name);
    } else {
      check_map(src, age, "age", {"scenario", "seed"});
      plan.age.scenario_path =
          resolve(get_string(src, require(src, age, "age", "scenario"), "age.scenario"), source_name);
      if (age["seed"]) {
        plan.age.fixed_seed = true;
        plan.age.seed = get_uint(src, age["seed"], "age.seed", 0, ~std::uint64_t(0));
      }
    }
  }
  return plan;
}

Plan load_plan(const std::string& path) { return parse_plan(read_text_file(path), path); }

}  // namespace ssdlab::sweep
