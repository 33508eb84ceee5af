// `--engine slurm`: the tasks as Slurm job arrays of OUT/slurm/sweep.sbatch (slurm_script.cpp),
// submitted with sbatch, followed with squeue, their ends read from the result files and, for a
// task that left none (cancelled while pending, killed), from `scontrol show job` (and sacct
// where the cluster keeps accounting). Failed tasks go into a new array while retries are left.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "app/sweep/child_process.h"
#include "app/sweep/engine.h"
#include "app/sweep/run_task.h"
#include "app/sweep/slurm.h"

namespace ssdlab::sweep {
namespace {

constexpr double kLostContactSeconds = 120;

struct Submission {
  std::string job;
  std::vector<TaskRef> tasks;  // array index -> task
};

// What one round of submissions has shown, by (submission, array index).
struct Round {
  std::set<std::pair<int, std::size_t>> reported;           // its line printed
  std::map<std::pair<int, std::size_t>, std::string> seen;  // the last state squeue gave
};

Submission submit(const TaskBook& book, const std::vector<TaskRef>& tasks, const std::string& kind,
                  const std::string& after, const EngineOptions& options) {
  const Layout& layout = book.layout();
  const fs::path list = next_task_list(layout, kind);
  std::string lines;
  for (const TaskRef& t : tasks)
    lines += std::string(t.kind == TaskKind::kPoint ? "run-point " : "run-age ") + std::to_string(t.index) + "\n";
  write_file_atomic(list, lines);
  std::vector<std::string> argv{
      "sbatch", "--parsable",
      "--array=0-" + std::to_string(tasks.size() - 1) + (options.jobs ? "%" + std::to_string(options.jobs) : "")};
  if (!after.empty()) argv.push_back("--dependency=afterany:" + after);
  argv.insert(argv.end(), {script_path(layout).string(), list.string()});
  const Captured c = run_captured(argv);
  if (!c.started) throw std::runtime_error("cannot run sbatch (package slurm-client)");
  const std::string job = c.out.substr(0, c.out.find_first_not_of("0123456789"));
  if (!c.status.ok() || job.empty())
    throw std::runtime_error("sbatch refused the " + kind + " array (" + c.status.text() + "): " + c.err + c.out);
  std::ofstream(layout.slurm_dir() / "jobs.tsv", std::ios::app) << job << "\t" << kind << "\t" << list.string() << "\n";
  std::cout << "submitted " << kind << " array: job " << job << ", " << tasks.size() << " task"
            << (tasks.size() == 1 ? "" : "s") << (after.empty() ? "" : " (after job " + after + ")") << " ("
            << shell_words(argv) << ")" << std::endl;
  return {job, tasks};
}

// Prints each task's line once its result files appear; returns when Slurm holds none of the
// jobs any more. False when interrupted.
bool follow(TaskBook& book, const std::vector<Submission>& subs, const EngineOptions& options, Round& round) {
  const Layout& layout = book.layout();
  std::vector<std::string> jobs;
  for (const Submission& s : subs) jobs.push_back(s.job);
  auto last_contact = std::chrono::steady_clock::now();
  std::string last_counts;
  while (true) {
    if (StopSignals::received() != 0) return false;
    const QueueView q = query_queue(jobs);
    const auto now = std::chrono::steady_clock::now();
    if (q.ok) {
      last_contact = now;
    } else if (std::chrono::duration<double>(now - last_contact).count() > kLostContactSeconds) {
      throw std::runtime_error("squeue has failed for " + std::to_string(int(kLostContactSeconds)) + " s (" + q.error +
                               "); the jobs may still run: see `ssdlab sweep --status " + layout.out().string() + "`");
    }
    for (std::size_t s = 0; s < subs.size(); ++s) {
      for (std::size_t i = 0; i < subs[s].tasks.size(); ++i) {
        const TaskRef& t = subs[s].tasks[i];
        const std::string& id = task_id(book.record(), t);
        if (q.ok && q.holds(subs[s].job, i)) round.seen[{int(s), i}] = q.tasks.at(subs[s].job).at(i);
        if (round.reported.count({int(s), i})) continue;
        if (layout.done(t.kind, id) || (layout.failed(t.kind, id) && !q.holds(subs[s].job, i))) {
          round.reported.insert({int(s), i});
          std::cout << book.finished_line(t, -1) << std::endl;
        }
      }
    }
    if (q.ok) {
      const std::string counts = q.counts_text();
      if (counts != last_counts && !counts.empty()) std::cout << "slurm: " << counts << std::endl;
      last_counts = counts;
      if (q.tasks.empty()) return true;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_seconds));
  }
}

// Tasks that ended without a result or a .failed file of their own (cancelled while pending,
// killed with SIGKILL, a node lost): recorded as failed with what Slurm says of them.
void reconcile(TaskBook& book, const Submission& sub, Round& round, int s) {
  const Layout& layout = book.layout();
  const std::map<std::size_t, std::string> states = final_task_states(layout, sub.job);
  for (std::size_t i = 0; i < sub.tasks.size(); ++i) {
    const TaskRef& t = sub.tasks[i];
    const std::string& id = task_id(book.record(), t);
    if (layout.done(t.kind, id) || layout.failed(t.kind, id)) continue;
    const auto it = states.find(i);
    // A pending element of an array that is cancelled leaves no record in the controller.
    const auto seen = round.seen.find({s, i});
    const std::string what = it != states.end() ? it->second
                             : seen != round.seen.end() && seen->second == "PENDING"
                                 ? "left the queue while PENDING, without running (cancelled: scancel)"
                                 : "no result, and Slurm no longer knows the task";
    record_failure(book.record(), layout, t, "slurm job " + sub.job + "_" + std::to_string(i) + ": " + what, -1,
                   file_tail(task_log(layout, sub.job, i).string(), 2048), {});
    if (!round.reported.count({s, i})) {
      round.reported.insert({s, i});
      std::cout << book.finished_line(t, -1) << std::endl;
    }
  }
}

}  // namespace

