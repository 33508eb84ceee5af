#include "app/run/power_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/run/phase_result.h"

namespace ssdlab {

EnergyParts energy_of(const PowerConfig& p, const EnergyInputs& in) {
  constexpr double kMilli = 1e-3, kNano = 1e-9;
  EnergyParts e;
  e.nand_array =
      p.nand_vcc_v * kMilli *
      (p.nand_read_ma * in.array_read_s + p.nand_program_ma * in.array_program_s + p.nand_erase_ma * in.array_erase_s);
  e.nand_io = p.nand_vcc_v * kMilli * p.nand_io_ma * in.bus_s;
  e.nand_standby = p.nand_vcc_v * kMilli * p.nand_standby_ma * double(in.dies) * in.span_s;
  e.controller = p.controller_idle_w * in.span_s + p.controller_active_w * in.firmware_s +
                 p.controller_nj_per_byte * kNano * in.data_bytes;
  e.dram = p.dram_idle_w * in.span_s + p.dram_nj_per_byte * kNano * in.data_bytes;
  const double active_s = in.span_s - in.partial_s - in.slumber_s;
  e.link = p.link_active_w * active_s + p.link_partial_w * in.partial_s + p.link_slumber_w * in.slumber_s;
  return e;
}

namespace {

std::vector<std::uint32_t> find_all(const StatCatalogue& cat, const std::vector<std::string>& names) {
  std::vector<std::uint32_t> out;
  for (const std::string& name : names) {
    for (std::uint32_t i : cat.matching(name)) out.push_back(i);
  }
  return out;
}

}  // namespace

EnergyMeter::EnergyMeter(const StatCatalogue& cat, const DriveConfig& config)
    : m_power(config.power),
      m_dies(config.nand.dies()),
      m_unit_bytes(config.controller.mapping_unit_bytes),
      m_page_bytes(config.nand.page_size_bytes) {
  const std::string die = "drive.nand.channel[].die[].";
  m_read = cat.matching(die + "array_read");
  m_program = cat.matching(die + "array_program");
  m_erase = cat.matching(die + "array_erase");
  m_bus = cat.matching("drive.nand.channel[].busy");
  m_firmware = cat.matching(stat_path::kController + "firmware_cpu.busy");
  m_partial = cat.matching("drive.link.partial");
  m_slumber = cat.matching("drive.link.slumber");
  // Through the data path and the DRAM, in mapping units: host writes in; every unit programmed out (host, GC and
  // wear-levelling copies); host reads from flash in and out, from the buffer or unmapped out;
  // GC copies in. Translation pages in and out, in pages.
  const std::string c = stat_path::kController;
  m_units =
      find_all(cat, {stat_path::kFtl + "host_units_written", stat_path::kFtl + "nand_units_programmed",
                     c + "read_units.from_buffer", c + "read_units.unmapped", stat_path::kFtl + "gc_units_copied"});
  m_units_twice = find_all(cat, {c + "read_units.from_nand"});
  m_pages = find_all(cat, {c + "map_reads", c + "map_writes"});
}

double EnergyMeter::sum_s(const StatsDelta& d, const std::vector<std::uint32_t>& busy) {
  std::uint64_t ps = 0;
  for (std::uint32_t i : busy) ps += d.count_at(i);
  return double(ps) / double(kPicosPerSec);
}

double EnergyMeter::sum_count(const StatsDelta& d, const std::vector<std::uint32_t>& counters) {
  std::uint64_t n = 0;
  for (std::uint32_t i : counters) n += d.count_at(i);
  return double(n);
}

EnergyInputs EnergyMeter::inputs(const StatsDelta& d) const {
  EnergyInputs in;
  in.span_s = double(d.span_ps()) / double(kPicosPerSec);
  in.array_read_s = sum_s(d, m_read);
  in.array_program_s = sum_s(d, m_program);
  in.array_erase_s = sum_s(d, m_erase);
  in.bus_s = sum_s(d, m_bus);
  in.dies = m_dies;
  in.firmware_s = sum_s(d, m_firmware);
  in.data_bytes = double(m_unit_bytes) * (sum_count(d, m_units) + 2 * sum_count(d, m_units_twice)) +
                  double(m_page_bytes) * sum_count(d, m_pages);
  in.partial_s = sum_s(d, m_partial);
  in.slumber_s = sum_s(d, m_slumber);
  return in;
}

nlohmann::json power_json(const PhaseResult& r, const DriveConfig& config) {
  // An untimed phase (secure erase, precondition, wear) did its work outside simulated time: no
  // power, and no energy (its bytes moved at no measured rate).
  if (!config.power.enabled || r.stats.empty() || r.sim_end_ps == r.sim_start_ps) return nullptr;
  const EnergyMeter meter(r.stats.catalogue(), config);
  const EnergyInputs in = meter.inputs(r.stats);
  const EnergyParts e = energy_of(config.power, in);
  const double total = e.total();
  nlohmann::json j;
  j["average_w"] = total / in.span_s;
  if (r.power_peak_w >= 0) {
    j["peak_w"] = r.power_peak_w;
  } else {
    j["peak_w"] = nullptr;
  }
  j["energy_j"] = total;
  j["parts_j"] = {{"nand_array", e.nand_array}, {"nand_io", e.nand_io}, {"nand_standby", e.nand_standby},
                  {"controller", e.controller}, {"dram", e.dram},       {"link", e.link}};
  const std::uint64_t ios = r.io.ios();
  const double mb = double(r.io.read_bytes + r.io.write_bytes) / 1e6;
  if (ios) {
    j["energy_per_io_uj"] = total / double(ios) * 1e6;
  } else {
    j["energy_per_io_uj"] = nullptr;
  }
  if (mb > 0) {
    j["energy_per_mb_mj"] = total / mb * 1e3;
  } else {
    j["energy_per_mb_mj"] = nullptr;
  }
  if (config.host.link_pm.enabled()) {
    j["link"] = {{"partial_s", in.partial_s},
                 {"slumber_s", in.slumber_s},
                 {"partial_wakes", r.stats.count("drive.link.partial_wakes")},
                 {"slumber_wakes", r.stats.count("drive.link.slumber_wakes")}};
  }
  return j;
}

void print_power(std::ostream& out, const std::vector<PhaseResult>& results, const DriveConfig& config) {
  if (!config.power.enabled) return;
  bool head = false;
  for (const PhaseResult& r : results) {
    if (r.stats.empty() || r.sim_end_ps == r.sim_start_ps) continue;
    const EnergyMeter meter(r.stats.catalogue(), config);
    const EnergyInputs in = meter.inputs(r.stats);
    const EnergyParts e = energy_of(config.power, in);
    const double total = e.total();
    if (!head) {
      out << "\npower (docs/power.md): average and peak (highest time-series interval) W, energy, and where it went\n";
      head = true;
    }
    char peak[16] = "-", per_io[24] = "";
    if (r.power_peak_w >= 0) std::snprintf(peak, sizeof peak, "%.3f", r.power_peak_w);
    if (r.io.ios()) std::snprintf(per_io, sizeof per_io, ", %.1f uJ/IO", total / double(r.io.ios()) * 1e6);
    auto pct = [total](double part) { return total > 0 ? 100.0 * part / total : 0.0; };
    char line[512];
    std::snprintf(line, sizeof line,
                  "%-18s %.3f W avg, %s W peak, %.3f J%s (NAND array %.0f %%, NAND bus %.0f %%, controller %.0f %%, "
                  "DRAM %.0f %%, SATA PHY %.0f %%)\n",
                  r.name.c_str(), total / in.span_s, peak, total, per_io, pct(e.nand_array), pct(e.nand_io),
                  pct(e.controller), pct(e.dram), pct(e.link));
    out << line;
  }
}

}  // namespace ssdlab
