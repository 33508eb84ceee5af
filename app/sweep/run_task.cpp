#include "app/sweep/run_task.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/sweep/child_process.h"
#include "base/config/config_loader.h"

namespace ssdlab::sweep {
namespace {

constexpr std::size_t kLogTailBytes = 4096;

volatile sig_atomic_t g_signal = 0;
volatile pid_t g_child = 0;

// SIGINT, SIGTERM, SIGHUP: remembered and passed on to `ssdlab run`, whose end we then wait for.
extern "C" void sweep_task_signal(int sig) {
  if (g_signal == 0) g_signal = sig;
  if (g_child > 0) ::kill(g_child, sig);
}

class SignalGuard {
 public:
  SignalGuard() {
    struct sigaction sa {};
    sa.sa_handler = sweep_task_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &sa, &m_old[i]);
  }
  ~SignalGuard() {
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &m_old[i], nullptr);
    g_child = 0;
  }

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction m_old[3];
};

std::string now_text() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&t));
  return buf;
}

int previous_attempts(const fs::path& failed) {
  std::ifstream in(failed);
  if (!in) return 0;
  try {
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str()).at("attempts").get<int>();
  } catch (const std::exception&) {
    return 1;
  }
}

// The inputs still give the id the plan recorded (a scenario or drive edited since would give
// results under the old id): "" when they do, else why not.
std::string check_inputs(const SweepRecord& r, const TaskRef& task) {
  try {
    const BaseInputs in = read_inputs(r.scenario_path, r.drive_path, r.age_path, r.age_fixed_seed, r.age_seed);
    std::string id;
    if (task.kind == TaskKind::kPoint) {
      const Point& p = r.points[task.index];
      id = point_id(in, point_config_yaml(in, p.overrides), p.seed);
    } else {
      const AgeGroup& g = r.groups[task.index];
      id = group_id(in, point_config_yaml(in, g.overrides), g.seed);
    }
    if (id == task_id(r, task)) return "";
    return "the scenario, drive or aging files changed since the sweep was planned (its id would now be " + id +
           "): run the sweep again to plan it anew";
  } catch (const std::exception& e) {
    return std::string("its inputs no longer load: ") + e.what();
  }
}

}  // namespace

std::vector<std::string> task_command(const SweepRecord& r, const Layout& layout, const TaskRef& task,
                                      const std::string& out_dir) {
  std::vector<std::string> argv{"run"};
  std::vector<std::string> overrides;
  std::uint64_t seed = 0;
  if (task.kind == TaskKind::kPoint) {  // the scenario applies its own overrides
    const Point& p = r.points.at(task.index);
    argv.push_back(r.scenario_path);
    overrides = p.overrides;
    seed = p.seed;
  } else {  // the aging scenario has none: the points' scenario's come first
    const AgeGroup& g = r.groups.at(task.index);
    argv.push_back(r.age_path);
    overrides = r.scenario_overrides;
    overrides.insert(overrides.end(), g.overrides.begin(), g.overrides.end());
    seed = g.seed;
  }
  argv.insert(argv.end(), {"--drive", r.drive_path});
  for (const std::string& o : overrides) argv.insert(argv.end(), {"-p", o});
  argv.insert(argv.end(), {"--seed", std::to_string(seed), "--out", out_dir, "-q", "--no-plots"});
  if (task.kind == TaskKind::kAging) {
    argv.insert(argv.end(), {"--save-image", (fs::path(out_dir) / "drive.img").string()});
  } else if (r.points[task.index].group >= 0) {
    argv.insert(argv.end(),
                {"--load-image", layout.image(r.groups[std::size_t(r.points[task.index].group)].id).string()});
  }
  return argv;
}

void record_failure(const SweepRecord& r, const Layout& layout, const TaskRef& task, const std::string& status,
                    int exit_code, const std::string& log_tail, const std::vector<std::string>& command) {
  const std::string& id = task_id(r, task);
  const fs::path file = layout.failed_file(task.kind, id);
  const nlohmann::json j = {{"id", id},
                            {"task", task_name(task)},
                            {"status", status},
                            {"exit_code", exit_code},
                            {"attempts", previous_attempts(file) + 1},
                            {"host", host_name()},
                            {"time", now_text()},
                            {"command", command.empty() ? "" : shell_words(command)},
                            {"log_tail", log_tail}};
  write_file_atomic(file, j.dump(1) + "\n");
}

