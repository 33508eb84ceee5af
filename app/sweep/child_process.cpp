#include "app/sweep/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace ssdlab::sweep {
namespace {

constexpr std::size_t kMaxCaptured = 16u << 20;

std::vector<char*> c_argv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const std::string& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

// Reads both pipes until both are closed (a child that fills one while we wait on the other
// would never end).
void drain_pipes(int out_fd, int err_fd, std::string& out, std::string& err) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open = 2;
  char buf[8192];
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        if (sinks[i]->size() < kMaxCaptured) sinks[i]->append(buf, std::size_t(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open;
      }
    }
  }
}

volatile sig_atomic_t g_stop = 0;
extern "C" void sweep_note_stop(int sig) {
  if (g_stop == 0) g_stop = sig;
}

}  // namespace

struct StopSignals::Saved {
  struct sigaction old_int, old_term;
};

StopSignals::StopSignals() : m_saved(new Saved) {
  struct sigaction sa {};
  sa.sa_handler = sweep_note_stop;  // no SA_RESTART: waitpid and sleeps return early
  sigemptyset(&sa.sa_mask);
  g_stop = 0;
  sigaction(SIGINT, &sa, &m_saved->old_int);
  sigaction(SIGTERM, &sa, &m_saved->old_term);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &m_saved->old_int, nullptr);
  sigaction(SIGTERM, &m_saved->old_term, nullptr);
  delete m_saved;
}

int StopSignals::received() { return g_stop; }

std::string ExitStatus::text() const {
  if (code >= 0) return "exit " + std::to_string(code);
  return "killed by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
}

ExitStatus decode_wait_status(int status) {
  ExitStatus s;
  if (WIFEXITED(status)) {
    s.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    s.signal = WTERMSIG(status);
  }
  return s;
}

pid_t spawn_process(const std::vector<std::string>& argv, const std::string& log_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!log_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  std::vector<char*> args = c_argv(argv);
  pid_t pid = 0;
  const int err = argv[0].find('/') == std::string::npos
                      ? posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ)
                      : posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(err));
  return pid;
}

ExitStatus wait_process(pid_t pid, void (*on_interrupt)(pid_t)) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return ExitStatus{};
    if (on_interrupt) on_interrupt(pid);
  }
  return decode_wait_status(status);
}

Captured run_captured(const std::vector<std::string>& argv) {
  Captured c;
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return c;
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return c;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args = c_argv(argv);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  ::close(err[1]);
  if (rc == 0) {
    c.started = true;
    drain_pipes(out[0], err[0], c.out, c.err);
    c.status = wait_process(pid);
  }
  ::close(out[0]);
  ::close(err[0]);
  return c;
}

std::string self_executable() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the running executable (/proc/self/exe): " + ec.message());
  return exe.string();
}

bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t colon = dirs.find(':', start);
    const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return false;
}

std::string file_tail(const std::string& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > std::streamoff(max_bytes) ? size - std::streamoff(max_bytes) : 0;
  in.seekg(start);
  std::string text(static_cast<std::size_t>(size - start), '\0');
  in.read(&text[0], std::streamsize(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (start > 0) {
    const std::size_t nl = text.find('\n');
    if (nl != std::string::npos && nl + 1 < text.size()) text = text.substr(nl + 1);
  }
  return text;
}

std::string shell_words(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-./=:,+%@") == std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

}  // namespace ssdlab::sweep
