// The scenario phase `replay: {trace, format, timing, ...}` (kept apart from the scenario
// loader so that its owner merges two calls: add_replay_params, parse_replay_phase).
#pragma once

#include <string>

#include "base/config/config_yaml.h"
#include "base/config/params.h"
#include "base/config/replay_spec.h"

namespace ssdlab {

// The keys phases[].replay and phases[].replay.* (appended to the scenario table).
void add_replay_params(ParamTable& table);
// `node` is the value of a phase's replay key at `path`; the trace path is resolved relative to
// `scenario_path`'s folder, as the drive path is. Fails through `src` (file, line, key).
ReplaySpec parse_replay_phase(const config_detail::YamlSource& src, const YAML::Node& node, const std::string& path,
                              const std::string& scenario_path);

}  // namespace ssdlab
