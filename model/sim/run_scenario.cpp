#include "model/sim/run_scenario.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "model/config/config_loader.h"
#include "model/config/fio_job.h"
#include "model/sim/report.h"
#include "model/sim/scale.h"
#include "model/sim/scenario_runner.h"

namespace ssdlab {

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

RunOutcome simulate(const ScenarioSpec& scenario, const DriveConfig& config, bool quiet) {
  RunOutcome outcome;
  outcome.scenario = scenario;
  outcome.config = config;
  const auto wall_start = std::chrono::steady_clock::now();
  ScenarioRunner runner("run", scenario, config);
  if (!quiet) {
    print_table(std::cout, {});
    runner.on_phase_done = [](const PhaseResult& r) {
      print_phase_line(std::cout, r);
      std::cout.flush();
    };
  }
  sc_core::sc_start();
  if (!runner.error().empty()) throw std::runtime_error(runner.error());
  if (!runner.finished()) throw std::runtime_error("simulation stopped before the scenario ended");
  outcome.results = runner.results();
  outcome.samples = runner.samples();
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return outcome;
}

void prepare_run(const RunOptions& options, ScenarioSpec& scenario, DriveConfig& config) {
  if (options.fio_path.empty()) {
    scenario = load_scenario(options.scenario_path);
  } else {
    FioParseOptions fio;
    fio.lenient = options.fio_lenient;
    scenario = fio_scenario(load_fio_job_file(options.fio_path, fio), options.drive_path);
  }
  if (options.has_seed) scenario.seed = options.seed;
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
  RunOutcome outcome = simulate(scenario, config, options.quiet);
  outcome.out_dir = out.string();
  write_file(out / "summary.json", summary_json(scenario, config, outcome.results));
  write_file(out / "timeseries.csv", timeseries_csv(outcome.samples));
  std::ostringstream wall;
  wall << "{\n  \"wall_seconds\": " << outcome.wall_seconds << ",\n  \"phases\": [";
  for (std::size_t i = 0; i < outcome.results.size(); ++i) {
    wall << (i ? ", " : "") << outcome.results[i].wall_seconds;
  }
  wall << "]\n}\n";
  write_file(out / "wall.json", wall.str());
  if (!options.quiet) {
    print_expectations(std::cout, outcome.results);
    std::cout << "wall time " << outcome.wall_seconds << " s; wrote " << (out / "summary.json").string() << ", "
              << (out / "timeseries.csv").string() << ", " << (out / "config.yaml").string() << "\n";
  }
  return outcome;
}

}  // namespace ssdlab
