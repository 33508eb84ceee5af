// report.html: one self-contained page per `ssdlab run` (no external URL, no script): the
// scenario and drive, the phase table as the terminal prints it, expectations vs the documents,
// the plots (PNGs from plots/, listed in plots/index.json, inlined as base64 data URIs), the
// `explain` text and the effective config. Written by the binary, so it exists without Python.
#pragma once

#include <string>

#include "app/run/plots.h"
#include "app/run/run_scenario.h"

namespace ssdlab {

struct ReportPage {
  const RunOutcome* outcome = nullptr;  // scenario, drive, phase results, results directory
  std::string explain;                  // app/run/explain.h's text; empty: no such section
  bool plots_wanted = true;             // false: --no-plots
  PlotsOutcome plots;                   // what the plot script did (when wanted)
};

std::string report_html(const ReportPage& page);
std::string html_escape(const std::string& text);
std::string base64_encode(const std::string& bytes);

// The end of `ssdlab run`: the plot script (unless --no-plots), then report.html; prints a line
// for each unless quiet (a failing script is reported on stderr even then).
void write_plots_and_report(const RunOutcome& outcome, bool plots, bool quiet, const std::string& explain);

}  // namespace ssdlab
