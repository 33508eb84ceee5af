#include "app/run/wear_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "app/run/explain.h"
#include "base/config/geometry.h"

namespace ssdlab {

namespace {

const std::string kWear = stat_path::kFtl + "wear.";

bool has_wear(const PhaseResult& r) {
  return !r.stats.empty() && r.stats.catalogue().find(kWear + "erase_count_mean") >= 0;
}
double wear_level(const PhaseResult& r, const char* name) { return r.stats.level(kWear + name); }

constexpr double kWarrantyYears = 5;  // DWPD's period: the 5-year warranty of JESD218-era ratings

}  // namespace

nlohmann::json wear_json(const PhaseResult& r, const DriveConfig& config) {
  if (!has_wear(r)) return nullptr;
  const double mean = wear_level(r, "erase_count_mean");
  const double lo = wear_level(r, "erase_count_min");
  const double hi = wear_level(r, "erase_count_max");
  const double endurance = config.nand.rated_endurance();
  nlohmann::json j = {{"erase_count", {{"min", lo}, {"mean", mean}, {"max", hi}}},
                      {"spread", hi - lo},
                      {"endurance", endurance},
                      {"life_used_pct", wear_level(r, "life_used")},
                      {"max_life_used_pct", wear_level(r, "max_life_used")}};
  if (r.stats.catalogue().find(kWear + "wl_victims") >= 0) {
    j["wl_victims"] = r.stats.count(kWear + "wl_victims");
    j["wl_units_copied"] = r.stats.count(kWear + "wl_units_copied");
  }
  const double waf = r.waf();
  const double unit = config.controller.mapping_unit_bytes;
  const double written = double(r.host_units_written()) * unit;
  if (waf <= 0 || written <= 0 || endurance <= 0) {
    j["lifetime"] = nullptr;
    return j;
  }
  // The phase's wear per host byte: the mean's (its erases over the blocks; without erases, what
  // its WAF implies: NAND bytes over the raw capacity) and the most-erased block's, WLF times
  // faster (at least the mean's: a phase in which the most-erased block did not wear leaves
  // another to become it).
  const double blocks = double(Geometry::from(config).blocks);  // the FTL's (a virtual page's k flash blocks are one)
  const double raw = double(config.nand.raw_bytes());
  const double mean_rise = double(r.erases()) / blocks;
  const double mean_rate = mean_rise > 0 ? mean_rise / written : waf / raw;
  const double max_rise = double(r.stats.count(kWear + "erase_count_max_rises"));
  const double wlf = mean_rise > 0 ? std::max(1.0, max_rise / mean_rise) : 1.0;
  const double worst_rate = mean_rate * wlf;
  const double tbw = endurance / worst_rate;
  const double remaining = std::max(0.0, endurance - hi) / worst_rate;
  nlohmann::json life = {{"waf", waf},
                         {"wear_levelling_factor", wlf},
                         {"tbw_bytes", tbw},
                         {"dwpd_5y", tbw / (double(config.controller.user_bytes) * 365.0 * kWarrantyYears)},
                         {"remaining_host_bytes", remaining}};
  const double seconds = r.seconds();
  if (seconds > 0) {
    const double rate = written / seconds;
    life["host_write_bytes_per_s"] = rate;
    life["days_at_phase_rate"] = remaining / rate / 86400.0;
  } else {
    life["days_at_phase_rate"] = nullptr;  // an untimed phase has no rate
  }
  j["lifetime"] = life;
  return j;
}

namespace {

struct Attribute {
  int id;
  const char* name;
  unsigned flags;  // bit 0: pre-fail (else old age), bit 1: updated online (else offline)
  int value;
  double raw;
};

nlohmann::json attribute_json(const Attribute& a) {
  return {{"id", a.id},       {"name", a.name}, {"flags", a.flags},        {"value", a.value},
          {"worst", a.value}, {"thresh", 0},    {"raw", std::floor(a.raw)}};
}

int clamp_value(double v) { return static_cast<int>(std::min(100.0, std::max(1.0, v))); }

}  // namespace

nlohmann::json smart_json(const std::vector<PhaseResult>& results, const DriveConfig& config) {
  const PhaseResult* last = nullptr;
  double read_bytes = 0, uncorrectable = 0, retired = 0;
  bool media = false;       // bit errors modelled (nand.errors): 187 is reported
  bool bad_blocks = false;  // grown bad blocks modelled (nand.bad_blocks.grown): 5 is reported
  const std::string kMediaErrors = "drive.controller.media.media_errors";
  const std::string kRetired = kWear + "bad_blocks";
  for (const PhaseResult& r : results) {
    if (!has_wear(r)) continue;
    last = &r;
    read_bytes += double(r.io.read_bytes);
    if (r.stats.catalogue().find(kMediaErrors) >= 0) {
      media = true;
      uncorrectable += double(r.stats.count(kMediaErrors));
    }
    if (r.stats.catalogue().find(kRetired) >= 0) {
      bad_blocks = true;
      retired += double(r.stats.count(kRetired));
    }
  }
  if (!last) return nullptr;
  const PhaseResult& r = *last;
  const double mean = wear_level(r, "erase_count_mean");
  const double endurance = config.nand.rated_endurance();
  const double unit = config.controller.mapping_unit_bytes;
  const double host = wear_level(r, "host_units_total") * unit;
  const double nand = wear_level(r, "nand_units_total") * unit;
  const double seconds = double(r.sim_end_ps) / double(kPicosPerSec);
  const double used = endurance > 0 ? 100.0 * mean / endurance : 0.0;
  // The attributes, as Intel (9, 225, 233, 241, 242, 249) and Crucial/Micron (173, 202) drives
  // name them; normalized values as their vendors define them (docs/wear.md).
  const Attribute attrs[] = {
      {9, "Power_On_Hours", 0x32, 100, seconds / 3600.0},
      {173, "Ave_Block-Erase_Count", 0x33, clamp_value(100.0 - std::floor(used)), mean},
      {202, "Percent_Lifetime_Used", 0x30, clamp_value(100.0 - std::floor(used)), std::floor(used)},
      {225, "Host_Writes_32MiB", 0x32, 100, host / (32.0 * 1024 * 1024)},
      {233, "Media_Wearout_Indicator", 0x32, clamp_value(100.0 - std::floor(0.99 * used)), 0},
      {241, "Total_LBAs_Written", 0x32, 100, host / 512.0},
      {242, "Total_LBAs_Read", 0x32, 100, read_bytes / 512.0},
      {249, "NAND_Writes_1GiB", 0x32, 100, nand / (1024.0 * 1024 * 1024)},
  };
  nlohmann::json list = nlohmann::json::array();
  for (const Attribute& a : attrs) list.push_back(attribute_json(a));
  if (media)  // Reported_Uncorrect, as Intel and Crucial/Micron drives report it: raw = the count
    list.push_back(attribute_json(Attribute{187, "Reported_Uncorrect", 0x32, 100, uncorrectable}));
  if (bad_blocks)  // Reallocated_Sector_Ct: raw = blocks retired (Intel's X25-M counts retired blocks)
    list.push_back(attribute_json(Attribute{5, "Reallocated_Sector_Ct", 0x33, 100, retired}));
  std::sort(list.begin(), list.end(),
            [](const nlohmann::json& a, const nlohmann::json& b) { return a.at("id") < b.at("id"); });
  return {{"attributes", list},
          {"power_on_seconds", seconds},
          {"host_bytes_written", host},
          {"host_bytes_read", read_bytes},
          {"nand_bytes_written", nand},
          {"waf", host > 0 ? nand / host : 0.0},
          {"erase_count",
           {{"min", wear_level(r, "erase_count_min")}, {"mean", mean}, {"max", wear_level(r, "erase_count_max")}}},
          {"endurance", endurance},
          {"life_used_pct", used},
          {"max_life_used_pct", wear_level(r, "max_life_used")},
          {"bit_errors", media},
          {"bad_blocks", bad_blocks},
          {"read_only", bad_blocks && wear_level(r, "read_only") > 0}};
}

namespace {
const nlohmann::json& field(const nlohmann::json& j, const char* name) {
  if (!j.is_object() || !j.contains(name)) throw std::runtime_error(std::string("summary.json: smart has no ") + name);
  return j.at(name);
}
double number(const nlohmann::json& j, const char* name) {
  const nlohmann::json& v = field(j, name);
  if (!v.is_number()) throw std::runtime_error(std::string("summary.json: smart.") + name + " is not a number");
  return v.get<double>();
}
}  // namespace

std::string smart_table(const nlohmann::json& smart) {
  std::string out =
      "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE\n";
  const nlohmann::json& attrs = field(smart, "attributes");
  if (!attrs.is_array()) throw std::runtime_error("summary.json: smart.attributes is not a list");
  char line[256];
  for (const nlohmann::json& a : attrs) {
    const auto flags = static_cast<unsigned>(number(a, "flags"));
    const std::string name = field(a, "name").get<std::string>();
    // smartctl -A's columns: ID right-aligned in 3, the name in 24, values as 3 digits.
    std::snprintf(line, sizeof line, "%3d %-24.23s0x%04x   %03d   %03d   %03d    %-10s%-9s%-12s%.0f\n",
                  static_cast<int>(number(a, "id")), name.c_str(), flags, static_cast<int>(number(a, "value")),
                  static_cast<int>(number(a, "worst")), static_cast<int>(number(a, "thresh")),
                  (flags & 1) ? "Pre-fail" : "Old_age", (flags & 2) ? "Always" : "Offline", "    -", number(a, "raw"));
    out += line;
  }
  const nlohmann::json& ec = field(smart, "erase_count");
  std::snprintf(line, sizeof line,
                "\nErase counts: min %.0f, mean %.1f, max %.0f of %.0f rated P/E cycles (%.2f %% of life used on "
                "average, %.2f %% by the most-erased block); WAF since new %.2f.\n",
                number(ec, "min"), number(ec, "mean"), number(ec, "max"), number(smart, "endurance"),
                number(smart, "life_used_pct"), number(smart, "max_life_used_pct"), number(smart, "waf"));
  out += line;
  const auto flag = [&smart](const char* name) {
    return smart.contains(name) && smart.at(name).is_boolean() && smart.at(name).get<bool>();
  };
  if (!flag("bad_blocks"))
    out += "Not reported: reallocated sectors (5): grown bad blocks are off (nand.bad_blocks.grown).\n";
  if (!flag("bit_errors"))
    out += "Not reported: uncorrectable errors (187): bit errors are off (nand.errors.enabled).\n";
  if (flag("read_only"))
    out += "The drive is READ-ONLY: grown bad blocks used up a die's spare; writes and TRIM are refused.\n";
  return out;
}

int run_smart(const std::string& dir) {
  return print_summary_view(dir, "smart", [](const nlohmann::json& summary) {
    if (!summary.contains("smart") || summary["smart"].is_null())
      throw std::runtime_error("no SMART data (a run without drive statistics, or made before ssdlab reported it)");
    return "ssdlab smart: drive " + summary.value("drive", std::string("?")) + ", end of scenario " +
           summary.value("scenario", std::string("?")) +
           "\n=== START OF READ SMART DATA SECTION ===\nVendor Specific SMART Attributes with Thresholds:\n" +
           smart_table(summary["smart"]);
  });
}

}  // namespace ssdlab
