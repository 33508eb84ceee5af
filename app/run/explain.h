// Latency anatomy in the results, and `ssdlab explain`: per phase, in plain words, what the
// mean and the tail latency of reads and writes were made of, and what in the drive caused it.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "base/stats/io_stats.h"

namespace ssdlab {

// summary.json's per-phase "anatomy_us": per direction with requests, the mean and p99
// (mean over the slowest 1 %) composition in microseconds, the GC-waited share.
nlohmann::json anatomy_json(const IoStats& io);

// The explanation of a summary.json (as `ssdlab run` writes it): one paragraph per phase
// that moved data. Throws std::runtime_error naming what is missing from `summary`.
std::string explain_summary(const nlohmann::json& summary);

// `ssdlab explain DIR`: reads DIR/summary.json, prints the explanation. Returns the exit code.
int run_explain(const std::string& dir);

// A subcommand that prints what `render` makes of DIR/summary.json (`ssdlab explain`, `ssdlab
// smart`): 0, or 2 with "ssdlab: COMMAND: PATH: why" on stderr when the file cannot be read or
// parsed or `render` throws.
int print_summary_view(const std::string& dir, const char* command,
                       const std::function<std::string(const nlohmann::json&)>& render);

}  // namespace ssdlab
