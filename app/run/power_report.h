// The drive's power and energy (power.*, docs/power.md): computed from what the drive did, as
// its statistics recorded it, never from simulated time of its own.
//
// Energy of a span of time T (a phase, or one time-series interval), in six parts:
// - NAND array: Vcc x (I_read x read array time + I_program x program array time + I_erase x
//   erase time), the array times summed over the dies (each retry's tR included);
// - NAND I/O: Vcc x I_io x the channel buses' busy time (commands and data, one die at a time);
// - NAND standby: Vcc x I_standby x dies x T;
// - controller: P_idle x T + P_active x the firmware CPU's busy time + energy per byte x the
//   bytes through its data path (host data in and out, flash data in and out, translation pages);
// - DRAM: P_idle x T + energy per byte x the same bytes (they pass through the buffer);
// - SATA PHY: its power in each link state x the time in it (Active unless host.link_pm).
// Average power is energy over T; peak power the highest interval's average (time series).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "base/config/config.h"
#include "base/stats/stats_tree.h"

namespace ssdlab {

struct PhaseResult;

// What the energy of a span comes from (seconds and bytes).
struct EnergyInputs {
  double span_s = 0;
  double array_read_s = 0, array_program_s = 0, array_erase_s = 0;  // summed over the dies
  double bus_s = 0;                                                 // summed over the channels
  std::uint32_t dies = 0;
  double firmware_s = 0;
  double data_bytes = 0;                // through the controller's data path and its DRAM
  double partial_s = 0, slumber_s = 0;  // the link's time in each low-power state
};

// Joules by part.
struct EnergyParts {
  double nand_array = 0, nand_io = 0, nand_standby = 0, controller = 0, dram = 0, link = 0;
  double total() const { return nand_array + nand_io + nand_standby + controller + dram + link; }
};

EnergyParts energy_of(const PowerConfig& power, const EnergyInputs& in);

// Reads EnergyInputs out of a statistics delta of a drive built with power.enabled (the die
// array times are only registered then); the statistics' indices are looked up once.
class EnergyMeter {
 public:
  EnergyMeter(const StatCatalogue& catalogue, const DriveConfig& config);
  EnergyInputs inputs(const StatsDelta& d) const;
  EnergyParts energy(const StatsDelta& d) const { return energy_of(m_power, inputs(d)); }

 private:
  static double sum_s(const StatsDelta& d, const std::vector<std::uint32_t>& busy);
  static double sum_count(const StatsDelta& d, const std::vector<std::uint32_t>& counters);

  PowerConfig m_power;
  std::uint32_t m_dies;
  std::vector<std::uint32_t> m_read, m_program, m_erase, m_bus, m_firmware, m_partial, m_slumber;
  // Mapping units and pages through the DRAM (their sizes below).
  std::vector<std::uint32_t> m_units, m_units_twice, m_pages;
  std::uint32_t m_unit_bytes, m_page_bytes;
};

// The phase's "power" object (summary.json): average and peak power, energy by part, energy per
// request and per host megabyte, the link's power states; null when power is off, or the phase
// took no simulated time or has no drive statistics.
nlohmann::json power_json(const PhaseResult& r, const DriveConfig& config);
// The console's power table (power.enabled): per timed phase average and peak power, energy,
// energy per request, and the parts' shares.
void print_power(std::ostream& out, const std::vector<PhaseResult>& results, const DriveConfig& config);

}  // namespace ssdlab
