#include "app/run/report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "app/run/explain.h"
#include "app/run/limiter.h"
#include "app/run/power_report.h"
#include "app/run/steady_window.h"
#include "app/run/wear_report.h"
#include "base/stats/stats_json.h"

namespace ssdlab {

namespace {
double us(double ps) { return ps / double(kPicosPerUs); }
}  // namespace

nlohmann::json latency_json(const Histogram& h) {
  return {{"mean", us(h.mean())},
          {"p50", us(double(h.quantile(0.50)))},
          {"p99", us(double(h.quantile(0.99)))},
          {"p999", us(double(h.quantile(0.999)))},
          {"max", us(double(h.max()))}};
}

nlohmann::json latency_json(const Histogram& h, const std::vector<double>& percentiles) {
  nlohmann::json j = latency_json(h);
  nlohmann::json clat = nlohmann::json::object();
  char key[32];
  for (double p : percentiles) {
    std::snprintf(key, sizeof key, "%f", p);  // fio's key: "99.000000"
    clat[key] = us(double(h.quantile(p / 100.0)));
  }
  j["clat_percentiles_us"] = clat;
  return j;
}

nlohmann::json histogram_json(const Histogram& h) {
  nlohmann::json buckets = nlohmann::json::array();
  h.for_each_bucket([&buckets](std::uint64_t low, std::uint64_t width, std::uint64_t count) {
    buckets.push_back({us(double(low)), us(double(low) + double(width)), count});
  });
  return {{"count", h.count()}, {"min_us", us(double(h.min()))}, {"max_us", us(double(h.max()))}, {"buckets", buckets}};
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

// Job phases (issue 13): flushes, ramp completions, open-loop lateness, each concurrent job.
// Only what a phase has: the seed scenarios' summaries keep their keys.
void add_job_figures(nlohmann::json& j, const PhaseResult& r, const std::vector<double>& percentiles) {
  const JobTally& t = r.tally;
  if (t.flushes) j["flushes"] = t.flushes;
  if (t.ramp_ios) j["ramp_completions"] = t.ramp_ios;
  if (t.timed)
    j["issue_lateness"] = {{"timed_requests", t.timed},
                           {"late_requests", t.late},
                           {"max_us", us(double(t.late_max_ps))},
                           {"mean_us", us(t.late_mean_ps())}};
  if (r.jobs.empty()) return;
  nlohmann::json jobs = nlohmann::json::array();
  for (const JobResult& job : r.jobs) {
    const double s = double(job.io.elapsed_ps()) / double(kPicosPerSec);
    const std::unique_ptr<IoStats> io = job.io.expand();
    jobs.push_back({{"name", job.name},
                    {"reads", job.io.reads},
                    {"writes", job.io.writes},
                    {"trims", job.io.trims},
                    {"flushes", job.tally.flushes},
                    {"read_bytes", job.io.read_bytes},
                    {"write_bytes", job.io.write_bytes},
                    {"iops", s > 0 ? double(job.io.ios()) / s : 0.0},
                    {"latency_us", latency_json(*io->latency(), percentiles)}});
  }
  j["jobs"] = jobs;
}

// Host reads' flash page reads over the dies, per command (ReadSpread); null without such reads.
nlohmann::json read_spread_json(const PhaseResult& r) {
  const std::uint64_t commands = r.controller("read_spread.commands");
  if (commands == 0) return nullptr;
  const double n = double(commands);
  return {{"commands", commands},
          {"pages_per_command", double(r.controller("read_spread.pages")) / n},
          {"dies_per_command", double(r.controller("read_spread.dies")) / n},
          {"busiest_die_pages", double(r.controller("read_spread.busiest_die_pages")) / n}};
}

nlohmann::json phase_json(const PhaseResult& r, const DriveConfig& config, const std::vector<double>& percentiles) {
  nlohmann::json j;
  j["name"] = r.name;
  j["kind"] = r.kind;
  j["sim_start_s"] = double(r.sim_start_ps) / double(kPicosPerSec);
  j["sim_seconds"] = r.seconds();
  j["reads"] = r.io.reads;
  j["writes"] = r.io.writes;
  j["errors"] = r.io.errors;
  j["reordered_completions"] = r.io.reordered;
  j["read_bytes"] = r.io.read_bytes;
  j["write_bytes"] = r.io.write_bytes;
  j["read_mbps"] = r.read_mbps();
  j["write_mbps"] = r.write_mbps();
  j["iops"] = r.iops();
  j["latency_us"] = latency_json(*r.io.latency(), percentiles);
  j["read_latency_us"] = latency_json(r.io.read_latency_ps, percentiles);
  j["write_latency_us"] = latency_json(r.io.write_latency_ps, percentiles);
  const double n = r.io.ios() ? double(r.io.ios()) : 1.0;
  j["latency_breakdown_us"] = {{"wait_for_tag", us(double(r.io.wait_tag_ps) / n)},
                               {"in_drive", us(double(r.io.in_drive_ps) / n)}};
  if (r.arrival) {  // a trace-timed replay: latency from the trace's times too
    j["arrival_latency_us"] = latency_json(*r.arrival->all(), percentiles);
    j["read_arrival_latency_us"] = latency_json(r.arrival->read, percentiles);
    j["write_arrival_latency_us"] = latency_json(r.arrival->write, percentiles);
  }
  j["anatomy_us"] = anatomy_json(r.io);
  if (r.waf() >= 0) {
    j["waf"] = r.waf();
  } else {
    j["waf"] = nullptr;
  }
  j["host_units_written"] = r.host_units_written();
  j["nand_units_programmed"] = r.nand_units_programmed();
  j["gc_erases"] = r.gc_erases();
  j["gc_units_copied"] = r.gc_units_copied();
  j["erases"] = r.erases();
  j["rmw_reads"] = r.rmw_reads();
  j["buffer_waits"] = r.buffer_waits();
  j["map_reads"] = r.map_reads();
  j["map_writes"] = r.map_writes();
  j["background_gc_ops"] = r.background_gc_ops();
  j["free_blocks_end"] = r.free_blocks_end();
  j["read_spread"] = read_spread_json(r);
  j["die_utilisation"] = r.die_utilisation();
  j["link_utilisation"] = r.link_utilisation();
  j["trims"] = r.io.trims;
  j["wear"] = wear_json(r, config);
  if (config.power.enabled) j["power"] = power_json(r, config);
  if (!r.replay.empty()) {
    nlohmann::json replay = nlohmann::json::object();
    for (const auto& [name, value] : r.replay) replay[name] = value;
    j["replay"] = replay;
  }
  if ((r.kind == "job" || r.kind == "replay") && r.io.ios() > 0) j["steady_state"] = steady_json(r.steady);
  if (r.precondition) {
    const PreconditionResult& p = *r.precondition;
    nlohmann::json pc = {{"method", p.replicas > 1 ? "replicated" : "simulated"}, {"units_written", p.units_written}};
    if (p.replicas > 1) {
      pc["replicas"] = p.replicas;
      pc["group_dies"] = p.group_dies;
    }
    if (!p.simulated_because.empty()) pc["simulated_because"] = p.simulated_because;
    pc["free_blocks"] = p.free_blocks;
    pc["valid_histogram"] = p.valid_histogram;  // closed blocks by valid units, 0 .. units per block
    j["precondition"] = pc;
  }
  const LimitingResource limit = judge_limit(r);
  if (limit.judged) j["limiting_resource"] = limit_json(limit);
  if (r.fio_steady.enabled) j["fio_steadystate"] = fio_steady_json(r.fio_steady);
  j["stats"] = stats_tree_json(r.stats);
  if (!r.expect.empty()) {
    nlohmann::json expect = nlohmann::json::array();
    for (const Expectation& e : r.expect) {
      expect.push_back({{"metric", e.metric}, {"document", e.value}, {"simulated", r.metric(e.metric)}});
    }
    j["expect"] = expect;
  }
  add_job_figures(j, r, percentiles);
  return j;
}

}  // namespace

std::string summary_json(const ScenarioSpec& scenario, const DriveConfig& config,
                         const std::vector<PhaseResult>& results) {
  nlohmann::json j;
  j["scenario"] = scenario.name;
  j["scenario_file"] = scenario.path;
  j["drive"] = config.name;
  j["seed"] = scenario.seed;
  j["user_bytes"] = config.controller.user_bytes;
  j["raw_bytes"] = config.nand.raw_bytes();
  nlohmann::json phases = nlohmann::json::array();
  for (const PhaseResult& r : results) phases.push_back(phase_json(r, config, scenario.percentile_list));
  j["phases"] = phases;
  j["smart"] = smart_json(results, config);
  for (const PhaseResult& r : results) {
    if (r.stats.empty()) continue;
    j["stats"] = {{"catalogue", stats_catalogue_json(r.stats.catalogue())}};
    break;
  }
  return j.dump(2) + "\n";
}

std::string latency_histograms_json(const std::vector<PhaseResult>& results) {
  nlohmann::json phases = nlohmann::json::array();
  for (const PhaseResult& r : results) {
    phases.push_back({{"name", r.name},
                      {"read", histogram_json(r.io.read_latency_ps)},
                      {"write", histogram_json(r.io.write_latency_ps)},
                      {"all", histogram_json(*r.io.latency())}});
  }
  return nlohmann::json{{"phases", phases}}.dump(1) + "\n";
}

std::string latency_histograms_csv(const std::vector<PhaseResult>& results) {
  std::ostringstream out;
  out << "phase,direction,low_us,high_us,count\n";
  char line[128];
  for (const PhaseResult& r : results) {
    const std::string name = csv_field(r.name);
    const std::unique_ptr<Histogram> all = r.io.latency();
    const std::pair<const char*, const Histogram*> dirs[] = {
        {"read", &r.io.read_latency_ps}, {"write", &r.io.write_latency_ps}, {"all", all.get()}};
    for (const auto& entry : dirs) {  // not a structured binding: C++17 lambdas cannot capture one (clang)
      const char* dir = entry.first;
      entry.second->for_each_bucket([&](std::uint64_t low, std::uint64_t width, std::uint64_t count) {
        std::snprintf(line, sizeof line, ",%s,%.6f,%.6f,%llu\n", dir, us(double(low)), us(double(low) + double(width)),
                      static_cast<unsigned long long>(count));
        out << name << line;
      });
    }
  }
  return out.str();
}

std::string timeseries_csv(const std::vector<Sample>& samples, const std::vector<std::string>& phase_names,
                           bool power) {
  std::ostringstream out;
  out << "time_s,phase,read_mbps,write_mbps,iops,free_blocks,waf,gc_erases,map_hit_rate,buffer_dirty_units,die_busy,"
         "p50_us,p99_us"
      << (power ? ",power_w\n" : "\n");
  std::vector<std::string> names;
  for (const std::string& n : phase_names) names.push_back(csv_field(n));
  char line[256];
  for (const Sample& s : samples) {
    std::snprintf(line, sizeof line, "%.6f,", s.time_s);
    out << line << (s.phase < names.size() ? names[s.phase] : std::to_string(s.phase));
    std::snprintf(line, sizeof line, ",%.3f,%.3f,%.1f,%llu,", s.read_mbps, s.write_mbps, s.iops,
                  static_cast<unsigned long long>(s.free_blocks));
    out << line;
    if (s.waf >= 0) {
      std::snprintf(line, sizeof line, "%.4f", s.waf);
      out << line;
    }
    std::snprintf(line, sizeof line, ",%llu,", static_cast<unsigned long long>(s.gc_erases));
    out << line;
    if (s.map_hit_rate >= 0) {
      std::snprintf(line, sizeof line, "%.4f", s.map_hit_rate);
      out << line;
    }
    std::snprintf(line, sizeof line, ",%llu,%.4f,", static_cast<unsigned long long>(s.buffer_dirty_units), s.die_busy);
    out << line;
    if (s.latency_count) {
      std::snprintf(line, sizeof line, "%.3f,%.3f", us(double(s.p50_ps)), us(double(s.p99_ps)));
      out << line;
    } else {
      out << ',';
    }
    if (power) {
      std::snprintf(line, sizeof line, ",%.4f", s.power_w);
      out << line;
    }
    out << '\n';
  }
  return out.str();
}

void print_phase_line(std::ostream& out, const PhaseResult& r) {
  char line[512];
  char waf[16] = "-";
  if (r.waf() >= 0) std::snprintf(waf, sizeof waf, "%.2f", r.waf());
  const std::unique_ptr<Histogram> all = r.io.latency();
  std::snprintf(line, sizeof line, "%-18s %9.3f %9.1f %9.1f %10.0f %9.1f %9.1f %9.1f %6s %8llu %7.2f\n", r.name.c_str(),
                r.seconds(), r.read_mbps(), r.write_mbps(), r.iops(), us(all->mean()), us(double(all->quantile(0.99))),
                us(double(all->max())), waf, static_cast<unsigned long long>(r.gc_erases()), r.wall_seconds);
  out << line;
  if (r.arrival) {  // under the latency columns: the same requests from their time in the trace
    const std::unique_ptr<Histogram> all_arrival = r.arrival->all();
    const Histogram& a = *all_arrival;
    std::snprintf(line, sizeof line, "%-18s %9s %9s %9s %10s %9.1f %9.1f %9.1f\n", "  from arrival", "", "", "", "",
                  us(a.mean()), us(double(a.quantile(0.99))), us(double(a.max())));
    out << line;
  }
}

void print_expectations(std::ostream& out, const std::vector<PhaseResult>& results) {
  bool any = false;
  for (const PhaseResult& r : results) any |= !r.expect.empty();
  if (!any) return;
  char line[256];
  std::snprintf(line, sizeof line, "\n%-22s %-11s %12s %12s %8s\n", "phase", "metric", "simulated", "document",
                "sim/doc");
  out << line;
  for (const PhaseResult& r : results) {
    for (const Expectation& e : r.expect) {
      const double sim = r.metric(e.metric);
      std::snprintf(line, sizeof line, "%-22s %-11s %12.1f %12.1f %8.2f\n", r.name.c_str(), e.metric.c_str(), sim,
                    e.value, e.value > 0 ? sim / e.value : 0.0);
      out << line;
    }
  }
}

void print_steady_states(std::ostream& out, const std::vector<PhaseResult>& results) {
  bool head = false;
  for (const PhaseResult& r : results) {
    if ((r.kind != "job" && r.kind != "replay") || r.io.ios() == 0) continue;
    if (!head) out << "\nsteady state (IOPS per time-series interval):\n";
    head = true;
    char name[32];
    std::snprintf(name, sizeof name, "%-18s ", r.name.c_str());
    out << name << steady_words(steady_json(r.steady), r.iops()) << "\n";
    if (r.fio_steady.enabled) {
      char line[256];
      std::snprintf(line, sizeof line, "%-18s fio steadystate %s over %llu s: %s (criterion %.4g%s)\n", "",
                    to_string(r.fio_steady.spec).c_str(),
                    static_cast<unsigned long long>(r.fio_steady.spec.duration_ps / kPicosPerSec),
                    r.fio_steady.attained ? "attained, the job ended there" : "not attained", r.fio_steady.criterion,
                    r.fio_steady.spec.percent ? " %" : "");
      out << line;
    }
  }
}

void print_aging(std::ostream& out, const std::vector<PhaseResult>& results) {
  bool head = false;
  for (const PhaseResult& r : results) {
    if (!r.precondition) continue;
    const PreconditionResult& p = *r.precondition;
    char line[512];
    if (p.replicas > 1) {
      std::snprintf(line, sizeof line,
                    "%-18s aged by replication: one group of %u dies aged, copied %u times (docs/aging.md)\n",
                    r.name.c_str(), p.group_dies, p.replicas);
    } else if (!p.simulated_because.empty() && !replication_not_worth_it(p.simulated_because)) {
      std::snprintf(line, sizeof line, "%-18s aged by simulation, not replication: %s\n", r.name.c_str(),
                    p.simulated_because.c_str());
    } else {
      continue;
    }
    if (!head) out << "\n";
    head = true;
    out << line;
  }
}

void print_limits(std::ostream& out, const std::vector<PhaseResult>& results) {
  bool head = false;
  for (const PhaseResult& r : results) {
    const LimitingResource l = judge_limit(r);
    if (!l.judged) continue;
    if (!head) out << "\nlimiting resource (docs/latency-anatomy.md):\n";
    head = true;
    char name[32];
    std::snprintf(name, sizeof name, "%-18s ", r.name.c_str());
    out << name << limit_words(l) << "\n";
  }
}

void print_table(std::ostream& out, const std::vector<PhaseResult>& results) {
  char head[512];
  std::snprintf(head, sizeof head, "%-18s %9s %9s %9s %10s %9s %9s %9s %6s %8s %7s\n", "phase", "sim s", "rd MB/s",
                "wr MB/s", "IOPS", "lat us", "p99 us", "max us", "WAF", "GC ers", "wall s");
  out << head;
  for (const PhaseResult& r : results) print_phase_line(out, r);
}

}  // namespace ssdlab
