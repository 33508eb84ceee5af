// The ssdlab command line: `ssdlab run SCENARIO`, `ssdlab info CONFIG`.
#include <systemc>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "model/core/config_loader.h"
#include "model/sim/drive_info.h"
#include "model/sim/run_scenario.h"

int sc_main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // keep the output to our own
  CLI::App app{"ssdlab: a discrete-event SATA SSD emulator (SystemC)"};
  app.require_subcommand(1);

  ssdlab::RunOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "simulate a scenario (drive + phases) and write its results");
  run_cmd->add_option("scenario", run.scenario_path, "scenario YAML (scenarios/*.yaml)")->required();
  run_cmd->add_option("--out,-o", run.out_dir, "results directory (default results/<scenario name>)");
  run_cmd->add_option("-p,--param", run.overrides, "override a drive config key, e.g. -p controller.op=0.28");
  auto* seed_opt = run_cmd->add_option("--seed", run.seed, "override the scenario's random seed");
  run_cmd->add_flag("--quiet,-q", run.quiet, "print nothing but errors");

  std::string info_path;
  std::vector<std::string> info_overrides;
  CLI::App* info_cmd = app.add_subcommand("info", "print the facts a drive config implies");
  info_cmd->add_option("config", info_path, "drive config YAML (configs/*.yaml)")->required();
  info_cmd->add_option("-p,--param", info_overrides, "override a config key");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (*run_cmd) {
      run.has_seed = seed_opt->count() > 0;
      ssdlab::run_scenario(run);
    } else if (*info_cmd) {
      ssdlab::print_drive_info(std::cout, ssdlab::load_drive_config(info_path, info_overrides));
    }
  } catch (const ssdlab::ConfigError& e) {
    std::cerr << "ssdlab: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "ssdlab: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
