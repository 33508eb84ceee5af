#include "app/run/explain.h"

#include "app/run/steady_window.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ssdlab {

namespace {

double us(double ps) { return ps / double(kPicosPerUs); }

nlohmann::json parts_json(const std::array<double, kParts>& v) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < kParts; ++i) j[part_name(Part(i))] = us(v[i]);
  return j;
}

nlohmann::json direction_json(const AnatomyStats& a, const Histogram& h) {
  std::array<double, kParts> mean{};
  for (std::size_t i = 0; i < kParts; ++i) mean[i] = a.mean(Part(i));
  return {{"count", a.count()},
          {"mean", parts_json(mean)},
          {"p99", parts_json(a.tail_mean(0.99))},
          {"p99_threshold_us", us(double(h.quantile(0.99)))},
          {"gc_waited_share", a.count() ? double(a.gc_waited()) / double(a.count()) : 0.0},
          {"gc_wait_mean_us", us(a.gc_wait_mean())}};
}

// What each part means, in words.
const char* part_words(const std::string& part) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"host_queue", "waiting on the host for an NCQ tag"},
      {"link_wait", "waiting for the SATA link"},
      {"link_transfer", "on the SATA link"},
      {"fw_queue", "queued for the firmware CPU"},
      {"firmware", "firmware processing"},
      {"map_wait", "reading mapping-table pages (mapping-cache misses)"},
      {"buffer_wait", "waiting for write-buffer space"},
      {"staging", "in the write buffer until its page program started"},
      {"die_wait_host", "queued at the die behind host operations"},
      {"die_wait_gc", "queued at the die behind GC copies and erases"},
      {"die_wait_map", "queued at the die behind mapping-table operations"},
      {"bus_wait", "waiting for the channel bus"},
      {"bus_transfer", "on the channel bus (command cycles and data)"},
      {"array", "NAND array time (tR / tPROG)"},
      {"flush_wait", "waiting for the buffer to reach flash"},
      {"read_retry", "read retries of worn or aged pages (a further tR and data-out each)"},
      {"ecc", "ECC decoding of each read attempt"},
      {"link_wake", "waiting for the SATA link to wake from Partial or Slumber"},
      {"host_adapter", "the AHCI adapter fetching the command and reporting its completion"},
      {"read_dma", "read data leaving the controller's buffer for the link"},
      {"usb", "the USB 2.0 bridge: command and status wrappers, data beyond the SATA hop, host turnarounds"},
  };
  for (const auto& w : kWords) {
    if (part == w.first) return w.second;
  }
  return "?";
}

