// Latency anatomy in the results, and `ssdlab explain`: per phase, in plain words, what the
// mean and the tail latency of reads and writes were made of, and what in the drive caused it.
#pragma once

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

}  // namespace ssdlab
