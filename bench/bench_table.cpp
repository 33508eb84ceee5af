// The readable table that `bench/run` prints from ssdlab_bench's JSON lines.
#include "bench/bench_table.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace ssdlab::bench {
namespace {

using Json = nlohmann::ordered_json;

std::string fmt(double v, int prec) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(prec) << v;
  return s.str();
}

std::string thousands(double v) {
  std::string digits = std::to_string(static_cast<long long>(std::llround(v)));
  std::string out;
  int n = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (n && n % 3 == 0 && *it != '-') out.insert(out.begin(), ',');
    out.insert(out.begin(), *it);
    ++n;
  }
  return out;
}

}  // namespace

int print_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "cannot read " << path << "\n";
    return 1;
  }
  std::cout << std::left << std::setw(13) << "workload" << std::right << std::setw(13) << "sim requests"
            << std::setw(10) << "wall s" << std::setw(14) << "req/wall s" << std::setw(14) << "req/CPU s"
            << std::setw(11) << "RSS MiB" << std::setw(8) << "cb/req"
            << "  " << std::left << std::setw(26) << "target"
            << "met  note\n";
  std::string text;
  double replay_cpu_per_req = 0;  // the replay row's CPU seconds per request, for the replay_job row
  while (std::getline(in, text)) {
    if (text.empty() || text[0] != '{') continue;
    const Json j = Json::parse(text);
    std::string note;
    if (j.contains("error")) note = "ERROR: " + j["error"].get<std::string>();
    if (j.contains("wall_s_256GiB")) {
      note = "256 GiB: " + fmt(j["wall_s_256GiB"].get<double>(), 0) + " s wall";
    }
    if (j.contains("simulated")) {
      const Json& sim = j["simulated"];
      note += "; timed: " + fmt(sim["wall_s_256GiB_extrapolated"].get<double>(), 0) + " s (" +
              thousands(sim["req_per_wall_s"].get<double>()) + " req/s on " +
              std::to_string(sim["raw_gib"].get<int>()) + " GiB, extrapolated)";
    }
    if (j.contains("waf") && (j["workload"] == "randwrite" || j["workload"] == "randwrite16k")) {
      note = "WAF " + fmt(j["waf"].get<double>(), 2);
    }
    const auto cpu_per_req = [&j] { return j.value("cpu_s", 0.0) / std::max(1.0, j.value("requests", 0.0)); };
    if (j["workload"] == "replay") replay_cpu_per_req = cpu_per_req();
    if (j["workload"] == "replay_job" && replay_cpu_per_req > 0 && cpu_per_req() > 0) {
      const double ratio = replay_cpu_per_req / cpu_per_req();
      note = "replay/job CPU per request " + fmt(ratio, 2) + "x (issue 13: <= 1.5x" +
             (ratio <= 1.5 ? ", met)" : ", NOT met)");
    }
    if (j.contains("precondition") && j["precondition"].contains("wall_s") && j["workload"] != "precondition") {
      note +=
          std::string(note.empty() ? "" : "; ") + "precond " + fmt(j["precondition"]["wall_s"].get<double>(), 1) + " s";
    }
    std::cout << std::left << std::setw(13) << j.value("workload", "?") << std::right << std::setw(13)
              << thousands(j.value("requests", 0.0)) << std::setw(10) << fmt(j.value("wall_s", 0.0), 2) << std::setw(14)
              << thousands(j.value("req_per_wall_s", 0.0)) << std::setw(14) << thousands(j.value("req_per_cpu_s", 0.0))
              << std::setw(11) << fmt(j.value("peak_rss_mib", 0.0), 0) << std::setw(8)
              << (j.contains("callbacks_per_request") ? fmt(j["callbacks_per_request"].get<double>(), 1) : "-") << "  "
              << std::left << std::setw(26) << j.value("target", "") << std::setw(5)
              << (j.value("target", "") == "-"     ? "-"
                  : j.value("meets_target", false) ? "yes"
                                                   : "NO")
              << note << "\n";
  }
  return 0;
}

}  // namespace ssdlab::bench
