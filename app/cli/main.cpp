// The ssdlab command line: `ssdlab run SCENARIO`, `ssdlab info CONFIG`, `ssdlab serve --drive CONFIG`,
// `ssdlab params [SECTION]`, `ssdlab --version`. Exit codes (docs/cli.md): 0 ok, 1 simulation or
// runtime failure, 2 usage or config error.
#include <systemc>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli_options.h"
#include "app/cli/replay_cmd.h"
#include "app/run/drive_info.h"
#include "app/run/explain.h"
#include "app/run/fio_output.h"
#include "app/run/latency_log.h"
#include "app/run/run_scenario.h"
#include "app/run/wear_report.h"
#include "app/serve/serve.h"
#include "app/sweep/sweep.h"
#include "base/config/config_loader.h"
#include "base/config/config_yaml.h"
#include "base/config/drive_memory.h"
#include "base/config/params.h"
#include "ssdlab_version.h"

namespace {

constexpr int kExitOk = 0, kExitFailure = 1, kExitUsage = 2;

void print_version() {
  std::cout << "ssdlab " << SSDLAB_VERSION << " (" << (SSDLAB_BUILD_TYPE[0] ? SSDLAB_BUILD_TYPE : "no build type")
            << " build, SystemC " << SC_VERSION_MAJOR << "." << SC_VERSION_MINOR << "." << SC_VERSION_PATCH << ")\n";
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const std::string& n : opt->get_lnames()) names.push_back("--" + n);
    for (const std::string& n : opt->get_snames()) names.push_back("-" + n);
  }
  return names;
}

// " (did you mean 'x'?)" for the first word of argv that names no subcommand or option of the
// subcommand it belongs to; "" when every word is known (or nothing is close).
std::string typo_hint(const CLI::App& app, int argc, char** argv) {
  using ssdlab::config_detail::did_you_mean;
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  const CLI::App* sub = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word == "--") break;
    if (word.empty() || word[0] != '-') {
      if (sub != nullptr) continue;  // a positional argument or an option's value
      for (const CLI::App* s : app.get_subcommands({}))
        if (s->check_name(word)) sub = s;
      if (sub == nullptr) return did_you_mean(word, commands);
      continue;
    }
    word = word.substr(0, word.find('='));
    std::vector<std::string> names = option_names(app);
    if (sub != nullptr) {
      const std::vector<std::string> more = option_names(*sub);
      names.insert(names.end(), more.begin(), more.end());
    }
    if (std::find(names.begin(), names.end(), word) != names.end()) continue;
    if (word.size() > 2 && word[1] != '-' && std::find(names.begin(), names.end(), word.substr(0, 2)) != names.end())
      continue;  // -q with its value attached, or flags run together
    return did_you_mean(word, names);
  }
  return "";
}

// A parse error: CLI11's message, the closest known word, where to look; exit code 2.
int usage_error(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  std::string where = "ssdlab";
  for (const CLI::App* sub : app.get_subcommands({}))
    if (argc > 1 && sub->check_name(argv[1])) where += " " + sub->get_name();
  if (where == "ssdlab" && argc > 1 && argv[1][0] != '-')
    std::cerr << "ssdlab: unknown command '" << argv[1] << "'" << typo_hint(app, argc, argv) << "\n";
  else
    std::cerr << "ssdlab: " << e.what() << typo_hint(app, argc, argv) << "\n";
  std::cerr << "Run '" << where << " --help' for usage.\n";
  return kExitUsage;
}

}  // namespace

