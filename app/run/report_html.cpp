#include "app/run/report_html.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "app/run/drive_info.h"
#include "app/run/report.h"
#include "base/config/config_loader.h"

namespace ssdlab {

namespace fs = std::filesystem;

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string base64_encode(const std::string& bytes) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = unsigned(std::uint8_t(bytes[i])) << 16 | unsigned(std::uint8_t(bytes[i + 1])) << 8 |
                       unsigned(std::uint8_t(bytes[i + 2]));
    for (int shift = 18; shift >= 0; shift -= 6) out += kAlphabet[(v >> shift) & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    unsigned v = unsigned(std::uint8_t(bytes[i])) << 16;
    if (rest == 2) v |= unsigned(std::uint8_t(bytes[i + 1])) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

namespace {

const char* const kStyle = R"(
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 0 auto; max-width: 1320px; padding: 0 20px 40px;
       color: #1d2329; background: #fff; line-height: 1.4; }
h1 { font-size: 1.6em; margin: 0.8em 0 0.2em; } h2 { font-size: 1.25em; margin: 1.6em 0 0.5em;
  border-bottom: 1px solid #d0d7de; padding-bottom: 0.2em; }
.sub { color: #57606a; margin: 0 0 1em; }
table.facts td { padding: 2px 14px 2px 0; vertical-align: top; } table.facts td:first-child { color: #57606a; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 4px; padding: 10px 12px; overflow-x: auto;
      font-family: "DejaVu Sans Mono", monospace; font-size: 12.5px; line-height: 1.35; }
figure { margin: 0 0 28px; } figure img { max-width: 100%; height: auto; border: 1px solid #d0d7de; }
figcaption { color: #444c56; font-size: 0.92em; margin-top: 4px; } figcaption b { color: #1d2329; }
.note { color: #6e4c00; background: #fff8e1; border-left: 4px solid #e0b000; padding: 6px 10px; margin: 6px 0; }
pre.explain { white-space: pre-wrap; } nav a { margin-right: 14px; } details summary { cursor: pointer; color: #0550ae; }
)";

std::string pre(const std::string& text, const char* cls = nullptr) {
  return std::string("<pre") + (cls ? std::string(" class=\"") + cls + "\"" : "") + ">" + html_escape(text) +
         "</pre>\n";
}

std::string note(const std::string& text) { return "<p class=\"note\">" + html_escape(text) + "</p>\n"; }

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return in ? s.str() : std::string();
}

std::string facts_section(const RunOutcome& o) {
  std::ostringstream h;
  auto row = [&h](const std::string& k, const std::string& v) {
    h << "<tr><td>" << html_escape(k) << "</td><td>" << html_escape(v) << "</td></tr>\n";
  };
  h << "<table class=\"facts\">\n";
  row("scenario", o.scenario.name + (o.scenario.path.empty() ? "" : " (" + o.scenario.path + ")"));
  if (!o.scenario.description.empty()) row("description", o.scenario.description);
  row("drive", o.config.name + (o.config.source_path.empty() ? "" : " (" + o.config.source_path + ")"));
  row("seed", std::to_string(o.scenario.seed));
  row("phases", std::to_string(o.results.size()));
  std::ostringstream wall;
  wall << o.wall_seconds << " s";
  row("wall time", wall.str());
  h << "</table>\n";
  std::ostringstream info;
  print_drive_info(info, o.config);
  h << "<details><summary>drive facts (ssdlab info)</summary>\n" << pre(info.str()) << "</details>\n";
  return h.str();
}

// A string member of an index entry, or `fallback` (the index is data: never throw on it).
std::string member(const nlohmann::json& entry, const char* key, const std::string& fallback) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::string figure(const fs::path& plots_dir, const nlohmann::json& entry) {
  const std::string file = member(entry, "file", "");
  // Only plain PNG names inside plots/: the index is data, not a way to inline any file.
  if (file.empty() || file.find('/') != std::string::npos || fs::path(file).extension() != ".png") return "";
  const std::string png = read_file(plots_dir / file);
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return note(file + ": missing or not a PNG");
  const std::string title = member(entry, "title", file);
  return "<figure><img alt=\"" + html_escape(title) + "\" src=\"data:image/png;base64," + base64_encode(png) +
         "\"><figcaption><b>" + html_escape(title) + ".</b> " + html_escape(member(entry, "caption", "")) +
         "</figcaption></figure>\n";
}

std::string plots_section(const ReportPage& page) {
  if (!page.plots_wanted) return note("plots skipped: --no-plots");
  std::string h;
  if (page.plots.status != PlotsOutcome::Status::kWritten) h += note(page.plots.message);
  if (page.plots.status == PlotsOutcome::Status::kSkipped) return h;
  const fs::path dir = fs::path(page.outcome->out_dir) / "plots";
  // Parsed without exceptions: the index is data, and under sc_main an ASan build flagged the
  // throw of a failed parse (stack-buffer-overflow in its sigaltstack interceptor).
  const std::string text = read_file(dir / "index.json");
  const nlohmann::json index = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (text.empty()) return h + note("no plots/index.json: the plot script listed no plots");
  if (!index.is_object()) return h + note("plots/index.json is not a JSON object");
  const auto list = [&index](const char* key) {
    const auto it = index.find(key);
    return it != index.end() && it->is_array() ? *it : nlohmann::json::array();
  };
  for (const nlohmann::json& entry : list("plots")) {
    if (entry.is_object()) h += figure(dir, entry);
  }
  for (const nlohmann::json& n : list("notes")) {
    if (n.is_string()) h += note(n.get<std::string>());
  }
  return h;
}

}  // namespace

std::string report_html(const ReportPage& page) {
  const RunOutcome& o = *page.outcome;
  std::ostringstream table, expect;
  print_table(table, o.results);
  print_limits(table, o.results);
  print_expectations(expect, o.results);
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    << "<link rel=\"icon\" href=\"data:,\">\n<title>ssdlab: " << html_escape(o.scenario.name) << " on "
    << html_escape(o.config.name) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n";
  h << "<h1>ssdlab run: " << html_escape(o.scenario.name) << "</h1>\n<p class=\"sub\">drive "
    << html_escape(o.config.name) << ", seed " << o.scenario.seed << "</p>\n";
  h << "<nav><a href=\"#phases\">phases</a>" << (expect.str().empty() ? "" : "<a href=\"#expect\">documents</a>")
    << (page.explain.empty() ? "" : "<a href=\"#explain\">explain</a>")
    << "<a href=\"#plots\">plots</a><a href=\"#config\">config</a></nav>\n";
  h << "<h2>Scenario and drive</h2>\n" << facts_section(o);
  h << "<h2 id=\"phases\">Phases</h2>\n" << pre(table.str());
  if (!expect.str().empty()) {
    h << "<h2 id=\"expect\">Simulated vs the documents</h2>\n" << pre(expect.str().substr(1));
  }
  if (!page.explain.empty()) h << "<h2 id=\"explain\">Explain</h2>\n" << pre(page.explain, "explain");
  h << "<h2 id=\"plots\">Plots</h2>\n" << plots_section(page);
  h << "<h2 id=\"config\">Effective config (config.yaml)</h2>\n" << pre(effective_config_yaml(o.config));
  h << "<p class=\"sub\">Files beside this page: <a href=\"summary.json\">summary.json</a>, "
    << "<a href=\"timeseries.csv\">timeseries.csv</a>, <a href=\"config.yaml\">config.yaml</a>.</p>\n"
    << "</body>\n</html>\n";
  return h.str();
}

void write_plots_and_report(const RunOutcome& outcome, bool plots, bool quiet, const std::string& explain) {
  ReportPage page;
  page.outcome = &outcome;
  page.explain = explain;
  page.plots_wanted = plots;
  if (plots) {
    page.plots = run_plots(outcome.out_dir);
    if (page.plots.status == PlotsOutcome::Status::kFailed) {
      std::cerr << "ssdlab: " << page.plots.message << "\n";
    } else if (!quiet && page.plots.status == PlotsOutcome::Status::kSkipped) {
      std::cout << page.plots.message << "\n";
    }
  }
  const fs::path path = fs::path(outcome.out_dir) / "report.html";
  std::ofstream out(path);
  out << report_html(page);
  if (!out) throw std::runtime_error("cannot write " + path.string());
  if (!quiet) {
    std::cout << "report " << path.string()
              << (page.plots.status == PlotsOutcome::Status::kWritten ? " (" + page.plots.message + ")" : "") << "\n";
  }
}

}  // namespace ssdlab
