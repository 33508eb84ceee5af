// Scaled-down runs: the same drive with fewer blocks per plane (same channels, dies, pages,
// timing, spare fraction) and a scenario whose durations and absolute sizes shrink by the
// same factor, so that a phase still covers the same fraction of the drive. `ssdlab run
// --scale` and the seed-scenario tests use it to run the documents' experiments quickly.
#pragma once

#include <string>

#include "base/config/config.h"
#include "base/config/scenario.h"

namespace ssdlab {

// The factor actually applied: blocks_per_plane is rounded and kept large enough for the
// config's GC spare-block needs. Returns the override to pass to the config loader.
struct ScalePlan {
  double factor = 1.0;
  std::string blocks_override;  // "nand.blocks_per_plane=N"
};
ScalePlan plan_scale(const DriveConfig& full, double factor);
void scale_scenario(ScenarioSpec& scenario, double factor);

}  // namespace ssdlab
