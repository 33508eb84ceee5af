// A ReplaySpec (scenario phase or `ssdlab replay`) into a TraceSource for a drive: every
// value checked, TraceError naming the bad one.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/config/replay_spec.h"
#include "host/workload/trace/trace_source.h"

namespace ssdlab {

// Opens the trace (its format guessed when not given) and checks the options; the drive has
// `capacity_sectors` user sectors and moves at most `max_transfer_bytes` per command.
std::unique_ptr<TraceSource> make_trace_source(const ReplaySpec& spec, std::uint64_t capacity_sectors,
                                               std::uint64_t max_transfer_bytes);
// Checks the spec and that the trace opens and its format is known, without replaying it.
void check_replay_spec(const ReplaySpec& spec);
// The counts as (name, value) rows for the results (summary.json's "replay" object).
std::vector<std::pair<std::string, std::uint64_t>> trace_count_rows(const TraceSource& source);

}  // namespace ssdlab
