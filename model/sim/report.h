// Results: summary.json (deterministic: same seed and config give identical bytes),
// timeseries.csv, and the console table.
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "model/config/config.h"
#include "model/config/scenario.h"
#include "model/sim/phase_result.h"

namespace ssdlab {

std::string summary_json(const ScenarioSpec& scenario, const DriveConfig& config,
                         const std::vector<PhaseResult>& results);
// A latency histogram (picoseconds) as summary.json writes it everywhere: microseconds,
// keys mean p50 p99 p999 max.
nlohmann::json latency_json(const Histogram& h);
std::string timeseries_csv(const std::vector<Sample>& samples);
void print_table(std::ostream& out, const std::vector<PhaseResult>& results);
void print_phase_line(std::ostream& out, const PhaseResult& r);
// Simulated figures beside the documents' (phases with `expect`).
void print_expectations(std::ostream& out, const std::vector<PhaseResult>& results);

}  // namespace ssdlab
