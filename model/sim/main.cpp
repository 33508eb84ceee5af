// The ssdlab command line: `ssdlab run SCENARIO`, `ssdlab info CONFIG`, `ssdlab serve --drive CONFIG`,
// `ssdlab params [SECTION]`.
#include <systemc>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

#include "model/config/config_loader.h"
#include "model/config/drive_memory.h"
#include "model/config/params.h"
#include "model/sim/drive_info.h"
#include "model/sim/run_scenario.h"
#include "model/sim/serve.h"

int sc_main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // keep the output to our own
  CLI::App app{"ssdlab: a discrete-event SATA SSD emulator (SystemC)"};
  app.require_subcommand(1);

  ssdlab::RunOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "simulate a scenario (drive + phases) and write its results");
  run_cmd->add_option("scenario", run.scenario_path, "scenario YAML (scenarios/*.yaml)");
  run_cmd->add_option("--out,-o", run.out_dir, "results directory (default results/<scenario name>)");
  run_cmd->add_option("-p,--param", run.overrides, "override a drive config key, e.g. -p controller.op=0.28");
  auto* seed_opt = run_cmd->add_option("--seed", run.seed, "override the scenario's random seed");
  run_cmd->add_flag("--quiet,-q", run.quiet, "print nothing but errors");
  run_cmd
      ->add_option("--scale", run.scale,
                   "run a scaled-down copy: fewer blocks per die, durations and sizes shrunk alike (0..1]")
      ->check(CLI::Range(0.0001, 1.0));

  std::string info_path;
  std::vector<std::string> info_overrides;
  run_cmd->add_option("--fio", run.fio_path, "run the jobs of a fio job file (one after another) instead");
  run_cmd->add_option("--drive", run.drive_path, "drive config for --fio");
  run_cmd->add_flag("--fio-lenient", run.fio_lenient, "--fio: unsupported keys are warnings, not errors");
  CLI::App* info_cmd = app.add_subcommand("info", "print the facts a drive config implies");
  info_cmd->add_option("config", info_path, "drive config YAML (configs/*.yaml)")->required();
  info_cmd->add_option("-p,--param", info_overrides, "override a config key");

  ssdlab::ServeOptions serve;
  CLI::App* serve_cmd =
      app.add_subcommand("serve", "serve the drive over NBD (fio, qemu-io, nbdcopy, nbdfuse) until SIGINT/SIGTERM");
  serve_cmd->add_option("--drive,-d", serve.drive_path, "drive config YAML (configs/*.yaml)")->required();
  serve_cmd->add_option("-p,--param", serve.overrides, "override a drive config key");
  auto* listen_opt = serve_cmd->add_option("--listen,-l", serve.listen, "TCP address HOST:PORT (port 0: any free port)")
                         ->capture_default_str();
  serve_cmd->add_option("--socket,-s", serve.socket_path, "serve on a Unix socket instead of TCP")
      ->excludes(listen_opt);
  serve_cmd
      ->add_option("--pace", serve.pace,
                   "realtime: completions at their simulated time on the wall clock; none: as fast as possible")
      ->capture_default_str()
      ->check(CLI::IsMember({"realtime", "none"}));
  serve_cmd->add_option("--image,-i", serve.image_path,
                        "keep the drive in FILE: restored at start, saved on FLUSH and at shutdown");
  serve_cmd->add_option("--out,-o", serve.out_dir, "statistics directory (summary.json, config.yaml)")
      ->capture_default_str();
  serve_cmd->add_option("--export-name", serve.export_name, "NBD export name (default: the drive's name)");
  serve_cmd
      ->add_option("--spin-us", serve.spin_us,
                   "realtime: microseconds busy-waited before each event instead of sleeping")
      ->capture_default_str();
  serve_cmd
      ->add_option("--max-connection-bytes", serve.max_connection_bytes,
                   "READ/WRITE bytes one connection may have in flight; then its requests wait")
      ->capture_default_str();
  serve_cmd
      ->add_option("--max-server-bytes", serve.max_server_bytes,
                   "READ/WRITE bytes all connections together may have in flight")
      ->capture_default_str();
  serve_cmd->add_option("--max-connections", serve.max_connections, "further connections are closed at once")
      ->capture_default_str();
  serve_cmd
      ->add_option("--handshake-timeout", serve.handshake_timeout_s, "seconds a client has to finish the NBD handshake")
      ->capture_default_str();

  std::string params_section;
  bool params_markdown = false;
  CLI::App* params_cmd = app.add_subcommand(
      "params", "list every drive config and scenario key with its type, unit, default, range and meaning");
  params_cmd->add_option("section", params_section,
                         "only the keys under SECTION: drive, scenario, nand, controller, controller.gc, host, "
                         "phases.job, ...");
  params_cmd->add_flag("--markdown", params_markdown, "print the reference as Markdown (docs/config-reference.md)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (*run_cmd) {
      run.has_seed = seed_opt->count() > 0;
      if (run.fio_path.empty() == run.scenario_path.empty() || run.fio_path.empty() != run.drive_path.empty()) {
        std::cerr << "ssdlab: run: give a SCENARIO, or --fio JOB.fio --drive CONFIG\n";
        return 2;
      }
      ssdlab::run_scenario(run);
    } else if (*serve_cmd) {
      return ssdlab::run_serve(serve);
    } else if (*params_cmd) {
      if (ssdlab::print_params(std::cout, params_section, params_markdown)) return 0;
      std::string sections;
      for (const std::string& name : ssdlab::param_sections()) sections += (sections.empty() ? "" : ", ") + name;
      std::cerr << "ssdlab: params: no keys under '" << params_section << "'"
                << ssdlab::param_section_hint(params_section) << "; sections: " << sections << "\n";
      return 2;
    } else if (*info_cmd) {
      ssdlab::print_drive_info(std::cout, ssdlab::load_drive_config(info_path, info_overrides));
    }
  } catch (const ssdlab::ConfigError& e) {
    std::cerr << "ssdlab: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    // The config loaded (else ConfigError above), so it loads again: name what it sized.
    try {
      if (*serve_cmd) {
        const auto config = ssdlab::load_drive_config(serve.drive_path, serve.overrides);
        std::cerr << "ssdlab: " << ssdlab::allocation_failure_message(config, true, "ssdlab serve") << "\n";
      } else {
        const ssdlab::ScenarioSpec scenario = ssdlab::load_scenario(run.scenario_path);
        std::vector<std::string> overrides = scenario.overrides;
        overrides.insert(overrides.end(), run.overrides.begin(), run.overrides.end());
        const auto config = ssdlab::load_drive_config(scenario.drive_path, overrides);
        std::cerr << "ssdlab: " << ssdlab::allocation_failure_message(config, false, "ssdlab run") << "\n";
      }
    } catch (const std::exception&) {
      std::cerr << "ssdlab: out of memory\n";
    }
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "ssdlab: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

// Sanitizer builds: LeakSanitizer's tracer crashes scanning SystemC's coroutine stacks at exit
// (see test/timing/main.cpp). AddressSanitizer and UBSan stay on.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
