#include "app/run/run_scenario.h"

#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "app/instruments/instruments.h"
#include "app/run/explain.h"
#include "app/run/fio_output.h"
#include "app/run/latency_log.h"
#include "app/run/progress.h"
#include "app/run/report.h"
#include "app/run/report_html.h"
#include "app/run/scale.h"
#include "app/run/scenario_runner.h"
#include "base/config/config_loader.h"
#include "base/config/fio_job.h"
#include "base/core/units.h"

namespace ssdlab {

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

std::unique_ptr<LatencyLog> open_latency_log(const RunOptions& options) {
  if (options.latency_log.empty()) return nullptr;
  if (options.latency_log_format != "fio" && options.latency_log_format != "anatomy")
    throw ConfigError("--latency-log-format must be fio or anatomy, got '" + options.latency_log_format + "'");
  const LatencyLogFormat format =
      options.latency_log_format == "anatomy" ? LatencyLogFormat::kAnatomy : LatencyLogFormat::kFio;
  return std::make_unique<LatencyLog>(options.latency_log, format, options.latency_window_start,
                                      options.latency_window_end);
}

}  // namespace

RunOutcome simulate(const ScenarioSpec& scenario, const DriveConfig& config, bool quiet, Probe* probe) {
  RunOptions options;
  options.quiet = quiet;
  return simulate(scenario, config, options, probe);
}

RunOutcome simulate(const ScenarioSpec& scenario, const DriveConfig& config, const RunOptions& options, Probe* probe) {
  RunOutcome outcome;
  outcome.scenario = scenario;
  outcome.config = config;
  const auto wall_start = std::chrono::steady_clock::now();
  ScenarioRunner::check_phases(scenario, config);  // before anything is elaborated
  ScenarioRunner runner("run", scenario, config);
  if (probe) runner.ssd.add_probe(*probe);
  std::unique_ptr<LatencyLog> latency_log = open_latency_log(options);
  if (latency_log) runner.ssd.add_probe(*latency_log);
  // The progress line is drawn from the time-series sampler's callback: it reads the wall
  // clock and prints, and adds no event or process to the simulation.
  std::unique_ptr<ProgressLine> progress;
  if (!options.quiet && options.progress && ::isatty(STDOUT_FILENO)) {
    // SSDLAB_PROGRESS_DELAY: seconds of wall time before the line appears (default 2; tests: 0).
    const char* delay = std::getenv("SSDLAB_PROGRESS_DELAY");
    progress = std::make_unique<ProgressLine>(std::cout, delay ? std::atof(delay) : 2.0);
    runner.on_progress = [&progress](const ScenarioRunner::Progress& p) {
      progress->update(p.phase, p.phases, *p.name, p.fraction, p.sim_s, wall_now());
    };
  }
  if (!options.quiet) {
    print_table(std::cout, {});
    runner.on_phase_done = [&progress](const PhaseResult& r) {
      if (progress) progress->clear();
      print_phase_line(std::cout, r);
      std::cout.flush();
    };
  }
  std::unique_ptr<Instruments> attached;
  if (options.instruments.any()) attached = std::make_unique<Instruments>(options.instruments, runner.ssd);
  std::unique_ptr<RunImages> images;
  if (options.images.any()) images = std::make_unique<RunImages>(options.images, scenario, config, runner);
  sc_core::sc_start();
  if (progress) progress->clear();
  if (latency_log) latency_log->close();
  if (attached) {
    const std::string note = attached->close();
    if (!options.quiet) std::cout << note;
  }
  if (!runner.error().empty()) {
    if (runner.error_is_input()) throw ConfigError(runner.error());
    throw std::runtime_error(runner.error());
  }
  if (!runner.finished()) throw std::runtime_error("simulation stopped before the scenario ended");
  if (images) {
    images->finish();
    if (!options.quiet) std::cout << images->note();
  }
  outcome.results = runner.results();
  outcome.samples = runner.samples();
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return outcome;
}

void prepare_run(const RunOptions& options, ScenarioSpec& scenario, DriveConfig& config) {
  if (options.fio_path.empty()) {
    scenario = load_scenario(options.scenario_path);
    if (!options.drive_path.empty()) scenario.drive_path = options.drive_path;  // --drive replaces it
  } else {
    FioParseOptions fio;
    fio.lenient = options.fio_lenient;
    scenario = fio_scenario(load_fio_job_file(options.fio_path, fio), options.drive_path);
  }
  apply_scenario_options(options, scenario);
  std::vector<std::string> overrides = scenario.overrides;
  overrides.insert(overrides.end(), options.overrides.begin(), options.overrides.end());
  config = load_drive_config(scenario.drive_path, overrides);
  if (options.scale < 1.0) {
    const ScalePlan plan = plan_scale(config, options.scale);
    overrides.push_back(plan.blocks_override);
    config = load_drive_config(scenario.drive_path, overrides);
    scale_scenario(scenario, plan.factor);
    scenario.name += "-scaled";
  }
}

