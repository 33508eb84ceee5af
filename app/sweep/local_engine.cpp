// `--engine local`: up to -j tasks at once on this machine, each `ssdlab sweep run-point|run-age`
// as a child process (run_task.h). A failed task does not stop the others.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <deque>
#include <iostream>
#include <map>

#include "app/sweep/child_process.h"
#include "app/sweep/engine.h"
#include "app/sweep/run_task.h"

namespace ssdlab::sweep {
namespace {

struct Running {
  TaskRef task;
  std::chrono::steady_clock::time_point start;
};

unsigned default_jobs() {
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? unsigned(n) : 1;
}

}  // namespace

bool run_local(TaskBook& book, const EngineOptions& options) {
  const SweepRecord& r = book.record();
  const Layout& layout = book.layout();
  const unsigned slots = options.jobs ? options.jobs : default_jobs();
  const std::string exe = self_executable();
  const std::string log = (layout.out() / "tasks.log").string();

  // Aging runs first; a point whose aging run is among the tasks waits for it to end.
  std::deque<TaskRef> ready;
  std::map<std::size_t, std::vector<TaskRef>> waiting;  // by aging group
  std::map<std::size_t, bool> aging_here;
  for (const TaskRef& t : book.tasks())
    if (t.kind == TaskKind::kAging) aging_here[t.index] = true, ready.push_back(t);
  for (const TaskRef& t : book.tasks()) {
    if (t.kind != TaskKind::kPoint) continue;
    const std::int64_t g = r.points[t.index].group;
    if (g >= 0 && aging_here.count(std::size_t(g)))
      waiting[std::size_t(g)].push_back(t);
    else
      ready.push_back(t);
  }

  const StopSignals stop;
  bool forwarded = false;
  std::map<pid_t, Running> running;
  while (true) {
    while (StopSignals::received() == 0 && running.size() < slots && !ready.empty()) {
      const TaskRef t = ready.front();
      ready.pop_front();
      book.take_attempt(t);
      const std::vector<std::string> argv{exe, "sweep", t.kind == TaskKind::kPoint ? "run-point" : "run-age",
                                          layout.out().string(), std::to_string(t.index)};
      running[spawn_process(argv, log)] = {t, std::chrono::steady_clock::now()};
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno != EINTR) break;
      if (StopSignals::received() != 0 && !forwarded) {  // the children stop too; what they ran stays pending
        forwarded = true;
        for (const auto& [child, run] : running) ::kill(child, SIGINT);
      }
      continue;
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const Running run = it->second;
    running.erase(it);
    const ExitStatus exit = decode_wait_status(status);
    const std::string& id = task_id(r, run.task);
    const bool done = layout.done(run.task.kind, id);
    if (!done && exit.code == 128 + SIGINT) continue;  // interrupted: neither done nor failed
    if (!done && !layout.failed(run.task.kind, id)) {  // the task runner itself failed
      record_failure(r, layout, run.task,
                     "ssdlab sweep " + task_name(run.task) + ": " + exit.text() + " (see " + log + ")", exit.code,
                     file_tail(log, 2048), {});
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run.start).count();
    std::cout << book.finished_line(run.task, seconds) << std::endl;
    if (!done && book.attempts_left(run.task)) {
      ready.push_back(run.task);
    } else if (run.task.kind == TaskKind::kAging) {
      for (const TaskRef& p : waiting[run.task.index]) ready.push_back(p);
      waiting.erase(run.task.index);
    }
  }
  return StopSignals::received() == 0;
}

}  // namespace ssdlab::sweep
