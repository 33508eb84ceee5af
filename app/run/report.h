// Results: summary.json (deterministic: same seed and config give identical bytes),
// timeseries.csv, and the console table.
#pragma once

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "app/run/phase_result.h"
#include "base/config/config.h"
#include "base/config/scenario.h"

namespace ssdlab {

std::string summary_json(const ScenarioSpec& scenario, const DriveConfig& config,
                         const std::vector<PhaseResult>& results);
// A latency histogram (picoseconds) as summary.json writes it everywhere: microseconds,
// keys mean p50 p99 p999 max.
nlohmann::json latency_json(const Histogram& h);
// The same plus "clat_percentiles_us": {"99.000000": us, ...} for each percentile (fio's keys).
nlohmann::json latency_json(const Histogram& h, const std::vector<double>& percentiles);
// One histogram: count, min_us, max_us and its non-empty buckets [low_us, high_us, count], ascending.
nlohmann::json histogram_json(const Histogram& h);
// latency_histograms.json: {"phases": [{"name", "read", "write", "all"}]}; .csv: one row per bucket.
std::string latency_histograms_json(const std::vector<PhaseResult>& results);
std::string latency_histograms_csv(const std::vector<PhaseResult>& results);
// `text` as one CSV field: quoted (quotes doubled) when it holds a comma, quote or line break.
std::string csv_field(const std::string& text);
// Phase column: the phase's name (phase_names[sample.phase]).
// `power`: a power_w column last (power.enabled).
std::string timeseries_csv(const std::vector<Sample>& samples, const std::vector<std::string>& phase_names,
                           bool power = false);
void print_table(std::ostream& out, const std::vector<PhaseResult>& results);
void print_phase_line(std::ostream& out, const PhaseResult& r);
// Per timed phase: steady or not, the steady window's figures, a warning when the phase's
// mean mixes regimes (app/run/steady_window.h).
void print_steady_states(std::ostream& out, const std::vector<PhaseResult>& results);
// Each timed phase's limiting resource, one line each (app/run/limiter.h).
void print_limits(std::ostream& out, const std::vector<PhaseResult>& results);
// Precondition phases aged by replication, or simulated on a drive large enough for it (and why).
void print_aging(std::ostream& out, const std::vector<PhaseResult>& results);
// Simulated figures beside the documents' (phases with `expect`).
void print_expectations(std::ostream& out, const std::vector<PhaseResult>& results);

}  // namespace ssdlab
