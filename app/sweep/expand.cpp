#include "app/sweep/expand.h"

#include <xxhash.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "app/sweep/derive_expr.h"
#include "base/config/config_loader.h"
#include "base/config/config_yaml.h"
#include "base/config/params.h"
#include "base/config/params_yaml.h"
#include "base/core/units.h"

namespace ssdlab::sweep {
namespace {

constexpr std::size_t kMaxListedErrors = 10;

// 12 hex digits (48 bits) of XXH3-64 over length-prefixed fields: no two field lists give the
// same bytes.
std::string hash_fields(const std::vector<std::string>& fields) {
  std::string bytes = "ssdlab-sweep/1";
  for (const std::string& f : fields) bytes += "\n" + std::to_string(f.size()) + ":" + f;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits(bytes.data(), bytes.size())));
  return std::string(hex, 12);
}

// A value as an expression reads it: a plain number, or a size's bytes.
double numeric_value(const std::string& key, const std::string& text) {
  double v = 0;
  if (config_detail::parse_plain_double(text, v)) return v;
  try {
    return double(parse_size(text));
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("the value of " + key + " ('" + text + "') is not a number");
  }
}

std::string derived_text(const Param& p, double v) {
  char buf[64];
  if (p.kind == ParamKind::kNumber) {
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return buf;
  }
  if (v < 0) throw std::invalid_argument("comes out negative (" + std::to_string(v) + ")");
  if (v >= 9e18) throw std::invalid_argument("comes out too large (" + std::to_string(v) + ")");
  // A count or size is a whole number: rounded down (1e-9 of slack for 0.999999... quotients).
  std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(std::floor(v + 1e-9)));
  return buf;
}

// Where a point's config error comes from: the value whose override the loader named, else the
// point's first value (a cross-field error the loader could not pin on one override).
struct Blame {
  int line = 0;
  std::string path;
};

struct PointSource {
  std::vector<const AxisValue*> values;  // one per axis
  std::vector<Blame> override_blame;     // one per override of the point
};

std::string labels_text(const Plan& plan, const Point& p) {
  std::string text;
  for (std::size_t a = 0; a < plan.axes.size(); ++a)
    text += (text.empty() ? "" : ", ") + plan.axes[a].name + "=" + p.labels[a];
  return text + (text.empty() ? "" : ", ") + "seed " + std::to_string(p.seed);
}

Blame blame_for(const std::string& message, const Point& point, const PointSource& source, const Plan& plan) {
  const std::string prefix = "override '";
  if (message.compare(0, prefix.size(), prefix) == 0) {
    const std::size_t end = message.find("': ", prefix.size());
    const std::string text = message.substr(prefix.size(), end == std::string::npos ? 0 : end - prefix.size());
    for (std::size_t i = 0; i < point.overrides.size(); ++i)
      if (point.overrides[i] == text) return source.override_blame[i];
  }
  if (!source.values.empty()) return {source.values.front()->line, source.values.front()->path};
  return {plan.scenario_line, "scenario"};
}

// The derived keys of a point, appended to its overrides.
void derive_keys(const Plan& plan, const DriveConfig& base, Point& point, PointSource& source) {
  for (const Derivation& d : plan.derive) {
    const KeyValue value = [&](const std::string& key, bool from_base) {
      if (!from_base) {
        for (auto it = point.overrides.rbegin(); it != point.overrides.rend(); ++it)
          if (it->compare(0, key.size() + 1, key + "=") == 0) return numeric_value(key, it->substr(key.size() + 1));
      }
      const Param* p = find_param(drive_params(), key);
      return numeric_value(key, config_detail::drive_value_yaml(*p, base));
    };
    const std::string where = plan.path + ":" + std::to_string(d.line) + ": derive." + d.key + ": ";
    try {
      const std::string text =
          derived_text(*find_param(drive_params(), d.key), evaluate_expression(d.expression, value));
      point.derived.emplace_back(d.key, text);
      point.overrides.push_back(d.key + "=" + text);
      source.override_blame.push_back({d.line, "derive." + d.key});
    } catch (const std::invalid_argument& e) {
      throw ConfigError(where + "at point " + std::to_string(point.index) + " (" + labels_text(plan, point) +
                        "): " + e.what());
    }
  }
}

// Value index per axis of combination `k`: the first axis outermost, or the same index on
// every axis when zipped.
std::vector<std::size_t> combination(const Plan& plan, std::size_t k) {
  std::vector<std::size_t> choice(plan.axes.size());
  for (std::size_t a = plan.axes.size(); a-- > 0;) {
    const std::size_t n = plan.axes[a].values.size();
    choice[a] = plan.zip ? k : k % n;
    if (!plan.zip) k /= n;
  }
  return choice;
}

}  // namespace

BaseInputs read_inputs(const std::string& scenario_path, const std::string& drive_path, const std::string& age_path,
                       bool age_fixed_seed, std::uint64_t age_seed) {
  BaseInputs in;
  in.scenario_path = scenario_path;
  in.scenario_text = config_detail::read_text_file(scenario_path);
  const ScenarioSpec scenario = parse_scenario(in.scenario_text, scenario_path);
  in.drive_path = drive_path.empty() ? scenario.drive_path : drive_path;
  in.scenario_overrides = scenario.overrides;
  in.scenario_seed = scenario.seed;
  if (!age_path.empty()) {
    in.age_path = age_path;
    in.age_text = config_detail::read_text_file(age_path);
    const ScenarioSpec age = parse_scenario(in.age_text, age_path);
    if (!age.overrides.empty())
      throw ConfigError(age_path + ": overrides: an aging scenario may not change the drive ('" +
                        age.overrides.front() +
                        "'): the aged drive must be the points' drive; put the override in the plan");
    in.age_fixed_seed = age_fixed_seed;
    in.age_seed = age_seed;
  }
  return in;
}

