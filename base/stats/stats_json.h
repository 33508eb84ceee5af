// The statistics tree as summary.json writes it.
//
// A phase's tree nests objects by group name; an indexed group is an array of objects, so the
// path of a statistic is also its JSON path: stats.drive.nand.channel[2].die[3].busy_fraction.
// Counters are integers, levels numbers, ratios numbers or null (nothing to divide), and a busy
// time appears twice: <name>_s (seconds) and <name>_fraction (of the phase).
//
// The catalogue (once per file) names every statistic as it appears in the tree, indices left
// out ("drive.nand.channel[].die[].busy_fraction"), with kind, unit and description.
#pragma once

#include <nlohmann/json.hpp>

#include "base/stats/stats_tree.h"

namespace ssdlab {

nlohmann::json stats_tree_json(const StatsDelta& delta);
nlohmann::json stats_catalogue_json(const StatCatalogue& catalogue);

}  // namespace ssdlab
