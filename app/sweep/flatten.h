// summary.json's phases as table rows (`ssdlab sweep collect`): every scalar below a phase,
// nested keys joined with dots ("latency_us.p99", "steady.waf"), so that keys added to the
// summary later appear as columns without a change here. Left out: arrays (per-job results, the
// documents' figures) and the `stats` tree (hundreds of per-die counters: the point's
// summary.json keeps them).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ssdlab::sweep {

// (column, value) in the order of the file (parse it as ordered_json); values are numbers, strings, booleans or null.
// `name` and `kind` stay out: the tables have columns of their own for them.
std::vector<std::pair<std::string, nlohmann::ordered_json>> flatten_phase(const nlohmann::ordered_json& phase);

}  // namespace ssdlab::sweep
