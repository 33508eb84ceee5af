// The one name table of the GC policies, in GcPolicyKind's order: the config key's choices
// (drive_params.cpp), to_string (reports, summary.json) and the micro-benchmarks' labels.
#pragma once

#include <cstddef>

#include "base/config/config.h"

namespace ssdlab {

inline constexpr const char* kGcPolicyNames[] = {"greedy", "cost_benefit", "fifo", "random", "d_choice"};
static_assert(sizeof(kGcPolicyNames) / sizeof(kGcPolicyNames[0]) == std::size_t(GcPolicyKind::kDChoice) + 1,
              "a name for every GC policy");

}  // namespace ssdlab
