// A sweep plan (docs/sweep.md): a base scenario and drive, axes of drive-key overrides, seeds,
// derived keys and an optional aging scenario, read from YAML with the loaders' strict rules
// (unknown keys with did-you-mean, every error "PLAN:LINE: key: message").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssdlab::sweep {

// One value of an axis: the overrides it applies and the plan line it was written on.
struct AxisValue {
  std::string label;                   // the value as a column and table show it
  std::vector<std::string> overrides;  // "key.path=value"
  int line = 0;
  std::string path;  // where in the plan: "axes[0].values[2]", "axes[1].range", "axes[2].sets[0]"
};

struct Axis {
  std::string name;  // column name: the key, or `name:` (required for sets)
  std::string key;   // the drive key of a values/range axis; empty for sets
  std::vector<AxisValue> values;
  int line = 0;
};

// `derive: {KEY: EXPRESSION}`: KEY set from other keys at every point (derive_expr.h).
struct Derivation {
  std::string key;
  std::string expression;
  int line = 0;
};

struct AgeSpec {
  std::string scenario_path;  // resolved against the plan's folder; empty: no aging
  bool fixed_seed = false;    // `seed:` given: one aging per drive for every seed
  std::uint64_t seed = 0;
  int line = 0;
};

struct Plan {
  std::string path;  // the plan file (as named in messages)
  std::string name;
  std::string description;
  std::string scenario_path;  // resolved against the plan's folder
  std::string drive_path;     // resolved; empty: the scenario's drive
  int scenario_line = 0, drive_line = 0;
  std::vector<std::uint64_t> seeds;  // `seeds:`; empty: `repeats` or the scenario's own seed
  std::uint32_t repeats = 0;         // `repeats: N`: the scenario's seed, seed+1, ... seed+N-1
  int seeds_line = 0;
  bool zip = false;  // combine: zip (value i of every axis together); else cartesian
  int combine_line = 0;
  std::vector<Axis> axes;
  std::vector<Derivation> derive;
  AgeSpec age;
};

// Bounds: a plan file is a config file (at most 1 MiB); an axis has at most this many values
// and a plan expands to at most kMaxPoints points.
constexpr std::size_t kMaxAxisValues = 10000;
constexpr std::size_t kMaxPoints = 100000;

// Throws ConfigError "PLAN:LINE: key: message".
Plan load_plan(const std::string& path);
Plan parse_plan(const std::string& yaml_text, const std::string& source_name);

// Column names a plan may not give an axis (the results tables use them).
const std::vector<std::string>& reserved_columns();

}  // namespace ssdlab::sweep
