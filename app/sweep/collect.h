// `ssdlab sweep collect OUT`: every point's axes and every phase's figures in one SQLite database
// (OUT/results.sqlite) and a CSV (OUT/results.csv), and plots of chosen figures against each axis
// (scripts/ssdlab_sweep_plots.py, run as a child process). docs/sweep.md, "Collect".
#pragma once

#include <string>
#include <vector>

namespace ssdlab::sweep {

struct CollectOptions {
  std::string out;
  std::vector<std::string> plots;  // FIGURE or FIGURE@PHASE
};

struct CollectSummary {
  std::size_t done = 0, failed = 0, pending = 0, phase_rows = 0, figure_columns = 0;
};

// Writes the database and the CSV (each into a temporary file renamed into place). Throws
// std::runtime_error.
CollectSummary collect_results(const std::string& out);
// collect_results, then the plots; prints what it wrote. Exit status: 0, or 1 when something
// could not be written (the plot script failing included; no matplotlib is a notice).
int run_collect(const CollectOptions& options);

}  // namespace ssdlab::sweep
