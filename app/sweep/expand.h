// A plan expanded into points (docs/sweep.md, "Points and ids"): every combination of axis
// values (cartesian or zipped) for every seed, derived keys computed, each point's drive config
// loaded through the drive config loader (an impossible geometry is refused here, naming the
// plan line of the value that caused it), ids from what a point's results depend on, and the
// aging groups: points that share a drive config (and seed, unless the aging's is fixed).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "app/sweep/plan.h"

namespace ssdlab::sweep {

// What every point of a plan shares: the scenario, the drive, the aging scenario.
struct BaseInputs {
  std::string scenario_path, scenario_text;
  std::string drive_path;  // the plan's drive, else the scenario's
  std::vector<std::string> scenario_overrides;
  std::uint64_t scenario_seed = 1;
  std::string age_path, age_text;  // empty: no aging
  bool age_fixed_seed = false;
  std::uint64_t age_seed = 0;
};

// Reads the scenario (and aging scenario) files. Throws ConfigError (the scenario's own
// message; an aging scenario with overrides of its own is refused).
BaseInputs read_inputs(const std::string& scenario_path, const std::string& drive_path, const std::string& age_path,
                       bool age_fixed_seed, std::uint64_t age_seed);

// Ids: 12 hex digits of XXH3-64 over the effective drive config, the scenario file, the seed and
// the aging (its scenario file and seed); a group's over the config and the aging alone.
std::string point_id(const BaseInputs& in, const std::string& config_yaml, std::uint64_t seed);
std::string group_id(const BaseInputs& in, const std::string& config_yaml, std::uint64_t seed);
// The seed an aging run uses for a point of seed `seed`.
inline std::uint64_t age_seed_for(const BaseInputs& in, std::uint64_t seed) {
  return in.age_fixed_seed ? in.age_seed : seed;
}
// The effective drive config (YAML text) of a point: ConfigError as the loader throws it.
std::string point_config_yaml(const BaseInputs& in, const std::vector<std::string>& overrides);

struct Point {
  std::size_t index = 0;
  std::string id;
  std::uint64_t seed = 0;
  std::vector<std::string> labels;                           // one per axis
  std::vector<std::pair<std::string, std::string>> derived;  // key, value
  std::vector<std::string> overrides;  // the point's own (axes, then derived), after the scenario's
  std::int64_t group = -1;             // index into Expansion::groups; -1: no aging
};

struct AgeGroup {
  std::string id;
  std::uint64_t seed = 0;
  std::vector<std::string> overrides;  // the points' own (those of the scenario come first in a run)
  std::size_t points = 0;
};

struct Expansion {
  Plan plan;
  BaseInputs inputs;
  std::vector<Point> points;
  std::vector<AgeGroup> groups;
};

// Throws ConfigError: each impossible point (at most ten listed) with the plan line of the
// value it blames, two points that are the same run, a derived value that cannot be computed.
Expansion expand_plan(const Plan& plan);

}  // namespace ssdlab::sweep
