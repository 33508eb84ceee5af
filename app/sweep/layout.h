// A sweep's output folder (docs/sweep.md, "The output folder"), its record of the expanded plan
// (OUT/plan.json) and the state of every task as the files tell it:
//   OUT/plan.json                 the expanded points and aging groups
//   OUT/points/<id>/              a finished point: `ssdlab run`'s results, summary.json last
//   OUT/points/<id>.failed        a failed point: exit status, attempts, the tail of its log
//   OUT/points/.<id>.tmp-HOST-PID a point running (moved to <id>/ by rename() when it succeeds)
//   OUT/age/<group>/drive.img     an aged drive (and the aging run's results), OUT/age/<group>.failed
//   OUT/slurm/                    the sbatch script, task lists, job ids, task logs
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/sweep/expand.h"

namespace ssdlab::sweep {

namespace fs = std::filesystem;

// What OUT/plan.json holds: the expansion without the plan's parse tree.
struct SweepRecord {
  std::string plan_path, name;
  std::string scenario_path, drive_path, age_path;
  std::vector<std::string> scenario_overrides;  // the aging runs apply them with -p
  bool age_fixed_seed = false;
  std::uint64_t age_seed = 0;
  std::vector<std::string> axes, axis_keys;  // name and key (empty for sets) per axis
  std::vector<std::string> derived_keys;
  std::vector<Point> points;
  std::vector<AgeGroup> groups;
};

SweepRecord record_of(const Expansion& ex);
std::string record_json(const SweepRecord& r);
// Throws std::runtime_error naming the file and what is wrong with it.
SweepRecord read_record(const fs::path& out);

enum class TaskKind { kPoint, kAging };
enum class TaskState { kPending, kRunning, kDone, kFailed };
const char* to_string(TaskState s);

// A point or an aging run of the record.
struct TaskRef {
  TaskKind kind = TaskKind::kPoint;
  std::size_t index = 0;
  bool operator==(const TaskRef& o) const { return kind == o.kind && index == o.index; }
};

class Layout {
 public:
  explicit Layout(fs::path out) : m_out(std::move(out)) {}
  const fs::path& out() const { return m_out; }
  fs::path plan_json() const { return m_out / "plan.json"; }
  fs::path folder(TaskKind kind) const { return m_out / (kind == TaskKind::kPoint ? "points" : "age"); }
  fs::path done_dir(TaskKind kind, const std::string& id) const { return folder(kind) / id; }
  fs::path failed_file(TaskKind kind, const std::string& id) const { return folder(kind) / (id + ".failed"); }
  fs::path image(const std::string& group) const { return done_dir(TaskKind::kAging, group) / "drive.img"; }
  fs::path slurm_dir() const { return m_out / "slurm"; }
  // The folder a task runs in (this host, this process): renamed to done_dir when it succeeds.
  fs::path temp_dir(TaskKind kind, const std::string& id) const;

  bool done(TaskKind kind, const std::string& id) const;
  bool failed(TaskKind kind, const std::string& id) const;
  // Running: a temporary folder of a live process on this host, or any of another host.
  bool running(TaskKind kind, const std::string& id) const;
  TaskState state(TaskKind kind, const std::string& id) const;
  // Temporary folders of processes of this host that are gone (killed runs): removed.
  std::vector<std::string> remove_stale_temporaries() const;

 private:
  fs::path m_out;
};

const std::string& task_id(const SweepRecord& r, const TaskRef& t);
// "point 3" or "aging 0".
std::string task_name(const TaskRef& t);
std::string host_name();

// Writes `text` to PATH.tmp-PID and renames it over PATH. Throws std::runtime_error.
void write_file_atomic(const fs::path& path, const std::string& text);

}  // namespace ssdlab::sweep
