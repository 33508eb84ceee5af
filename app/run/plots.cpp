#include "app/run/plots.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

extern char** environ;

namespace ssdlab {

namespace {

namespace fs = std::filesystem;

// The script's documented exit status for "matplotlib cannot be imported".
constexpr int kExitNoMatplotlib = 3;
// What a shell or a version-manager shim (pyenv) exits with when it has no such command.
constexpr int kExitNoCommand = 127;
constexpr std::size_t kMaxOutput = 1u << 20;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

struct ChildResult {
  bool started = false;
  int status = -1;  // exit status; -1 when killed by a signal
  std::string output;
};

void read_all(int fd, std::string& out) {
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      if (out.size() < kMaxOutput) out.append(buf, std::size_t(n));
    } else if (n == 0 || errno != EINTR) {
      return;
    }
  }
}

// Runs `args` (args[0] searched on PATH) with stdout and stderr captured, and waits for it.
ChildResult run_child(const std::vector<std::string>& args) {
  ChildResult r;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return r;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err == 0) {
    r.started = true;
    read_all(fds[0], r.output);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  close(fds[0]);
  return r;
}

std::string executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

std::string last_line(const std::string& text) {
  const std::size_t end = text.find_last_not_of("\r\n");
  if (end == std::string::npos) return std::string();
  const std::size_t nl = text.find_last_of('\n', end);
  const std::size_t start = nl == std::string::npos ? 0 : nl + 1;
  return text.substr(start, end - start + 1);
}

std::string find_script() {
  for (const std::string& candidate : plots_script_candidates()) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  return std::string();
}

}  // namespace

std::vector<std::string> plots_script_candidates() {
  std::vector<std::string> out;
  if (!env("SSDLAB_PLOTS_SCRIPT").empty()) out.push_back(env("SSDLAB_PLOTS_SCRIPT"));
  const std::string dir = executable_dir();
  if (!dir.empty()) out.push_back((fs::path(dir) / "ssdlab_plots.py").string());
#ifdef SSDLAB_PLOTS_SCRIPT_SOURCE
  out.push_back(SSDLAB_PLOTS_SCRIPT_SOURCE);
#endif
  return out;
}

PlotsOutcome run_plots(const std::string& results_dir) {
  PlotsOutcome outcome;
  const std::string script = find_script();
  if (script.empty()) {
    outcome.message = "plots skipped: ssdlab_plots.py not found (next to the ssdlab binary or in its source tree)";
    return outcome;
  }
  // A previous run's index must not be taken for this run's when the script stops early.
  std::error_code ec;
  fs::remove(fs::path(results_dir) / "plots" / "index.json", ec);
  std::vector<std::string> interpreters{"python3", "/usr/bin/python3"};
  if (!env("SSDLAB_PYTHON").empty()) interpreters = {env("SSDLAB_PYTHON")};
  for (const std::string& python : interpreters) {
    const ChildResult r = run_child({python, script, results_dir});
    if (!r.started || r.status == kExitNoMatplotlib || r.status == kExitNoCommand) continue;  // the next one
    if (r.status == 0) {
      outcome.status = PlotsOutcome::Status::kWritten;
      outcome.message = "plots in " + (fs::path(results_dir) / "plots").string();
    } else {
      outcome.status = PlotsOutcome::Status::kFailed;
      outcome.message = "plots: " + script + " failed (" +
                        (r.status < 0 ? std::string("killed") : "exit " + std::to_string(r.status)) +
                        "): " + last_line(r.output);
      outcome.detail = r.output;
    }
    return outcome;
  }
  outcome.message = "plots skipped: python3-matplotlib not installed";
  return outcome;
}

}  // namespace ssdlab
