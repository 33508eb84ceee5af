// The results of a run in fio's `--output-format=json` shape (fio 3.x), so that a script that
// reads fio's JSON reads ssdlab's: `fio version`, `jobs[]` with `jobname`, `groupid` and, per
// direction (`read`, `write`, `trim`), io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops,
// runtime (ms), total_ios and slat_ns / clat_ns / lat_ns {min, max, mean, stddev, N,
// percentile {"99.000000": ns}}; `sync` counts the FLUSH CACHE EXT commands.
//
// What the figures mean here: a job phase is one fio group (groupid = its number among the job
// phases); a phase that ran several jobs at once has one entry per job, or per run of jobs
// joined by group_reporting as fio 3.33 joins them (fio_output.cpp, add_jobs). A request is measured
// from its issue by the host driver to its completion: clat_ns and lat_ns both carry that (the
// wait for an NCQ tag included), slat_ns is zero with N = 0 (fio's psync output looks the
// same: the simulated host spends no CPU time submitting). runtime is the job's I/O window
// (first issue, or the end of ramp_time, to the last completion) for every direction that did
// I/O. stddev is computed from the latency histogram's buckets. TRIM counts only requests.
#pragma once

#include <string>
#include <vector>

#include "app/run/phase_result.h"
#include "base/config/scenario.h"

namespace ssdlab {

std::string fio_json(const ScenarioSpec& scenario, const std::vector<PhaseResult>& results);

}  // namespace ssdlab
