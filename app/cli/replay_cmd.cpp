#include "app/cli/replay_cmd.h"

#include <CLI/CLI.hpp>
#include <filesystem>

#include "app/cli/cli_options.h"
#include "base/config/config_loader.h"

namespace ssdlab {

ScenarioSpec replay_scenario(const ReplaySpec& spec, const std::string& drive_path) {
  ScenarioSpec s;
  s.path = spec.trace;
  std::string stem = std::filesystem::path(spec.trace).filename().string();
  for (const char* ext : {".gz", ".zst"})
    if (stem.size() > std::string(ext).size() &&
        stem.compare(stem.size() - std::string(ext).size(), std::string::npos, ext) == 0)
      stem.resize(stem.size() - std::string(ext).size());
  stem = std::filesystem::path(stem).stem().string();
  s.name = "replay-" + (stem.empty() ? std::string("trace") : stem);
  s.description = "ssdlab replay " + spec.trace;
  s.drive_path = drive_path;
  PhaseSpec p;
  p.name = "replay";
  p.kind = PhaseKind::kReplay;
  p.replay = spec;
  s.phases.push_back(p);
  return s;
}

CLI::App* add_replay_command(CLI::App& app, ReplayOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "replay", "replay a block trace (MSR, SPC/UMass, blkparse, fio iolog v2/v3, DiskSim; .gz/.zst) on a drive");
  ReplaySpec& s = o.spec;
  cmd->add_option("trace", s.trace, "the trace file")->required();
  cmd->add_option("--drive,-d", o.drive_path, "drive config YAML (configs/*.yaml)")->required();
  cmd->add_option("--format,-f", s.format, "msr, spc, blkparse, fio2, fio3, disksim (default: guessed)");
  cmd->add_option("--events", s.events, "blkparse: replay Q (queued) or D (issued) events")
      ->capture_default_str()
      ->check(CLI::IsMember({"Q", "D"}));
  cmd->add_option("--timing", s.timing, "closed: at --iodepth, timestamps ignored; trace: at the trace's times")
      ->capture_default_str()
      ->check(CLI::IsMember({"closed", "trace"}));
  cmd->add_option("--iodepth", s.iodepth, "requests in flight (closed loop)")
      ->capture_default_str()
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--speed", s.speed,
                  "timing trace: time runs this much faster (2.0 = gaps halved; 0 < SPEED <= 1e6; a request "
                  "whose time comes out past 100 simulated days is an error)")
      ->capture_default_str();
  cmd->add_option("--lba", s.lba, "offsets past the drive: wrap, reject (error naming the line) or scale")
      ->capture_default_str()
      ->check(CLI::IsMember({"wrap", "reject", "scale"}));
  cmd->add_option("--volume", s.volumes,
                  "replay only these devices: MSR disk, SPC ASU, DiskSim device, fio file "
                  "index, blkparse MAJ,MIN (repeatable)")
      ->allow_extra_args(false);  // one value per --volume: a trace path after it stays the trace
  cmd->add_flag("--skip-bad", s.skip_bad, "count and skip malformed lines instead of stopping at the first");
  cmd->add_flag("!--no-split", s.split, "a request above the drive's max transfer is an error (default: split)");
  cmd->add_option("--out,-o", o.run.out_dir, "results directory (default results/replay-<trace name>)");
  cmd->add_option("-p,--param", o.run.overrides, "override a drive config key");
  cmd->add_flag("--quiet,-q", o.run.quiet, "print nothing but errors");
  cmd->add_flag("--no-plots", o.run.no_plots, "do not run the plot script");
  o.seed = add_shared_run_options(*cmd, o.run);
  return cmd;
}

RunOutcome run_replay(const ReplayOptions& options) {
  RunOptions run = options.run;
  run.has_seed = options.seed != nullptr && options.seed->count() > 0;
  ScenarioSpec scenario = replay_scenario(options.spec, options.drive_path);
  apply_scenario_options(run, scenario);
  const DriveConfig config = load_drive_config(options.drive_path, run.overrides);
  try {
    return run_prepared(run, scenario, config);
  } catch (const ConfigError& e) {
    // The runner names the scenario file and phase; here that is the trace itself, which the
    // message names already ("TRACE:LINE: ..."): drop the prefix.
    const std::string prefix = scenario.path + ":0: phase 'replay': ";
    const std::string what = e.what();
    if (what.compare(0, prefix.size(), prefix) == 0) throw ConfigError(what.substr(prefix.size()));
    throw;
  }
}

}  // namespace ssdlab
