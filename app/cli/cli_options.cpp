#include "app/cli/cli_options.h"

#include <CLI/CLI.hpp>

#include "app/run/latency_log.h"

namespace ssdlab {

CLI::Option* add_shared_run_options(CLI::App& cmd, RunOptions& run) {
  CLI::Option* seed = cmd.add_option("--seed", run.seed, "override the scenario's random seed");
  cmd.add_option("--sample-interval", run.sample_interval,
                 "simulated time between rows of timeseries.csv (replaces the scenario's sample_interval; "
                 "a phase writes at most 1000000 rows)");
  cmd.add_flag("!--no-progress", run.progress, "no progress line on a terminal");
  cmd.add_option("--latency-log", run.latency_log,
                 "write one line per completed request to FILE (fio's latency log; see --latency-log-format)");
  cmd.add_option("--latency-log-format", run.latency_log_format,
                 "fio: time ms, latency ns, direction, bytes, offset; anatomy: CSV, a column per latency part")
      ->capture_default_str()
      ->check(CLI::IsMember({"fio", "anatomy"}));
  cmd.add_option("--latency-window", run.latency_window_text,
                 "T0,T1: log only requests completed in [T0, T1] simulated seconds")
      ->check([&run](const std::string& text) {
        return parse_time_window(text, run.latency_window_start, run.latency_window_end)
                   ? std::string()
                   : "expected T0,T1 in simulated seconds with 0 <= T0 < T1, got '" + text + "'";
      });
  cmd.add_option("--vcd", run.instruments.vcd_path,
                 "write a Value Change Dump (GTKWave) of die/channel busy state, NCQ, buffer, free blocks, GC");
  cmd.add_option("--vcd-window", run.instruments.vcd_window,
                 "T0,T1: the VCD holds the changes in [T0, T1) simulated seconds, with every value at T0");
  cmd.add_option("--trace", run.instruments.trace_path,
                 "write a Chrome trace event JSON (ui.perfetto.dev, chrome://tracing) of every command and op");
  cmd.add_option("--trace-window", run.instruments.trace_window,
                 "T0,T1: keep only trace events overlapping simulated seconds [T0, T1]");
  return seed;
}

std::string shared_run_options_error(const RunOptions& run) {
  if (!run.latency_window_text.empty() && run.latency_log.empty()) return "--latency-window needs --latency-log FILE";
  if (!run.instruments.vcd_window.empty() && run.instruments.vcd_path.empty()) return "--vcd-window needs --vcd FILE";
  return "";
}

}  // namespace ssdlab
