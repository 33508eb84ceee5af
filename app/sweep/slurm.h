// Slurm's side of `--engine slurm`: the sbatch script and task lists in OUT/slurm/, and what
// squeue, scontrol and sacct say about the arrays.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/sweep/layout.h"

namespace ssdlab::sweep {

fs::path script_path(const Layout& layout);
// Writes OUT/slurm/sweep.sbatch (and OUT/slurm/logs/): one array task runs the task named on
// line SLURM_ARRAY_TASK_ID + 1 of the list given as its argument. `extra`: more #SBATCH lines.
void write_script(const SweepRecord& r, const Layout& layout, const std::vector<std::string>& extra);
// A new OUT/slurm/NNN-KIND.tasks path (NNN: one more than the last submission's).
fs::path next_task_list(const Layout& layout, const std::string& kind);
// The output file of array task `index` of job `job` (the script's --output pattern).
fs::path task_log(const Layout& layout, const std::string& job, std::size_t index);

// One squeue call over some array jobs: the tasks Slurm still holds and their states.
struct QueueView {
  bool ok = false;
  std::string error;
  std::map<std::string, std::map<std::size_t, std::string>> tasks;  // job -> array index -> state
  bool holds(const std::string& job, std::size_t index) const;      // true too when !ok
  std::string counts_text() const;                                  // "2 running, 4 pending"
};
QueueView query_queue(const std::vector<std::string>& jobs);

// How each array task of `job` ended, for tasks that left no result: "JobState=CANCELLED
// ExitCode=0:15" from `scontrol -o show job` (saved in OUT/slurm/JOB.scontrol), else from sacct
// when the cluster keeps accounting.
std::map<std::size_t, std::string> final_task_states(const Layout& layout, const std::string& job);

// The jobs this sweep submitted (OUT/slurm/jobs.tsv) and their task lists, for --status: the
// state Slurm reports for each task still queued ("RUNNING", "PENDING"), by task.
std::map<std::pair<int, std::size_t>, std::string> queued_tasks(const Layout& layout);

}  // namespace ssdlab::sweep
