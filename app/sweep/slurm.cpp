#include "app/sweep/slurm.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "app/sweep/child_process.h"

namespace ssdlab::sweep {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

// "KEY=value" of one `scontrol -o` line ("" when absent).
std::string field(const std::string& line, const std::string& key) {
  std::size_t at = 0;
  while ((at = line.find(key + "=", at)) != std::string::npos) {
    if (at == 0 || line[at - 1] == ' ') {
      const std::size_t start = at + key.size() + 1;
      return line.substr(start, line.find(' ', start) - start);
    }
    at += key.size();
  }
  return "";
}

// Array task ids of "3", "2-5", "1,4-6%2" (a pending record may stand for several).
std::vector<std::size_t> task_ids(std::string spec) {
  std::vector<std::size_t> ids;
  spec = spec.substr(0, spec.find('%'));
  for (const std::string& item : split(spec, ',')) {
    const std::size_t dash = item.find('-');
    try {
      const std::size_t lo = std::stoul(item.substr(0, dash));
      const std::size_t hi = dash == std::string::npos ? lo : std::stoul(item.substr(dash + 1));
      for (std::size_t i = lo; i <= hi && i - lo < 1000000; ++i) ids.push_back(i);
    } catch (const std::exception&) {}
  }
  return ids;
}

// The array index of "12_3" for job "12"; false for another job or a pending range ("12_[4-5]").
bool array_index(const std::string& id, const std::string& job, std::vector<std::size_t>& out) {
  if (id.compare(0, job.size() + 1, job + "_") != 0) return false;
  std::string rest = id.substr(job.size() + 1);
  if (!rest.empty() && rest.front() == '[') rest = rest.substr(1, rest.find(']') - 1);
  out = task_ids(rest);
  return !out.empty();
}

}  // namespace

fs::path script_path(const Layout& layout) { return layout.slurm_dir() / "sweep.sbatch"; }

fs::path task_log(const Layout& layout, const std::string& job, std::size_t index) {
  return layout.slurm_dir() / "logs" / (job + "_" + std::to_string(index) + ".out");
}

