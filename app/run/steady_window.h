// Whether a timed phase reached a steady state, from its time-series intervals, and its
// figures over the steady window. A phase whose mean mixes regimes (a random-write phase that
// climbs out of a preconditioned state, a short phase that measures the write buffer) is named
// as such in summary.json, the console table and explain.txt.
//
// The test: the least-squares slope of IOPS over the last third of the phase's whole intervals
// (those inside its I/O window), times the length of that window, relative to the window's mean
// IOPS ("drift"): steady when |drift| <= kDriftLimit. The steady window is the longest run of
// intervals ending with the phase that passes the same test and whose mean stays within
// kDriftLimit of the last third's. The phase's mean mixes regimes when the phase is not steady,
// or when its mean IOPS differs from the steady window's by more than kMixLimit. Plain C++.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/run/phase_result.h"

namespace ssdlab {

inline constexpr double kDriftLimit = 0.10;
inline constexpr double kMixLimit = 0.10;
inline constexpr std::uint32_t kMinSteadyIntervals = 12;  // fewer whole intervals: not judged

// The least-squares line through y[0..n) at x = 0, 1, ...: its mean and slope per step.
struct LineFit {
  double mean = 0, slope = 0;
};
LineFit fit_line(const double* y, std::size_t n);

// `samples[first, last)` are the phase's rows; its host I/O ran in [io_start_s, io_end_s];
// `phase_iops` is its mean over the whole phase.
SteadyWindow steady_window(const std::vector<Sample>& samples, std::size_t first, std::size_t last, double io_start_s,
                           double io_end_s, double phase_iops);

// fio's steady-state test on the per-second figures y[0..n) of its window, as fio computes it
// (steadystate.c): the slope criteria fit a least-squares line with x in seconds, the others
// take the largest deviation from the mean; a % limit is relative to the mean. Holds when the
// criterion is below the limit.
struct FioSteadyCheck {
  double mean = 0, slope = 0, max_deviation = 0, criterion = 0;
  bool holds = false;
};
FioSteadyCheck fio_steady_check(const SteadyStateSpec& spec, const double* y, std::size_t n);
// fio's JSON "steadystate" object (bw in KiB/s, as fio's).
nlohmann::json fio_steady_json(const FioSteadyState& s);

// summary.json's per-phase "steady_state".
nlohmann::json steady_json(const SteadyWindow& w);
// One line in words from that object and the phase's mean IOPS (console and explain.txt); a
// phase whose mean mixes regimes starts with "WARNING".
std::string steady_words(const nlohmann::json& steady, double phase_iops);

}  // namespace ssdlab
