// `ssdlab sweep` (docs/sweep.md): a plan expanded into points, each run once by the local or the
// Slurm engine, results kept per point; `--dry-run` lists the points, `--status` reads the state.
#pragma once

#include <string>
#include <vector>

#include "app/sweep/engine.h"

namespace CLI {
class App;
}

namespace ssdlab::sweep {

// Exit status of `ssdlab sweep`: the number of failed points (at most kMaxFailedExit), or
// kExitSweepError when the sweep could not run at all (plan refused, engine unavailable).
constexpr int kMaxFailedExit = 125;
constexpr int kExitSweepError = 126;

struct SweepOptions {
  std::string plan_path;
  std::string out_dir;  // empty: results/<plan name>
  std::string engine = "local";
  bool dry_run = false;
  EngineOptions engine_options;
};

int run_sweep(const SweepOptions& options);
// `--status OUT`: every point's state; exit status as run_sweep's.
int print_status(const std::string& out);

}  // namespace ssdlab::sweep

namespace ssdlab {

// Adds `ssdlab sweep` (with collect, run-point and run-age) to the command line; main() calls
// run() when selected() after parsing.
class SweepCommand {
 public:
  explicit SweepCommand(CLI::App& app);
  bool selected() const;
  int run();

 private:
  CLI::App* m_sweep = nullptr;
  CLI::App* m_collect = nullptr;
  CLI::App* m_run_point = nullptr;
  CLI::App* m_run_age = nullptr;
  sweep::SweepOptions m_options;
  std::string m_status_dir;
  std::string m_out;  // collect, run-point, run-age
  std::vector<std::string> m_plots;
  std::size_t m_index = 0;
};

}  // namespace ssdlab