std::string time_words(double micros) {
  char buf[32];
  if (micros >= 1000.0) {
    std::snprintf(buf, sizeof buf, "%.2f ms", micros / 1000.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f us", micros);
  }
  return buf;
}

// "71 % waiting ..., 20 % ..." for the largest parts covering most of `total`.
std::string composition(const nlohmann::json& parts, double total) {
  std::vector<std::pair<double, std::string>> v;
  for (const auto& [name, value] : parts.items()) v.emplace_back(value.get<double>(), name);
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  double covered = 0;
  for (std::size_t i = 0; i < v.size() && i < 4; ++i) {
    const double share = total > 0 ? v[i].first / total : 0;
    if (i > 0 && (share < 0.03 || covered > 0.95)) break;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%.0f %% ", out.empty() ? "" : ", ", 100.0 * share);
    out += buf;
    out += part_words(v[i].second);
    covered += share;
  }
  return out;
}

double sum_parts(const nlohmann::json& parts) {
  double s = 0;
  for (const auto& item : parts.items()) s += item.value().get<double>();
  return s;
}

// The die with the most GC time in the phase, and its shares (-1: no stats tree).
struct DieGc {
  int die = -1;
  double gc_fraction = 0, busy_fraction = 0, mean_busy = 0, mean_gc = 0;
};

DieGc busiest_gc_die(const nlohmann::json& phase) {
  DieGc out;
  if (!phase.contains("stats")) return out;
  const nlohmann::json* channels = nullptr;
  try {
    channels = &phase.at("stats").at("drive").at("nand").at("channel");
  } catch (const nlohmann::json::exception&) {
    return out;
  }
  const std::size_t nch = channels->size();
  std::size_t dies = 0;
  for (std::size_t c = 0; c < nch; ++c) {
    const nlohmann::json& list = (*channels)[c].value("die", nlohmann::json::array());
    for (std::size_t k = 0; k < list.size(); ++k) {
      const double gc = list[k].value("busy_gc_fraction", 0.0);
      const double busy = list[k].value("busy_fraction", 0.0);
      out.mean_busy += busy;
      out.mean_gc += gc;
      ++dies;
      if (out.die < 0 || gc > out.gc_fraction) {
        out.die = int(k * nch + c);
        out.gc_fraction = gc;
        out.busy_fraction = busy;
      }
    }
  }
  if (dies) {
    out.mean_busy /= double(dies);
    out.mean_gc /= double(dies);
  }
  return out;
}

std::string number(double v, const char* fmt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Why the largest part of a composition is that large: the drive-side cause, when known.
std::string cause(const std::string& part, const nlohmann::json& phase, const DieGc& dg) {
  const double waf = phase.contains("waf") && phase.at("waf").is_number() ? phase.at("waf").get<double>() : 0.0;
  std::string dies =
      dg.die >= 0 ? "the dies were busy " + number(100 * dg.mean_busy, "%.0f") + " % of the phase" +
                        (dg.mean_gc > 0.005 ? ", " + number(100 * dg.mean_gc, "%.0f") + " points of it on GC" : "")
                  : "";
  if (part == "buffer_wait" || part == "staging") {
    std::string s = "the buffer frees space only as its pages are programmed";
    if (!dies.empty()) s += "; " + dies;
    if (waf > 1.05)
      s += " (WAF " + number(waf, "%.2f") + ": " + number(waf - 1, "%.2f") + " GC copies per unit written)";
    return s;
  }
  if (part == "die_wait_gc") {
    std::string s = dg.die >= 0 ? "die " + std::to_string(dg.die) + " spent " + number(100 * dg.gc_fraction, "%.0f") +
                                      " % of the phase on GC"
                                : "GC work occupied the dies";
    if (waf > 1.05) s += " (WAF " + number(waf, "%.2f") + ")";
    return s;
  }
  if (part == "die_wait_host" || part == "array" || part == "bus_wait") return dies;
  if (part == "read_retry" || part == "ecc") {  // bit errors (nand.errors): the phase's media counters
    const nlohmann::json* m = &phase;
    for (const char* k : {"stats", "drive", "controller", "media"}) {
      if (!m->is_object() || !m->contains(k)) return "";
      m = &m->at(k);
    }
    const double reads = m->value("reads", 0.0), retried = m->value("retried_reads", 0.0);
    if (reads <= 0) return "";
    return number(100 * retried / reads, "%.1f") + " % of the flash reads needed a read retry (" +
           number(m->value("retries", 0.0) / reads, "%.2f") + " retries per read, mean raw bit error rate " +
           number(m->value("rber_mean_e12", 0.0) * 1e-12, "%.2g") + "; docs/reliability.md)";
  }
  if (part == "link_wake") {  // host.link_pm: the phase's wake-ups
    const nlohmann::json* l = &phase;
    for (const char* k : {"stats", "drive", "link"}) {
      if (!l->is_object() || !l->contains(k)) return "";
      l = &l->at(k);
    }
    return "the link power management (host.link_pm) put the idle link to sleep: " +
           std::to_string(l->value("slumber_wakes", std::uint64_t(0))) + " wake-ups from Slumber and " +
           std::to_string(l->value("partial_wakes", std::uint64_t(0))) + " from Partial in this phase (docs/power.md)";
  }
  if (part == "host_queue") return "more requests in flight than the drive's NCQ tags: they wait on the host";
  if (part == "map_wait") {
    return "translation pages not in the mapping cache are read from flash first (" +
           std::to_string(phase.value("map_reads", 0)) + " such reads)";
  }
  if (part == "fw_queue") {
    std::string s = "the firmware CPU handles one command at a time and was saturated";
    const std::uint64_t copied = phase.value("gc_units_copied", std::uint64_t(0));
    if (copied > 0) {
      s += "; it also does the GC bookkeeping, charged per unit relocated (" + std::to_string(copied) +
           " units in this phase, WAF " + number(waf, "%.2f") + ")";
    }
    return s;
  }
  return "";
}

std::string largest_part(const nlohmann::json& parts) {
  std::string best;
  double v = -1;
  for (const auto& [name, value] : parts.items()) {
    if (value.get<double>() > v) {
      v = value.get<double>();
      best = name;
    }
  }
  return best;
}

void explain_direction(std::string& out, const nlohmann::json& phase, const char* dir, const DieGc& dg) {
  const nlohmann::json& anatomy = phase.at("anatomy_us");
  if (!anatomy.contains(dir)) return;
  const nlohmann::json& a = anatomy.at(dir);
  const std::uint64_t n = a.value("count", std::uint64_t(0));
  if (n == 0) return;
  const std::string lat_key = std::string(dir) + "_latency_us";
  const double mean = phase.at(lat_key).value("mean", 0.0);
  const double p99 = a.value("p99_threshold_us", 0.0);
  const nlohmann::json& m = a.at("mean");
  const nlohmann::json& t = a.at("p99");
  out += "  mean " + std::string(dir) + " latency " + time_words(mean) + ": " + composition(m, sum_parts(m)) + ".\n";
  const double tail = sum_parts(t);
  out += "  p99 " + std::string(dir) + " latency " + time_words(p99) + " (the slowest 1 %: mean " + time_words(tail) +
         "): " + composition(t, tail);
  const std::string why = cause(largest_part(t), phase, dg);
  out += why.empty() ? ".\n" : "; " + why + ".\n";
  const double share = a.value("gc_waited_share", 0.0);
  if (share > 0) {
    out += "  " + number(100 * share, "%.1f") + " % of " + dir + "s waited at a die behind GC work, " +
           time_words(a.value("gc_wait_mean_us", 0.0)) + " on average.\n";
  }
}

// Reads of several pages: how many dies they needed, and what the busiest one read in turn.
void explain_spread(std::string& out, const nlohmann::json& phase) {
  const auto it = phase.find("read_spread");
  if (it == phase.end() || !it->is_object()) return;
  const double pages = it->value("pages_per_command", 0.0);
  if (pages < 1.5) return;  // single-page reads: nothing to spread
  const double busiest = it->value("busiest_die_pages", 0.0);
  out += "  a read needed " + number(pages, "%.1f") + " flash page reads on " +
         number(it->value("dies_per_command", 0.0), "%.1f") + " dies; its busiest die read " + number(busiest, "%.2f") +
         " of them one after another" +
         (busiest < 1.005 ? " (every page on a die of its own)" : " (the data's layout over the dies)") + ".\n";
}

}  // namespace

nlohmann::json anatomy_json(const IoStats& io) {
  nlohmann::json j = nlohmann::json::object();
  if (io.read_anatomy.count()) j["read"] = direction_json(io.read_anatomy, io.read_latency_ps);
  if (io.write_anatomy.count()) j["write"] = direction_json(io.write_anatomy, io.write_latency_ps);
  return j;
}

std::string explain_summary(const nlohmann::json& summary) {
  if (!summary.contains("phases")) throw std::runtime_error("no 'phases' in the summary");
  std::string out = "scenario '" + summary.value("scenario", std::string("?")) + "' on drive '" +
                    summary.value("drive", std::string("?")) + "'\n";
  for (const nlohmann::json& phase : summary["phases"]) {
    const std::uint64_t reads = phase.value("reads", std::uint64_t(0)),
                        writes = phase.value("writes", std::uint64_t(0));
    if (reads + writes == 0) continue;
    out += "\nphase '" + phase.value("name", std::string("?")) + "' (" + phase.value("kind", std::string("?")) + ", " +
           number(phase.value("sim_seconds", 0.0), "%.3f") + " s simulated): ";
    if (reads) out += std::to_string(reads) + " reads at " + number(phase.value("read_mbps", 0.0), "%.1f") + " MB/s";
    if (reads && writes) out += ", ";
    if (writes)
      out += std::to_string(writes) + " writes at " + number(phase.value("write_mbps", 0.0), "%.1f") + " MB/s";
    if (phase.contains("waf") && phase["waf"].is_number()) out += ", WAF " + number(phase["waf"].get<double>(), "%.2f");
    out += "\n";
    if (phase.contains("steady_state"))
      out += "  " + steady_words(phase["steady_state"], phase.value("iops", 0.0)) + ".\n";
    if (phase.contains("limiting_resource") && phase["limiting_resource"].is_object())
      out += "  " + phase["limiting_resource"].value("why", std::string("?")) + ".\n";
    if (!phase.contains("anatomy_us")) {
      out += "  (no latency anatomy in this summary)\n";
      continue;
    }
    const DieGc dg = busiest_gc_die(phase);
    explain_direction(out, phase, "read", dg);
    explain_spread(out, phase);
    explain_direction(out, phase, "write", dg);
  }
  return out;
}

int print_summary_view(const std::string& dir, const char* command,
                       const std::function<std::string(const nlohmann::json&)>& render) {
  const std::string path = dir + "/summary.json";
  std::ifstream in(path);
  if (!in) {
    std::cerr << "ssdlab: " << command << ": cannot read " << path << " (a results directory of `ssdlab run`)\n";
    return 2;
  }
  try {
    std::cout << render(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    std::cerr << "ssdlab: " << command << ": " << path << ": " << e.what() << "\n";
    return 2;
  }
  return 0;
}

int run_explain(const std::string& dir) { return print_summary_view(dir, "explain", explain_summary); }

}  // namespace ssdlab
