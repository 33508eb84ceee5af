#include "app/run/fio_output.h"

#include "app/run/steady_window.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace ssdlab {
namespace {

double ns(double ps) { return ps / 1000.0; }

double stddev_ps(const Histogram& h) {
  if (h.count() < 2) return 0;
  const double mean = h.mean();
  double sum = 0;
  h.for_each_bucket([&](std::uint64_t low, std::uint64_t width, std::uint64_t count) {
    const double mid = double(low) + double(width) / 2.0 - 0.5;
    sum += double(count) * (mid - mean) * (mid - mean);
  });
  return std::sqrt(sum / double(h.count()));
}

nlohmann::json latency(const Histogram& h, const std::vector<double>* percentiles) {
  nlohmann::json j = {{"min", std::uint64_t(ns(double(h.min())))},
                      {"max", std::uint64_t(ns(double(h.max())))},
                      {"mean", ns(h.mean())},
                      {"stddev", ns(stddev_ps(h))},
                      {"N", h.count()}};
  if (percentiles && h.count()) {
    nlohmann::json p = nlohmann::json::object();
    for (double q : *percentiles) {
      char key[32];
      std::snprintf(key, sizeof key, "%.6f", q);
      p[key] = std::uint64_t(ns(double(h.quantile(q / 100.0))));
    }
    j["percentile"] = p;
  }
  return j;
}

nlohmann::json zero_latency() { return {{"min", 0}, {"max", 0}, {"mean", 0.0}, {"stddev", 0.0}, {"N", 0}}; }

nlohmann::json direction(std::uint64_t ios, std::uint64_t bytes, const Histogram* lat, double seconds,
                         const std::vector<double>& percentiles) {
  const bool active = ios > 0 && seconds > 0;
  const double bw_bytes = active ? double(bytes) / seconds : 0;
  nlohmann::json j = {{"io_bytes", bytes},
                      {"io_kbytes", bytes / 1024},
                      {"bw_bytes", std::uint64_t(bw_bytes)},
                      {"bw", std::uint64_t(bw_bytes / 1024)},
                      {"iops", active ? double(ios) / seconds : 0.0},
                      {"runtime", active ? std::uint64_t(std::llround(seconds * 1000)) : 0},
                      {"total_ios", ios},
                      {"short_ios", 0},
                      {"drop_ios", 0},
                      {"slat_ns", zero_latency()}};
  if (lat) {
    j["clat_ns"] = latency(*lat, &percentiles);
    j["lat_ns"] = latency(*lat, nullptr);
  } else {
    j["clat_ns"] = zero_latency();
    j["lat_ns"] = zero_latency();
  }
  return j;
}

double seconds_of(Picos ps) { return double(ps) / double(kPicosPerSec); }

// `seconds`: the I/O window of each direction (fio's runtime); `job_seconds`: fio's
// job_runtime (for a merged entry the sum over its jobs, as fio sums total_run_time).
nlohmann::json job_json(const std::string& name, std::size_t group, const IoStats& io, const JobTally& tally,
                        const std::vector<double>& percentiles, double seconds, double job_seconds) {
  nlohmann::json j;
  j["jobname"] = name;
  j["groupid"] = group;
  j["error"] = io.errors;
  j["job options"] = nlohmann::json::object();
  j["read"] = direction(io.reads, io.read_bytes, &io.read_latency_ps, seconds, percentiles);
  j["write"] = direction(io.writes, io.write_bytes, &io.write_latency_ps, seconds, percentiles);
  j["trim"] = direction(io.trims, 0, nullptr, seconds, percentiles);
  j["sync"] = {{"total_ios", tally.flushes}, {"lat_ns", zero_latency()}};
  j["job_runtime"] = std::uint64_t(std::llround(job_seconds * 1000));
  j["elapsed"] = std::uint64_t(std::llround(seconds));
  return j;
}

// A phase's jobs as fio reports them. fio 3.33 (__show_run_stats) starts a new entry for a
// job unless the job has group_reporting and the job before it is in the same group; an
// entry sums its jobs' I/O and merges their latency samples, its runtime is the longest of
// its jobs' (sum_thread_stats), its name the first job's.
void add_jobs(nlohmann::json& jobs, const std::vector<JobResult>& results, std::size_t group,
              const std::vector<double>& percentiles) {
  for (std::size_t first = 0; first < results.size();) {
    std::size_t end = first + 1;
    while (end < results.size() && results[end].group_reporting) ++end;
    auto io = std::make_unique<IoStats>();
    JobTally tally;
    double longest = 0, sum = 0;
    for (std::size_t k = first; k < end; ++k) {
      const JobIoStats& job = results[k].io;
      IoCounts& counts = *io;
      if (k == first)
        counts = job;
      else
        counts.add(job);
      job.read_latency_ps.add_to(io->read_latency_ps);
      job.write_latency_ps.add_to(io->write_latency_ps);
      job.other_latency_ps.add_to(io->other_latency_ps);
      tally.add(results[k].tally);
      longest = std::max(longest, seconds_of(job.elapsed_ps()));
      sum += seconds_of(job.elapsed_ps());
    }
    jobs.push_back(job_json(results[first].name, group, *io, tally, percentiles, longest, sum));
    first = end;
  }
}

}  // namespace

std::string fio_json(const ScenarioSpec& scenario, const std::vector<PhaseResult>& results) {
  nlohmann::json root;
  root["fio version"] = "ssdlab";
  root["global options"] = nlohmann::json::object();
  nlohmann::json jobs = nlohmann::json::array();
  std::size_t group = 0;
  for (std::size_t i = 0; i < results.size() && i < scenario.phases.size(); ++i) {
    const PhaseResult& r = results[i];
    if (scenario.phases[i].kind != PhaseKind::kJob) continue;
    const std::size_t first_entry = jobs.size();
    if (r.jobs.empty()) {
      const std::string& name = scenario.phases[i].job.name.empty() ? r.name : scenario.phases[i].job.name;
      const double seconds = seconds_of(r.io.elapsed_ps());
      jobs.push_back(job_json(name, group, r.io, r.tally, scenario.percentile_list, seconds, seconds));
    } else {
      add_jobs(jobs, r.jobs, group, scenario.percentile_list);
    }
    if (r.fio_steady.enabled) {
      for (std::size_t k = first_entry; k < jobs.size(); ++k) jobs[k]["steadystate"] = fio_steady_json(r.fio_steady);
    }
    ++group;
  }
  root["jobs"] = jobs;
  return root.dump(2) + "\n";
}

}  // namespace ssdlab
