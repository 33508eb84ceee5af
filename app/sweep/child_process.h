// Child processes of a sweep: `ssdlab run` under a task, tasks under the local engine, the
// Slurm commands. posix_spawn, with the output going to a file or captured.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace ssdlab::sweep {

// How a child ended.
struct ExitStatus {
  int code = -1;   // exit status, or -1 when killed by a signal
  int signal = 0;  // the signal that killed it
  bool ok() const { return code == 0; }
  std::string text() const;  // "exit 2", "killed by signal 15 (Terminated)"
};
ExitStatus decode_wait_status(int status);

// Starts `argv` (argv[0] a path, or a name searched on PATH) with stdout and stderr appended to
// `log_path` ("" keeps the caller's; "/dev/null" drops them). Throws std::runtime_error.
pid_t spawn_process(const std::vector<std::string>& argv, const std::string& log_path);
// Waits for `pid`, through signal interruptions (each calls `on_interrupt` when set).
ExitStatus wait_process(pid_t pid, void (*on_interrupt)(pid_t) = nullptr);

// Runs `argv` to its end and returns what it wrote on stdout (stderr into `err` when given), at
// most 16 MiB of each. `started` false: it could not be started (not installed).
struct Captured {
  bool started = false;
  ExitStatus status;
  std::string out, err;
};
Captured run_captured(const std::vector<std::string>& argv);

// While one lives, SIGINT and SIGTERM are noted instead of ending the process: received() is
// the first that came (0: none), and a blocking call they interrupt returns EINTR.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  static int received();

 private:
  struct Saved;
  Saved* m_saved;
};

// The running executable (/proc/self/exe), for children that run `ssdlab` itself.
std::string self_executable();
// Whether `name` is an executable file on PATH.
bool on_path(const std::string& name);
// The last `max_bytes` of a file (from a line start when it can), "" when it cannot be read.
std::string file_tail(const std::string& path, std::size_t max_bytes);
// `argv` as a shell would take it back: words quoted where needed.
std::string shell_words(const std::vector<std::string>& argv);

}  // namespace ssdlab::sweep
