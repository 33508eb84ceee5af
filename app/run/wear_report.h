// Wear, SMART and lifetime figures (issue 26): per phase the blocks' erase counts against the
// rated endurance and a lifetime estimate from the phase's measured WAF and wear spread; per run
// the SMART attributes a drive of the era would report at the end; `ssdlab smart DIR` prints
// them as smartctl -A lays its table out.
//
// The lifetime estimate follows the endurance relation of JEDEC's JESD218 definitions (TBW =
// NAND capacity x rated P/E cycles / WAF; Solidigm KA-00015 states it with the raw NAND
// capacity) with Intel's wear-levelling factor WLF (cycles = host writes x WAF x WLF / capacity,
// Intel's X25-M endurance figures of 2008): the most-erased block reaches the rating first. Both
// come from the phase itself: its erases per block per host byte (the mean's wear) and how much
// its most-erased block's count rose against the mean's (WLF). TBW is the rating over the worst
// block's wear per host byte; what remains, the worst block's cycles left over the same; DWPD
// over a 5-year warranty TBW / (user capacity x 365 x 5), Kingston's worked form.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "app/run/phase_result.h"
#include "base/config/config.h"

namespace ssdlab {

// The phase's "wear" object: erase counts (min, mean, max, spread), endurance, life used,
// wear-levelling copies when static wear levelling is on, and "lifetime" when the phase wrote
// (null otherwise). Null for a phase without drive statistics.
nlohmann::json wear_json(const PhaseResult& r, const DriveConfig& config);
// summary.json's "smart": the attributes' raw values at the end of the run (from the last phase
// with drive statistics); null when there is none.
nlohmann::json smart_json(const std::vector<PhaseResult>& results, const DriveConfig& config);
// smartctl -A's table of a summary.json's "smart" object (throws std::runtime_error naming the
// missing field when it is not one).
std::string smart_table(const nlohmann::json& smart);
// `ssdlab smart DIR`: the table of DIR/summary.json with the drive's name; 2 (and a message on
// stderr naming the file) when it cannot be read or holds no SMART data.
int run_smart(const std::string& dir);

}  // namespace ssdlab
