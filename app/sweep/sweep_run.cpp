#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/sweep/engine.h"
#include "app/sweep/slurm.h"
#include "app/sweep/sweep.h"
#include "base/config/config_loader.h"

namespace ssdlab::sweep {
namespace {

struct Counts {
  std::size_t done = 0, running = 0, failed = 0, pending = 0;
  void add(TaskState s) {
    (s == TaskState::kDone ? done : s == TaskState::kRunning ? running : s == TaskState::kFailed ? failed : pending)++;
  }
  std::string text() const {
    return std::to_string(done) + " done, " + std::to_string(running) + " running, " + std::to_string(failed) +
           " failed, " + std::to_string(pending) + " pending";
  }
};

int failed_exit(std::size_t failed) { return int(std::min<std::size_t>(failed, kMaxFailedExit)); }

// The points as a table: index, id, seed, each axis, each derived key, aging group, state.
void print_points(std::ostream& os, const SweepRecord& r, const std::vector<std::string>& states) {
  std::vector<std::string> head{"index", "id", "seed"};
  head.insert(head.end(), r.axes.begin(), r.axes.end());
  head.insert(head.end(), r.derived_keys.begin(), r.derived_keys.end());
  if (!r.groups.empty()) head.push_back("aged_drive");
  head.push_back("state");
  std::vector<std::vector<std::string>> rows;
  for (const Point& p : r.points) {
    std::vector<std::string> row{std::to_string(p.index), p.id, std::to_string(p.seed)};
    row.insert(row.end(), p.labels.begin(), p.labels.end());
    for (const auto& [key, value] : p.derived) row.push_back(value);
    if (!r.groups.empty()) row.push_back(p.group >= 0 ? r.groups[std::size_t(p.group)].id : "-");
    row.push_back(states[p.index]);
    rows.push_back(row);
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c)
      os << (c ? "  " : "") << std::left << std::setw(int(c + 1 == cells.size() ? 0 : width[c])) << cells[c];
    os << "\n";
  };
  line(head);
  for (const auto& row : rows) line(row);
}

std::string plan_summary(const SweepRecord& r, const Plan& plan) {
  std::set<std::uint64_t> seeds;
  for (const Point& p : r.points) seeds.insert(p.seed);
  std::ostringstream s;
  s << "sweep '" << r.name << "': " << r.points.size() << " point" << (r.points.size() == 1 ? "" : "s") << " ("
    << r.points.size() / std::max<std::size_t>(1, seeds.size()) << " combination"
    << (r.points.size() / std::max<std::size_t>(1, seeds.size()) == 1 ? "" : "s") << " of " << r.axes.size() << " ax"
    << (r.axes.size() == 1 ? "is" : "es") << (plan.zip ? ", zipped" : "") << " x " << seeds.size() << " seed"
    << (seeds.size() == 1 ? "" : "s") << ")";
  if (!r.groups.empty()) s << ", " << r.groups.size() << " aging run" << (r.groups.size() == 1 ? "" : "s");
  s << "\n  scenario " << r.scenario_path << "\n  drive    " << r.drive_path;
  if (!r.age_path.empty()) s << "\n  aging    " << r.age_path;
  return s.str();
}

std::vector<std::string> point_states(const SweepRecord& r, const Layout& layout) {
  std::vector<std::string> states;
  for (const Point& p : r.points) states.push_back(to_string(layout.state(TaskKind::kPoint, p.id)));
  return states;
}

}  // namespace

