// report.html (app/run/report_html.h): escaping, base64, and what the page holds for each
// state of the plots and of the explain text. No simulation: a hand-made outcome.
#include <unistd.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/run/report_html.h"
#include "test/timing/timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

RunOutcome outcome_in(const std::string& dir) {
  RunOutcome o;
  o.scenario.name = "page<test>";
  o.scenario.description = "a & b";
  o.config = drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps"));
  o.out_dir = dir;
  PhaseResult r;
  r.name = "only_phase";
  r.kind = "job";
  o.results.push_back(r);
  return o;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("base64 follows RFC 4648's test vectors", "[report_html]") {
  CHECK(base64_encode("") == "");
  CHECK(base64_encode("f") == "Zg==");
  CHECK(base64_encode("fo") == "Zm8=");
  CHECK(base64_encode("foo") == "Zm9v");
  CHECK(base64_encode("foob") == "Zm9vYg==");
  CHECK(base64_encode("fooba") == "Zm9vYmE=");
  CHECK(base64_encode("foobar") == "Zm9vYmFy");
  CHECK(base64_encode(std::string("\xff\x00\x80", 3)) == "/wCA");
}

TEST_CASE("html_escape escapes markup and quotes", "[report_html]") {
  CHECK(html_escape("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  CHECK(html_escape("plain text 123") == "plain text 123");
}

TEST_CASE("report page without plots shows the notice and escapes names", "[report_html]") {
  const RunOutcome o = outcome_in("/nonexistent-results");
  ReportPage page;
  page.outcome = &o;
  page.plots.message = "plots skipped: python3-matplotlib not installed";
  const std::string html = report_html(page);
  CHECK(html.find("plots skipped: python3-matplotlib not installed") != std::string::npos);
  CHECK(html.find("page&lt;test&gt;") != std::string::npos);
  CHECK(html.find("page<test>") == std::string::npos);
  CHECK(html.find("a &amp; b") != std::string::npos);
  CHECK(html.find("only_phase") != std::string::npos);
  CHECK(html.find("<img") == std::string::npos);
  CHECK(html.find("id=\"explain\"") == std::string::npos);  // no explain text, no section
  CHECK(html.find("http://") == std::string::npos);
  CHECK(html.find("https://") == std::string::npos);

  page.explain = "p99 write latency 13.6 ms: mostly <GC>";
  const std::string explained = report_html(page);
  CHECK(explained.find("id=\"explain\"") != std::string::npos);
  CHECK(explained.find("mostly &lt;GC&gt;") != std::string::npos);

  page.plots_wanted = false;
  CHECK(report_html(page).find("plots skipped: --no-plots") != std::string::npos);
}

TEST_CASE("report page inlines only the listed PNG files of plots", "[report_html]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ssdlab-report-html-" + std::to_string(::getpid()));
  fs::create_directories(dir / "plots");
  const std::string png_bytes = std::string("\x89PNG\r\n\x1a\n", 8) + "rest";
  std::ofstream(dir / "plots" / "a.png", std::ios::binary) << png_bytes;
  std::ofstream(dir / "plots" / "not_png.png", std::ios::binary) << "text";
  std::ofstream(dir / "secret.txt") << "secret";
  std::ofstream(dir / "plots" / "index.json")
      << R"({"plots": [{"file": "a.png", "title": "Plot A", "caption": "cap <b>"},)"
      << R"( {"file": "../secret.txt", "title": "escape"}, {"file": "not_png.png", "title": "bad"}],)"
      << R"( "notes": ["anatomy skipped: none"]})";
  const RunOutcome o = outcome_in(dir.string());
  ReportPage page;
  page.outcome = &o;
  page.plots.status = PlotsOutcome::Status::kWritten;
  const std::string html = report_html(page);
  fs::remove_all(dir);
  CHECK(count(html, "<img ") == 1);
  CHECK(html.find("src=\"data:image/png;base64," + base64_encode(png_bytes) + "\"") != std::string::npos);
  CHECK(html.find("Plot A") != std::string::npos);
  CHECK(html.find("cap &lt;b&gt;") != std::string::npos);
  CHECK(html.find("not_png.png: missing or not a PNG") != std::string::npos);
  CHECK(html.find(base64_encode("secret")) == std::string::npos);
  CHECK(html.find("anatomy skipped: none") != std::string::npos);
}

TEST_CASE("report page survives a malformed or missing plots index", "[report_html]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("ssdlab-report-index-" + std::to_string(::getpid()));
  fs::create_directories(dir / "plots");
  const RunOutcome o = outcome_in(dir.string());
  ReportPage page;
  page.outcome = &o;
  page.plots.status = PlotsOutcome::Status::kFailed;
  page.plots.message = "plots: the script failed";
  CHECK(report_html(page).find("no plots/index.json") != std::string::npos);
  for (const char* bad : {"{not json", "[1, 2]", R"({"plots": 7, "notes": {"a": 1}})",
                          R"({"plots": [{"file": 5, "title": []}, "x", null], "notes": [3]})"}) {
    std::ofstream(dir / "plots" / "index.json") << bad;
    const std::string html = report_html(page);
    INFO(bad);
    CHECK(html.find("</html>") != std::string::npos);
    CHECK(html.find("<img") == std::string::npos);
  }
  fs::remove_all(dir);
}