std::string point_config_yaml(const BaseInputs& in, const std::vector<std::string>& overrides) {
  std::vector<std::string> all = in.scenario_overrides;
  all.insert(all.end(), overrides.begin(), overrides.end());
  return effective_config_yaml(load_drive_config(in.drive_path, all));
}

std::string point_id(const BaseInputs& in, const std::string& config_yaml, std::uint64_t seed) {
  const std::string age_seed = in.age_text.empty() ? "" : std::to_string(age_seed_for(in, seed));
  return hash_fields({"point", config_yaml, in.scenario_text, std::to_string(seed), in.age_text, age_seed});
}

std::string group_id(const BaseInputs& in, const std::string& config_yaml, std::uint64_t seed) {
  return hash_fields({"aged drive", config_yaml, in.age_text, std::to_string(age_seed_for(in, seed))});
}

Expansion expand_plan(const Plan& plan) {
  Expansion ex;
  ex.plan = plan;
  try {
    ex.inputs =
        read_inputs(plan.scenario_path, plan.drive_path, plan.age.scenario_path, plan.age.fixed_seed, plan.age.seed);
  } catch (const ConfigError& e) {
    throw ConfigError(plan.path + ":" + std::to_string(plan.scenario_line) + ": scenario: " + e.what());
  }
  DriveConfig base;
  try {
    base = load_drive_config(ex.inputs.drive_path, ex.inputs.scenario_overrides);
  } catch (const ConfigError& e) {
    const int line = plan.drive_line ? plan.drive_line : plan.scenario_line;
    throw ConfigError(plan.path + ":" + std::to_string(line) + ": " + (plan.drive_line ? "drive" : "scenario") +
                      ": the base drive is refused: " + e.what());
  }
  std::vector<std::uint64_t> seeds = plan.seeds;
  for (std::uint32_t k = 0; k < plan.repeats; ++k) seeds.push_back(ex.inputs.scenario_seed + k);
  if (seeds.empty()) seeds.push_back(ex.inputs.scenario_seed);

  double combos = 1;
  for (const Axis& a : plan.axes) combos = plan.zip ? double(a.values.size()) : combos * double(a.values.size());
  if (combos * double(seeds.size()) > double(kMaxPoints))
    throw ConfigError(plan.path + ":" + std::to_string(plan.axes.empty() ? plan.seeds_line : plan.axes.front().line) +
                      ": axes: the plan expands to " + std::to_string(static_cast<unsigned long long>(combos)) +
                      " combinations x " + std::to_string(seeds.size()) + " seeds, more than a sweep may hold (" +
                      std::to_string(kMaxPoints) + " points)");

  std::vector<std::string> errors;
  std::size_t impossible = 0;
  std::map<std::string, std::size_t> by_id;
  std::map<std::string, std::size_t> group_of;
  for (std::size_t k = 0; k < static_cast<std::size_t>(combos); ++k) {
    const std::vector<std::size_t> choice = combination(plan, k);
    for (const std::uint64_t seed : seeds) {
      Point point;
      point.index = ex.points.size();
      point.seed = seed;
      PointSource source;
      for (std::size_t a = 0; a < plan.axes.size(); ++a) {
        const AxisValue& v = plan.axes[a].values[choice[a]];
        point.labels.push_back(v.label);
        source.values.push_back(&v);
        for (const std::string& o : v.overrides) {
          point.overrides.push_back(o);
          source.override_blame.push_back({v.line, v.path});
        }
      }
      derive_keys(plan, base, point, source);
      std::string config_yaml;
      try {
        config_yaml = point_config_yaml(ex.inputs, point.overrides);
      } catch (const ConfigError& e) {
        const Blame b = blame_for(e.what(), point, source, plan);
        const std::string text = plan.path + ":" + std::to_string(b.line) + ": " + b.path + ": point " +
                                 std::to_string(point.index) + " (" + labels_text(plan, point) +
                                 ") is impossible: " + e.what();
        if (++impossible <= kMaxListedErrors) errors.push_back(text);
        ex.points.push_back(point);
        continue;
      }
      point.id = point_id(ex.inputs, config_yaml, seed);
      const auto [same, fresh] = by_id.emplace(point.id, point.index);
      if (!fresh) {
        const Point& other = ex.points[same->second];
        const Blame b = blame_for("", point, source, plan);
        throw ConfigError(
            plan.path + ":" + std::to_string(b.line) + ": " + b.path + ": point " + std::to_string(point.index) + " (" +
            labels_text(plan, point) + ") is the same run as point " + std::to_string(other.index) + " (" +
            labels_text(plan, other) + "): the same drive config, scenario and seed (id " + point.id + ")");
      }
      if (!ex.inputs.age_path.empty()) {
        const std::string gid = group_id(ex.inputs, config_yaml, seed);
        const auto [it, added] = group_of.emplace(gid, ex.groups.size());
        if (added) {
          AgeGroup g;
          g.id = gid;
          g.seed = age_seed_for(ex.inputs, seed);
          g.overrides = point.overrides;
          ex.groups.push_back(g);
        }
        point.group = static_cast<std::int64_t>(it->second);
        ++ex.groups[it->second].points;
      }
      ex.points.push_back(point);
    }
  }
  if (!errors.empty()) {
    std::string text;
    for (const std::string& e : errors) text += (text.empty() ? "" : "\n") + e;
    if (impossible > errors.size())
      text += "\n... and " + std::to_string(impossible - errors.size()) + " more impossible points";
    throw ConfigError(text);
  }
  return ex;
}

}  // namespace ssdlab::sweep
