// Helpers of the scenario structs (base/config/scenario.h).
#include "base/config/scenario.h"

#include <algorithm>
#include <sstream>
#include <string>

#include "base/config/config_loader.h"
#include "base/core/units.h"

namespace ssdlab {

bool is_random(RwMode mode) {
  return mode == RwMode::kRandRead || mode == RwMode::kRandWrite || mode == RwMode::kRandRw ||
         mode == RwMode::kRandTrim;
}

const char* to_string(RandomDist kind) {
  switch (kind) {
    case RandomDist::kRandom:
      return "random";
    case RandomDist::kZipf:
      return "zipf";
    case RandomDist::kPareto:
      return "pareto";
    case RandomDist::kNormal:
      return "normal";
    case RandomDist::kZoned:
      return "zoned";
    case RandomDist::kZonedAbs:
      return "zoned_abs";
  }
  return "?";
}

bool operator==(const AccessZone& a, const AccessZone& b) {
  return a.access_percent == b.access_percent && a.size_percent == b.size_percent && a.size_bytes == b.size_bytes;
}

bool operator==(const RandomDistribution& a, const RandomDistribution& b) {
  return a.kind == b.kind && a.param == b.param && a.center == b.center && a.zones == b.zones;
}

bool operator==(const Amount& a, const Amount& b) {
  return a.is_percent == b.is_percent && a.percent == b.percent && a.bytes == b.bytes;
}

namespace {
bool same_sizes(const JobSpec& a, const JobSpec& b) {
  if (a.bssplit.size() != b.bssplit.size()) return false;
  for (std::size_t i = 0; i < a.bssplit.size(); ++i)
    if (a.bssplit[i].bs != b.bssplit[i].bs || a.bssplit[i].percent != b.bssplit[i].percent) return false;
  return a.bs_bytes == b.bs_bytes && a.bs_max_bytes == b.bs_max_bytes && a.bs_unaligned == b.bs_unaligned &&
         a.blockalign_bytes == b.blockalign_bytes;
}
}  // namespace

// The name is a label in the results, not part of what the job does.
bool operator==(const JobSpec& a, const JobSpec& b) {
  return a.rw == b.rw && same_sizes(a, b) && a.iodepth == b.iodepth && a.size == b.size && a.io_size == b.io_size &&
         a.io_size_set == b.io_size_set && a.offset == b.offset && a.runtime_ps == b.runtime_ps &&
         a.time_based == b.time_based && a.rwmixread == b.rwmixread && a.randseed == b.randseed &&
         a.randseed_set == b.randseed_set && a.norandommap == b.norandommap && a.seq_skip_bytes == b.seq_skip_bytes &&
         a.random_run == b.random_run && a.percentage_random == b.percentage_random &&
         a.distribution == b.distribution && a.number_ios == b.number_ios && a.offset_increment == b.offset_increment &&
         a.clone_index == b.clone_index && a.offset_align_bytes == b.offset_align_bytes &&
         a.startdelay_ps == b.startdelay_ps && a.ramp_ps == b.ramp_ps && a.thinktime_ps == b.thinktime_ps &&
         a.thinktime_blocks == b.thinktime_blocks && a.rate_bytes == b.rate_bytes && a.rate_iops == b.rate_iops &&
         a.flush_every == b.flush_every && a.steadystate == b.steadystate;
}

bool operator==(const SteadyStateSpec& a, const SteadyStateSpec& b) {
  return a.kind == b.kind && a.limit == b.limit && a.percent == b.percent && a.duration_ps == b.duration_ps &&
         a.ramp_ps == b.ramp_ps;
}

std::string to_string(const SteadyStateSpec& s) {
  const char* kind = "none";
  switch (s.kind) {
    case SteadyStateSpec::Kind::kNone:
      break;
    case SteadyStateSpec::Kind::kIops:
      kind = "iops";
      break;
    case SteadyStateSpec::Kind::kIopsSlope:
      kind = "iops_slope";
      break;
    case SteadyStateSpec::Kind::kBw:
      kind = "bw";
      break;
    case SteadyStateSpec::Kind::kBwSlope:
      kind = "bw_slope";
      break;
  }
  std::ostringstream out;
  out << kind << ':' << s.limit << (s.percent ? "%" : "");
  return out.str();
}

std::string sample_interval_text(const ScenarioSpec& s) {
  const std::string interval = format_duration(s.sample_interval_ps);
  if (s.sample_interval_line < 0) return "--sample-interval " + interval;
  return s.sample_interval_line == 0 ? interval + " (the default)" : interval;
}

void check_sample_rows(const ScenarioSpec& s) {
  if (s.sample_interval_ps == 0) return;
  for (const PhaseSpec& p : s.phases) {
    Picos sure = p.kind == PhaseKind::kIdle ? p.idle_ps : 0;  // how long the phase lasts at least
    if (p.kind == PhaseKind::kJob) {
      const auto at_least = [&sure](const JobSpec& j) {
        if (j.time_based && j.runtime_ps) sure = std::max(sure, j.startdelay_ps + j.ramp_ps + j.runtime_ps);
      };
      at_least(p.job);
      for (const JobSpec& j : p.more_jobs) at_least(j);
    }
    const std::uint64_t rows = sure / s.sample_interval_ps;
    if (rows <= kMaxSamplesPerPhase) continue;
    const int line = s.sample_interval_line > 0 ? s.sample_interval_line : p.line;
    throw ConfigError(s.path + ":" + std::to_string(line) + ": sample_interval: " + sample_interval_text(s) +
                      " gives phase '" + p.name + "' (line " + std::to_string(p.line) + ") " + std::to_string(rows) +
                      " time-series rows; a phase writes at most " + std::to_string(kMaxSamplesPerPhase) +
                      ": raise sample_interval (or --sample-interval)");
  }
}

}  // namespace ssdlab