int run_task(const std::string& out, const TaskRef& task) {
  const SweepRecord r = read_record(out);
  const std::size_t count = task.kind == TaskKind::kPoint ? r.points.size() : r.groups.size();
  if (task.index >= count)
    throw std::runtime_error(out + ": no " + task_name(task) + " (the plan has " + std::to_string(count) + ")");
  const Layout layout{fs::path(out)};
  const std::string& id = task_id(r, task);
  const std::string name = task_name(task) + " (" + id + ")";
  if (layout.done(task.kind, id)) {
    std::cout << name << ": already done\n";
    return 0;
  }
  const std::string exe = self_executable();
  const auto fail = [&](const std::string& status, int code, const std::string& tail,
                        const std::vector<std::string>& cmd) {
    record_failure(r, layout, task, status, code, tail, cmd);
    std::cout << name << ": failed, " << status << "\n";
    return 1;
  };
  const std::string why = check_inputs(r, task);
  if (!why.empty()) return fail("not run: " + why, -1, "", {});
  if (task.kind == TaskKind::kPoint && r.points[task.index].group >= 0) {
    const std::string& gid = r.groups[std::size_t(r.points[task.index].group)].id;
    std::error_code ec;
    if (!fs::is_regular_file(layout.image(gid), ec))
      return fail("not run: its aged drive " + layout.image(gid).string() + " is missing (the aging run " + gid +
                      (layout.failed(TaskKind::kAging, gid)
                           ? " failed: see " + layout.failed_file(TaskKind::kAging, gid).string()
                           : " has not finished") +
                      ")",
                  -1, "", {});
  }

  const fs::path tmp = layout.temp_dir(task.kind, id);
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) return fail("cannot create " + tmp.string() + ": " + ec.message(), -1, "", {});
  std::vector<std::string> argv{exe};
  const std::vector<std::string> command = task_command(r, layout, task, tmp.string());
  argv.insert(argv.end(), command.begin(), command.end());
  const std::string log = (tmp / "run.log").string();
  const auto started = std::chrono::steady_clock::now();
  ExitStatus status;
  {
    const SignalGuard guard;
    g_signal = 0;
    const pid_t pid = spawn_process(argv, log);
    g_child = pid;
    if (g_signal != 0) ::kill(pid, g_signal);  // arrived between the spawn and the line above
    status = wait_process(pid);
  }
  const int sig = g_signal;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (sig == SIGINT) {  // a person stopping the sweep: the task stays pending, not failed
    fs::remove_all(tmp, ec);
    std::cout << name << ": interrupted\n";
    return 128 + SIGINT;
  }
  std::vector<std::string> shown{"ssdlab"};
  shown.insert(shown.end(), command.begin(), command.end());
  if (sig != 0) {
    const std::string tail = file_tail(log, kLogTailBytes);
    fs::remove_all(tmp, ec);
    return fail(std::string("cancelled (") + ::strsignal(sig) + ")", 128 + sig, tail, shown);
  }
  if (!status.ok() || !fs::is_regular_file(tmp / "summary.json", ec)) {
    const std::string tail = file_tail(log, kLogTailBytes);
    fs::remove_all(tmp, ec);
    return fail(status.ok() ? "exit 0 without summary.json" : status.text(), status.code, tail, shown);
  }
  const fs::path final_dir = layout.done_dir(task.kind, id);
  if (std::rename(tmp.c_str(), final_dir.c_str()) != 0) {
    const int err = errno;
    if ((err == ENOTEMPTY || err == EEXIST) && layout.done(task.kind, id)) {  // another run finished it first
      fs::remove_all(tmp, ec);
    } else {
      fs::remove_all(tmp, ec);
      return fail("cannot move its results to " + final_dir.string() + ": " + std::strerror(err), -1, "", shown);
    }
  }
  fs::remove(layout.failed_file(task.kind, id), ec);  // an earlier attempt's
  std::cout << name << ": done in " << seconds << " s\n";
  return 0;
}

}  // namespace ssdlab::sweep
