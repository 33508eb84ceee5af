// One task of a sweep, as `ssdlab sweep run-point OUT INDEX` and `run-age OUT GROUP` run it
// (the local engine's children and Slurm's array tasks alike): `ssdlab run` into a temporary
// folder, renamed into place when it succeeds, or OUT/.../<id>.failed when it does not.
#pragma once

#include <string>
#include <vector>

#include "app/sweep/layout.h"

namespace ssdlab::sweep {

// The `ssdlab run` command of a task (after the executable), writing into `out_dir`.
std::vector<std::string> task_command(const SweepRecord& r, const Layout& layout, const TaskRef& task,
                                      const std::string& out_dir);

// Runs the task; returns 0 (done, or found done), 1 (failed: the .failed file says why) or
// 128+N when interrupted by SIGINT (nothing recorded: the task stays pending). SIGTERM and
// SIGHUP (scancel, a time limit) count as a failure: "cancelled".
int run_task(const std::string& out, const TaskRef& task);

// Records a failure of `task` in its .failed file: `status` ("exit 2", "cancelled ...") and the
// tail of its log; attempts counted on from an earlier .failed. Used by the Slurm engine too,
// for tasks that ended without writing anything (cancelled while pending).
void record_failure(const SweepRecord& r, const Layout& layout, const TaskRef& task, const std::string& status,
                    int exit_code, const std::string& log_tail, const std::vector<std::string>& command);

}  // namespace ssdlab::sweep