bool run_slurm(TaskBook& book, const EngineOptions& options) {
  for (const char* tool : {"sbatch", "squeue", "scontrol"})
    if (!on_path(tool))
      throw std::runtime_error(std::string(tool) +
                               " not found: --engine slurm needs Slurm's client commands "
                               "(Debian: slurm-client) and a cluster (SLURM_CONF)");
  const Layout& layout = book.layout();
  write_script(book.record(), layout, options.slurm_options);
  const StopSignals stop;
  std::vector<TaskRef> todo = book.tasks();
  bool finished = true;
  while (!todo.empty()) {
    std::vector<TaskRef> aging, points;
    for (const TaskRef& t : todo) {
      book.take_attempt(t);
      (t.kind == TaskKind::kAging ? aging : points).push_back(t);
    }
    std::vector<Submission> subs;
    if (!aging.empty()) subs.push_back(submit(book, aging, "aging", "", options));
    if (!points.empty()) subs.push_back(submit(book, points, "points", aging.empty() ? "" : subs[0].job, options));
    Round round;
    if (!follow(book, subs, options, round)) {
      finished = false;
      std::cout << "interrupted: the jobs stay with Slurm (scancel " << subs.front().job
                << (subs.size() > 1 ? " " + subs.back().job : "") << " to stop them); `ssdlab sweep --status "
                << layout.out().string() << "` follows them" << std::endl;
      break;
    }
    todo.clear();
    for (std::size_t s = 0; s < subs.size(); ++s) {
      reconcile(book, subs[s], round, int(s));
      for (const TaskRef& t : subs[s].tasks)
        if (!layout.done(t.kind, task_id(book.record(), t)) && book.attempts_left(t)) todo.push_back(t);
    }
    if (!todo.empty())
      std::cout << "retrying " << todo.size() << " failed task" << (todo.size() == 1 ? "" : "s") << std::endl;
  }
  return finished;
}

}  // namespace ssdlab::sweep
