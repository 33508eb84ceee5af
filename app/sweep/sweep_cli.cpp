// `ssdlab sweep` on the command line (docs/cli.md, docs/sweep.md).
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/sweep/collect.h"
#include "app/sweep/run_task.h"
#include "app/sweep/sweep.h"

namespace ssdlab {

SweepCommand::SweepCommand(CLI::App& app) {
  m_sweep = app.add_subcommand("sweep",
                               "run a study: every point of a plan (axes x seeds), locally or on Slurm "
                               "(docs/sweep.md)");
  m_sweep->add_option("plan", m_options.plan_path, "sweep plan YAML (scenarios/studies/*.yaml)");
  m_sweep->add_option("--out,-o", m_options.out_dir, "output folder (default results/<plan name>)");
  m_sweep->add_option("--engine", m_options.engine, "local (this machine) or slurm (sbatch job arrays)")
      ->capture_default_str()
      ->check(CLI::IsMember({"local", "slurm"}));
  m_sweep->add_option("-j,--jobs", m_options.engine_options.jobs,
                      "local: points at once (default: every core); slurm: array tasks at once (default: no limit)");
  m_sweep->add_option("--retry", m_options.engine_options.retry,
                      "run a failed point (of this run or an earlier one) again, up to N times");
  m_sweep->add_flag("--dry-run,-n", m_options.dry_run,
                    "list the points (id, seed, axis values, aged drive), run nothing");
  m_sweep->add_option("--status", m_status_dir,
                      "show the state of every point of the sweep in DIR (and its Slurm jobs)");
  m_sweep->add_option("--slurm-opt", m_options.engine_options.slurm_options,
                      "slurm: an sbatch option for the script (#SBATCH line), e.g. --slurm-opt=--partition=big");
  m_sweep->add_option("--poll", m_options.engine_options.poll_seconds, "slurm: seconds between two squeue calls")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 60.0));

  m_collect = m_sweep->add_subcommand("collect",
                                      "every point's axes and phase figures into OUT/results.sqlite and "
                                      "OUT/results.csv; --plot draws figures against each axis");
  m_collect->add_option("out", m_out, "the sweep's output folder")->required();
  m_collect->add_option("--plot", m_plots,
                        "FIGURE[@PHASE]: plot it against every axis (phase: the last by default), "
                        "e.g. --plot waf@measured --plot latency_us.p99");
  m_run_point = m_sweep->add_subcommand("run-point", "run one point of a sweep (what an engine's task runs)");
  m_run_age = m_sweep->add_subcommand("run-age", "run one aging run of a sweep (what an engine's task runs)");
  for (CLI::App* task : {m_run_point, m_run_age}) {
    task->add_option("out", m_out, "the sweep's output folder")->required();
    task->add_option("index", m_index, "index in OUT/plan.json")->required();
  }
}

bool SweepCommand::selected() const { return m_sweep->parsed(); }

int SweepCommand::run() {
  try {
    if (m_collect->parsed()) return sweep::run_collect({m_out, m_plots});
    if (m_run_point->parsed()) return sweep::run_task(m_out, {sweep::TaskKind::kPoint, m_index});
    if (m_run_age->parsed()) return sweep::run_task(m_out, {sweep::TaskKind::kAging, m_index});
    if (!m_status_dir.empty()) {
      if (!m_options.plan_path.empty()) {
        std::cerr << "ssdlab: sweep: give a PLAN to run or --status DIR, not both\n";
        return 2;
      }
      return sweep::print_status(m_status_dir);
    }
    if (m_options.plan_path.empty()) {
      std::cerr
          << "ssdlab: sweep: give a PLAN (or --status DIR, or collect OUT)\nRun 'ssdlab sweep --help' for usage.\n";
      return 2;
    }
    return sweep::run_sweep(m_options);
  } catch (const std::exception& e) {
    std::cerr << "ssdlab: sweep: " << e.what() << "\n";
    return m_collect->parsed() ? 1 : sweep::kExitSweepError;
  }
}

}  // namespace ssdlab