// Our own main() instead of libsystemc's: SystemC prints its banner in sc_elab_and_sim(),
// before sc_main() runs, unless SYSTEMC_DISABLE_COPYRIGHT_MESSAGE is set by then.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);  // keep the output to our own
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);         // (any other value would turn it on)
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char** argv) {
  CLI::App app{"ssdlab: a discrete-event SATA SSD emulator (SystemC)"};
  app.require_subcommand(1);
  app.add_flag("--version,-V", "print the version and build type, then exit");
  if (argc == 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-V") == 0)) {
    print_version();
    return kExitOk;
  }

  ssdlab::RunOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "simulate a scenario (drive + phases) and write its results");
  run_cmd->add_option("scenario", run.scenario_path, "scenario YAML (scenarios/*.yaml)");
  run_cmd->add_option("--out,-o", run.out_dir, "results directory (default results/<scenario name>)");
  run_cmd->add_option("-p,--param", run.overrides, "override a drive config key, e.g. -p controller.op=0.28");
  run_cmd->add_flag("--quiet,-q", run.quiet, "print nothing but errors");
  run_cmd
      ->add_option("--scale", run.scale,
                   "run a scaled-down copy: fewer blocks per die, durations and sizes shrunk alike (0..1]")
      ->check(CLI::Range(0.0001, 1.0));
  run_cmd->add_flag("--no-plots", run.no_plots,
                    "do not run the plot script (scripts/ssdlab_plots.py); report.html is written without plots");
  CLI::Option* seed_opt = ssdlab::add_shared_run_options(*run_cmd, run);

  std::string info_path;
  std::vector<std::string> info_overrides;
  run_cmd->add_option("--fio", run.fio_path,
                      "run the jobs of a fio job file instead: jobs at the same time up to each stonewall, "
                      "which starts the next phase (docs/fio-jobs.md)");
  run_cmd->add_option("--drive", run.drive_path, "drive config for --fio; with a SCENARIO, replaces its drive");
  ssdlab::add_run_image_options(*run_cmd, run.images);
  run_cmd->add_flag("--fio-lenient", run.fio_lenient, "--fio: unsupported keys are warnings, not errors");
  run_cmd
      ->add_option("--output-format", run.output_format,
                   "normal, or json: fio's JSON results (also DIR/fio.json) on stdout, nothing else there")
      ->check(CLI::IsMember({"normal", "json"}));
  CLI::App* info_cmd = app.add_subcommand("info", "print the facts a drive config implies");
  info_cmd->add_option("config", info_path, "drive config YAML (configs/*.yaml)")->required();
  info_cmd->add_option("-p,--param", info_overrides, "override a config key");

  ssdlab::ServeOptions serve;
  CLI::App* serve_cmd = ssdlab::add_serve_command(app, serve);

  std::string params_section;
  bool params_markdown = false;
  CLI::App* params_cmd = app.add_subcommand(
      "params", "list every drive config and scenario key with its type, unit, default, range and meaning");
  params_cmd->add_option("section", params_section,
                         "only the keys under SECTION: drive, scenario, nand, controller, controller.gc, host, "
                         "phases.job, ...");
  params_cmd->add_flag("--markdown", params_markdown, "print the reference as Markdown (docs/config-reference.md)");

  std::string explain_dir;
  CLI::App* explain_cmd = app.add_subcommand(
      "explain", "say in plain words what the mean and tail latency of each phase of a run were made of");
  explain_cmd->add_option("results", explain_dir, "results directory of `ssdlab run` (holds summary.json)")->required();

  std::string smart_dir;
  CLI::App* smart_cmd = app.add_subcommand(
      "smart", "print the SMART attributes of a run's drive at its end, as smartctl -A lays them out");
  smart_cmd->add_option("results", smart_dir, "results directory of `ssdlab run` (holds summary.json)")->required();

  ssdlab::ReplayOptions replay;
  CLI::App* replay_cmd = ssdlab::add_replay_command(app, replay);
  ssdlab::SweepCommand sweep(app);  // app/sweep/sweep.h

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    return usage_error(app, e, argc, argv);
  }
  for (const auto& [cmd, options] : {std::make_pair(run_cmd, &run), std::make_pair(replay_cmd, &replay.run)}) {
    const std::string wrong = *cmd ? ssdlab::shared_run_options_error(*options) : "";
    if (wrong.empty()) continue;
    std::cerr << "ssdlab: " << cmd->get_name() << ": " << wrong << "\n";
    return kExitUsage;
  }
  try {
    if (*run_cmd) {
      run.has_seed = seed_opt->count() > 0;
      if (run.fio_path.empty() == run.scenario_path.empty() || (!run.fio_path.empty() && run.drive_path.empty())) {
        std::cerr << "ssdlab: run: give a SCENARIO, or --fio JOB.fio --drive CONFIG\n";
        return 2;
      }
      if (run.output_format == "json") run.quiet = true;
      const ssdlab::RunOutcome outcome = ssdlab::run_scenario(run);
      if (run.output_format == "json") std::cout << ssdlab::fio_json(outcome.scenario, outcome.results);
    } else if (*replay_cmd) {
      ssdlab::run_replay(replay);
    } else if (*serve_cmd) {
      return ssdlab::run_serve(serve);
    } else if (*params_cmd) {
      if (ssdlab::print_params(std::cout, params_section, params_markdown)) return 0;
      std::string sections;
      for (const std::string& name : ssdlab::param_sections()) sections += (sections.empty() ? "" : ", ") + name;
      std::cerr << "ssdlab: params: no keys under '" << params_section << "'"
                << ssdlab::param_section_hint(params_section) << "; sections: " << sections << "\n";
      return kExitUsage;
    } else if (sweep.selected()) {
      return sweep.run();
    } else if (*explain_cmd) {
      return ssdlab::run_explain(explain_dir);
    } else if (*smart_cmd) {
      return ssdlab::run_smart(smart_dir);
    } else if (*info_cmd) {
      ssdlab::print_drive_info(std::cout, ssdlab::load_drive_config(info_path, info_overrides));
    }
  } catch (const ssdlab::ConfigError& e) {
    std::cerr << "ssdlab: " << e.what() << "\n";
    return kExitUsage;
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
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "ssdlab: " << e.what() << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

// Sanitizer builds: LeakSanitizer's tracer crashes scanning SystemC's coroutine stacks at exit
// (see test/timing/main.cpp). AddressSanitizer and UBSan stay on.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