void apply_scenario_options(const RunOptions& options, ScenarioSpec& scenario) {
  if (options.has_seed) scenario.seed = options.seed;
  if (!options.sample_interval.empty()) {
    try {
      scenario.sample_interval_ps = parse_duration(options.sample_interval);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(std::string("--sample-interval: ") + e.what());
    }
    if (scenario.sample_interval_ps == 0) throw ConfigError("--sample-interval: must be > 0");
    scenario.sample_interval_line = -1;
  }
  check_sample_rows(scenario);
}

std::vector<RunOutcome> simulate_all(const std::vector<std::pair<ScenarioSpec, DriveConfig>>& runs) {
  std::vector<std::unique_ptr<ScenarioRunner>> runners;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    runners.push_back(
        std::make_unique<ScenarioRunner>(("run" + std::to_string(i)).c_str(), runs[i].first, runs[i].second));
  }
  sc_core::sc_start();
  std::vector<RunOutcome> outcomes;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!runners[i]->error().empty()) throw std::runtime_error(runners[i]->error());
    if (!runners[i]->finished()) throw std::runtime_error("simulation stopped before the scenario ended");
    RunOutcome o;
    o.scenario = runs[i].first;
    o.config = runs[i].second;
    o.results = runners[i]->results();
    o.samples = runners[i]->samples();
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

RunOutcome run_scenario(const RunOptions& options) {
  ScenarioSpec scenario;
  DriveConfig config;
  prepare_run(options, scenario, config);
  return run_prepared(options, scenario, config);
}

RunOutcome run_prepared(const RunOptions& options, const ScenarioSpec& scenario, const DriveConfig& config) {
  if (!options.instruments.trace_window.empty()) {
    if (options.instruments.trace_path.empty()) throw ConfigError("--trace-window: needs --trace FILE");
    Picos t0 = 0, t1 = 0;
    parse_trace_window(options.instruments.trace_window, t0, t1);  // a usage error before anything runs
  }
  if (!options.instruments.vcd_window.empty()) {
    if (options.instruments.vcd_path.empty()) throw ConfigError("--vcd-window: needs --vcd FILE");
    Picos t0 = 0, t1 = 0;
    parse_trace_window(options.instruments.vcd_window, t0, t1, "--vcd-window");
  }

  const std::filesystem::path out = options.out_dir.empty() ? std::filesystem::path("results") / scenario.name
                                                            : std::filesystem::path(options.out_dir);
  std::filesystem::create_directories(out);
  write_file(out / "config.yaml", effective_config_yaml(config));
  if (!scenario.notes.empty()) {
    std::string notes;
    for (const std::string& n : scenario.notes) notes += n + "\n";
    write_file(out / "fio-notes.txt", notes);
    if (!options.quiet) std::cerr << notes;
  }
  if (!options.quiet) {
    std::cout << "scenario " << scenario.name << " on drive " << config.name << " (seed " << scenario.seed
              << "), results in " << out.string() << "\n";
  }
  RunOutcome outcome = simulate(scenario, config, options);
  outcome.out_dir = out.string();
  const std::string summary = summary_json(scenario, config, outcome.results);
  write_file(out / "summary.json", summary);
  if (!options.fio_path.empty() || options.output_format == "json")
    write_file(out / "fio.json", fio_json(scenario, outcome.results));
  const std::string explain = explain_summary(nlohmann::json::parse(summary));
  write_file(out / "explain.txt", explain);
  std::vector<std::string> phase_names;
  for (const PhaseSpec& p : scenario.phases) phase_names.push_back(p.name);
  write_file(out / "timeseries.csv", timeseries_csv(outcome.samples, phase_names, config.power.enabled));
  write_file(out / "latency_histograms.json", latency_histograms_json(outcome.results));
  write_file(out / "latency_histograms.csv", latency_histograms_csv(outcome.results));
  std::ostringstream wall;
  wall << "{\n  \"wall_seconds\": " << outcome.wall_seconds << ",\n  \"phases\": [";
  for (std::size_t i = 0; i < outcome.results.size(); ++i) {
    wall << (i ? ", " : "") << outcome.results[i].wall_seconds;
  }
  wall << "]\n}\n";
  write_file(out / "wall.json", wall.str());
  if (!options.quiet) {
    print_aging(std::cout, outcome.results);
    print_steady_states(std::cout, outcome.results);
    print_limits(std::cout, outcome.results);
    print_power(std::cout, outcome.results, config);
    print_expectations(std::cout, outcome.results);
    std::cout << "wall time " << outcome.wall_seconds << " s; wrote " << (out / "summary.json").string() << ", "
              << (out / "timeseries.csv").string() << ", " << (out / "latency_histograms.json").string() << ", "
              << (out / "config.yaml").string();
    if (!options.latency_log.empty()) std::cout << ", " << options.latency_log;
    std::cout << "\n";
  }
  write_plots_and_report(outcome, !options.no_plots, options.quiet, explain);
  return outcome;
}

}  // namespace ssdlab
