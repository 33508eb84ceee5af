// `ssdlab run`'s PNG plots: scripts/ssdlab_plots.py (python3 + matplotlib) run as a separate
// process on a results directory, so the binary itself needs no Python.
//
// The script is looked up, first found wins:
//   1. $SSDLAB_PLOTS_SCRIPT;
//   2. ssdlab_plots.py next to the running executable (CMake copies it beside build/ssdlab);
//   3. scripts/ssdlab_plots.py in the source tree the binary was built from (a compile-time path).
// The interpreter: $SSDLAB_PYTHON when set (and only it); otherwise python3 from PATH and then
// /usr/bin/python3, where Debian's python3-matplotlib lives, when the first lacks matplotlib
// (a pyenv or venv python3 ahead on PATH).
#pragma once

#include <string>
#include <vector>

namespace ssdlab {

struct PlotsOutcome {
  enum class Status {
    kWritten,  // PNGs and plots/index.json written
    kSkipped,  // no python3, no matplotlib or no script: `message` is the one-line notice
    kFailed,   // the script ran and failed; plots/index.json may list the plots it did write
  };
  Status status = Status::kSkipped;
  std::string message;  // one line for the terminal
  std::string detail;   // the script's own output when it failed
};

// Script paths in lookup order (whether they exist or not).
std::vector<std::string> plots_script_candidates();
PlotsOutcome run_plots(const std::string& results_dir);

}  // namespace ssdlab
