// What the local and Slurm engines share: the tasks to run with their attempts, and the line
// printed as each one ends.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/sweep/layout.h"

namespace ssdlab::sweep {

struct EngineOptions {
  unsigned jobs = 0;                       // local: tasks at once (0: every core); slurm: the array's %M (0: no limit)
  unsigned retry = 0;                      // failed tasks are run again up to this many times
  std::vector<std::string> slurm_options;  // extra #SBATCH lines ("--partition=x")
  double poll_seconds = 1.0;               // slurm: between two squeue calls
};

// The tasks of one invocation: aging runs first, points after their aging run has ended.
class TaskBook {
 public:
  TaskBook(const SweepRecord& record, const Layout& layout) : m_record(record), m_layout(layout) {}
  // `first` attempts allowed for a task that has not failed before, `again` for one that has.
  void add(const TaskRef& t, unsigned attempts) {
    m_left[key(t)] = attempts;
    m_order.push_back(t);
  }
  const std::vector<TaskRef>& tasks() const { return m_order; }
  // One attempt is used; returns whether any was left.
  bool take_attempt(const TaskRef& t);
  bool attempts_left(const TaskRef& t) const;
  // The line for a task that has just ended (done or failed, from its files), "[k/N] ...".
  std::string finished_line(const TaskRef& t, double seconds);
  std::size_t total() const { return m_order.size(); }
  const SweepRecord& record() const { return m_record; }
  const Layout& layout() const { return m_layout; }

 private:
  static long key(const TaskRef& t) { return t.kind == TaskKind::kPoint ? long(t.index) : -1 - long(t.index); }
  const SweepRecord& m_record;
  const Layout& m_layout;
  std::map<long, unsigned> m_left;
  std::vector<TaskRef> m_order;
  std::size_t m_finished = 0;
};

// "nand.channels=2 controller.op=0.07 seed 1" for a point, "for N points, seed S" for an aging run.
std::string task_label(const SweepRecord& r, const TaskRef& t);
// The .failed file's status and the last line of its log, for the terminal.
std::string failure_summary(const Layout& layout, TaskKind kind, const std::string& id);

// Each returns false when interrupted (SIGINT or SIGTERM): tasks not finished stay pending.
bool run_local(TaskBook& book, const EngineOptions& options);
// Throws std::runtime_error when Slurm cannot be used (no sbatch, a refused submission).
bool run_slurm(TaskBook& book, const EngineOptions& options);

}  // namespace ssdlab::sweep