void write_script(const SweepRecord& r, const Layout& layout, const std::vector<std::string>& extra) {
  fs::create_directories(layout.slurm_dir() / "logs");
  const std::string out = fs::absolute(layout.out()).string();
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# ssdlab sweep '" << r.name << "' (" << r.plan_path << "): " << r.points.size() << " points, "
    << r.groups.size() << " aging runs.\n"
    << "# One array task runs one task of the sweep: the point or aging run named on line\n"
    << "# SLURM_ARRAY_TASK_ID + 1 of the task list given as the first argument (\"run-point 5\").\n"
    << "# `ssdlab sweep PLAN --engine slurm` submits it, an array per task list:\n"
    << "#   sbatch --parsable --array=0-<N-1>[%<-j>] [--dependency=afterany:<aging job>] \\\n"
    << "#          " << script_path(layout).string() << " " << layout.slurm_dir().string() << "/NNN-points.tasks\n"
    << "# A task's results appear in " << out << "/points/<id>/ (aging: age/<id>/) only when it\n"
    << "# succeeds (written in a temporary folder, then renamed); a failure leaves <id>.failed there.\n"
    << "#SBATCH --job-name=ssdlab-sweep-" << r.name << "\n"
    << "#SBATCH --output=" << (layout.slurm_dir() / "logs").string() << "/%A_%a.out\n"
    << "#SBATCH --ntasks=1\n"
    << "#SBATCH --cpus-per-task=1\n";
  for (const std::string& e : extra) s << "#SBATCH " << e << "\n";
  s << "set -eu\n"
    << "SSDLAB=" << shell_words({self_executable()}) << "\n"
    << "OUT=" << shell_words({out}) << "\n"
    << "task=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" \"$1\")\n"
    << "echo \"$(hostname): job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}: ssdlab sweep ${task%% *} $OUT "
       "${task##* }\"\n"
    << "exec \"$SSDLAB\" sweep \"${task%% *}\" \"$OUT\" \"${task##* }\"\n";
  write_file_atomic(script_path(layout), s.str());
  fs::permissions(script_path(layout), fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
}

fs::path next_task_list(const Layout& layout, const std::string& kind) {
  int last = 0;
  std::error_code ec;
  for (fs::directory_iterator it(layout.slurm_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > 4 && name.find(".tasks") != std::string::npos) last = std::max(last, std::atoi(name.c_str()));
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%03d-", last + 1);
  return layout.slurm_dir() / (buf + kind + ".tasks");
}

bool QueueView::holds(const std::string& job, std::size_t index) const {
  if (!ok) return true;
  const auto it = tasks.find(job);
  return it != tasks.end() && it->second.count(index) > 0;
}

std::string QueueView::counts_text() const {
  std::map<std::string, std::size_t> counts;
  for (const auto& [job, states] : tasks)
    for (const auto& [index, state] : states) ++counts[state];
  std::string text;
  for (const auto& [state, n] : counts) {
    std::string lower = state;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    text += (text.empty() ? "" : ", ") + std::to_string(n) + " " + lower;
  }
  return text;
}

QueueView query_queue(const std::vector<std::string>& jobs) {
  QueueView q;
  std::string list;
  for (const std::string& j : jobs) list += (list.empty() ? "" : ",") + j;
  const Captured c = run_captured({"squeue", "-h", "-r", "-j", list, "-o", "%i|%T"});
  if (!c.started) {
    q.error = "squeue cannot be run";
    return q;
  }
  if (!c.status.ok()) {
    // A job Slurm has forgotten (MinJobAge after its end) is an error for squeue: nothing queued.
    q.ok = c.err.find("Invalid job id") != std::string::npos;
    q.error = c.status.text() + ": " + c.err;
    return q;
  }
  q.ok = true;
  for (const std::string& line : split(c.out, '\n')) {
    const std::size_t bar = line.find('|');
    if (bar == std::string::npos) continue;
    const std::string id = line.substr(0, bar), state = line.substr(bar + 1);
    for (const std::string& job : jobs) {
      std::vector<std::size_t> indices;
      if (array_index(id, job, indices))
        for (std::size_t i : indices) q.tasks[job][i] = state;
    }
  }
  return q;
}

std::map<std::size_t, std::string> final_task_states(const Layout& layout, const std::string& job) {
  std::map<std::size_t, std::string> states;
  const Captured c = run_captured({"scontrol", "-o", "show", "job", job});
  if (c.started && c.status.ok()) {
    std::ofstream(layout.slurm_dir() / (job + ".scontrol")) << c.out;
    for (const std::string& line : split(c.out, '\n')) {
      const std::string state = field(line, "JobState");
      if (state.empty()) continue;
      const std::string reason = field(line, "Reason");
      const std::string text = "JobState=" + state + " ExitCode=" + field(line, "ExitCode") +
                               (reason.empty() || reason == "None" ? "" : " Reason=" + reason);
      for (std::size_t i : task_ids(field(line, "ArrayTaskId"))) states[i] = text;
    }
  }
  if (on_path("sacct")) {
    const Captured a = run_captured({"sacct", "-n", "-P", "-X", "-j", job, "-o", "JobID,State,ExitCode"});
    if (a.started && a.status.ok()) {
      for (const std::string& line : split(a.out, '\n')) {
        const std::vector<std::string> f = split(line, '|');
        std::vector<std::size_t> indices;
        if (f.size() < 3 || !array_index(f[0], job, indices)) continue;
        for (std::size_t i : indices)
          if (!states.count(i)) states[i] = "sacct: State=" + f[1] + " ExitCode=" + f[2];
      }
    }
  }
  return states;
}

std::map<std::pair<int, std::size_t>, std::string> queued_tasks(const Layout& layout) {
  std::map<std::pair<int, std::size_t>, std::string> out;
  std::ifstream in(layout.slurm_dir() / "jobs.tsv");
  std::vector<std::pair<std::string, std::string>> jobs;  // job, task list
  std::string line;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = split(line, '\t');
    if (f.size() >= 3) jobs.emplace_back(f[0], f[2]);
  }
  if (jobs.empty() || !on_path("squeue")) return out;
  std::vector<std::string> ids;
  for (const auto& j : jobs) ids.push_back(j.first);
  const QueueView q = query_queue(ids);
  for (const auto& [job, list] : jobs) {
    const auto held = q.tasks.find(job);
    if (held == q.tasks.end()) continue;
    std::ifstream tasks(list);
    std::vector<std::string> lines;
    while (std::getline(tasks, line)) lines.push_back(line);
    for (const auto& [index, state] : held->second) {
      if (index >= lines.size()) continue;
      const bool point = lines[index].rfind("run-point ", 0) == 0;
      out[{point ? 0 : 1, std::stoul(lines[index].substr(lines[index].find(' ') + 1))}] = state;
    }
  }
  return out;
}

}  // namespace ssdlab::sweep