int run_sweep(const SweepOptions& options) {
  Expansion ex;
  try {
    ex = expand_plan(load_plan(options.plan_path));
  } catch (const ConfigError& e) {
    std::cerr << "ssdlab: sweep: " << e.what() << "\nnothing was run\n";
    return kExitSweepError;
  }
  const SweepRecord r = record_of(ex);
  const fs::path out = options.out_dir.empty() ? fs::path("results") / r.name : fs::path(options.out_dir);
  const Layout layout(fs::absolute(out).lexically_normal());
  std::cout << plan_summary(r, ex.plan) << "\n  results  " << layout.out().string() << "\n";
  if (options.dry_run) {
    print_points(std::cout, r, point_states(r, layout));
    return 0;
  }
  if (options.engine == "slurm" && !options.engine_options.slurm_options.empty()) {
    for (const std::string& o : options.engine_options.slurm_options)
      if (o.empty() || o[0] != '-') {
        std::cerr << "ssdlab: sweep: --slurm-opt '" << o << "': expected an sbatch option such as --partition=NAME\n";
        return kExitSweepError;
      }
  }
  try {
    fs::create_directories(layout.folder(TaskKind::kPoint));
    fs::create_directories(layout.folder(TaskKind::kAging));
    write_file_atomic(layout.plan_json(), record_json(r));
  } catch (const std::exception& e) {
    std::cerr << "ssdlab: sweep: " << e.what() << "\n";
    return kExitSweepError;
  }
  for (const std::string& stale : layout.remove_stale_temporaries())
    std::cout << "removed the temporary folder of a run that was killed: " << stale << "\n";

  // What to run: points not done (a failed one only with --retry), and the aging runs they need.
  const unsigned retry = options.engine_options.retry;
  TaskBook book(r, layout);
  std::vector<bool> aging_needed(r.groups.size(), false);
  std::vector<TaskRef> points;
  std::size_t done_before = 0, failed_kept = 0, elsewhere = 0;
  for (const Point& p : r.points) {
    const TaskState st = layout.state(TaskKind::kPoint, p.id);
    if (st == TaskState::kDone) {
      ++done_before;
    } else if (st == TaskState::kRunning) {
      ++elsewhere;
    } else if (st == TaskState::kFailed && retry == 0) {
      ++failed_kept;
    } else {
      points.push_back({TaskKind::kPoint, p.index});
      if (p.group >= 0) aging_needed[std::size_t(p.group)] = true;
    }
  }
  for (std::size_t g = 0; g < r.groups.size(); ++g) {
    const TaskState st = layout.state(TaskKind::kAging, r.groups[g].id);
    if (!aging_needed[g] || st == TaskState::kDone || st == TaskState::kRunning) continue;
    book.add({TaskKind::kAging, g}, st == TaskState::kFailed ? std::max(1u, retry) : 1 + retry);
  }
  for (const TaskRef& t : points)
    book.add(t, layout.failed(TaskKind::kPoint, r.points[t.index].id) ? retry : 1 + retry);
  std::cout << "to run: " << points.size() << " point" << (points.size() == 1 ? "" : "s");
  const std::size_t aging = book.total() - points.size();
  if (aging) std::cout << " and " << aging << " aging run" << (aging == 1 ? "" : "s");
  std::cout << " (" << done_before << " done before";
  if (failed_kept) std::cout << ", " << failed_kept << " failed before: --retry N runs them again";
  if (elsewhere) std::cout << ", " << elsewhere << " running elsewhere";
  std::cout << ")" << std::endl;

  bool completed = true;
  try {
    if (book.total() > 0)
      completed =
          options.engine == "slurm" ? run_slurm(book, options.engine_options) : run_local(book, options.engine_options);
  } catch (const std::exception& e) {
    std::cerr << "ssdlab: sweep: " << e.what() << "\n";
    return kExitSweepError;
  }
  Counts c;
  for (const Point& p : r.points) c.add(layout.state(TaskKind::kPoint, p.id));
  std::cout << (completed ? "" : "interrupted: ") << r.points.size() << " points: " << c.text() << "  ("
            << layout.out().string() << "; `ssdlab sweep collect " << layout.out().string() << "` makes the table)"
            << std::endl;
  if (!completed) return 130;
  return failed_exit(c.failed);
}

int print_status(const std::string& out) {
  const SweepRecord r = read_record(out);
  const Layout layout{fs::path(out)};
  const auto queued = queued_tasks(layout);
  std::vector<std::string> states = point_states(r, layout);
  Counts c, aging;
  for (const Point& p : r.points) {
    const auto q = queued.find({0, p.index});
    const bool has_files = states[p.index] == "done" || states[p.index] == "running";
    if (q != queued.end() && !has_files) states[p.index] = "slurm " + q->second;
    const TaskState st = layout.state(TaskKind::kPoint, p.id);
    c.add(q != queued.end() && st != TaskState::kDone
              ? (q->second == "RUNNING" ? TaskState::kRunning : TaskState::kPending)
              : st);
  }
  for (const AgeGroup& g : r.groups) aging.add(layout.state(TaskKind::kAging, g.id));
  std::cout << "sweep '" << r.name << "' (" << r.plan_path << "), " << layout.out().string() << "\n";
  print_points(std::cout, r, states);
  std::cout << r.points.size() << " points: " << c.text() << "\n";
  if (!r.groups.empty()) std::cout << r.groups.size() << " aging runs: " << aging.text() << "\n";
  for (const Point& p : r.points)
    if (states[p.index] == "failed")
      std::cout << "point " << p.index << " (" << p.id << "): " << failure_summary(layout, TaskKind::kPoint, p.id)
                << "\n";
  return failed_exit(c.failed);
}

}  // namespace ssdlab::sweep
