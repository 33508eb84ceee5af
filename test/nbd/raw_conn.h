// What the raw NBD test clients share: a blocking socket with timeouts, the handshake, requests
// and replies encoded with host/nbd/nbd_protocol.h, and ok/FAIL lines.
#pragma once

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "host/nbd/nbd_protocol.h"

namespace ssdlab::nbd::raw {

inline std::string g_host, g_port;
inline int g_passed = 0, g_failed = 0;

inline void check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  std::fflush(stdout);
  ++(ok ? g_passed : g_failed);
}

class Conn {
 public:
  // `source`: the local IPv4 address to connect from (any loopback address, 127.0.0.2 ...:
  // another peer for the server); empty: the system's choice.
  explicit Conn(const std::string& source = "") {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (getaddrinfo(g_host.c_str(), g_port.c_str(), &hints, &res) != 0) return;
    m_fd = ::socket(res->ai_family, res->ai_socktype, res->ai_protocol);
    bool ok = m_fd >= 0;
    if (ok && !source.empty()) {
      sockaddr_in local{};
      local.sin_family = AF_INET;
      ok = ::inet_pton(AF_INET, source.c_str(), &local.sin_addr) == 1 &&
           ::bind(m_fd, reinterpret_cast<const sockaddr*>(&local), sizeof local) == 0;
    }
    if (m_fd >= 0 && (!ok || ::connect(m_fd, res->ai_addr, res->ai_addrlen) != 0)) {
      ::close(m_fd);
      m_fd = -1;
    }
    freeaddrinfo(res);
  }
  ~Conn() { close(); }
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;
  void close() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }
  bool ok() const { return m_fd >= 0; }
  int fd() const { return m_fd; }

  bool send(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    while (n > 0) {
      const ssize_t k = ::send(m_fd, b, n, MSG_NOSIGNAL);
      if (k <= 0) return false;
      b += k;
      n -= std::size_t(k);
    }
    return true;
  }
  bool send(const std::vector<std::uint8_t>& v) { return send(v.data(), v.size()); }
  // Exactly n bytes within the timeout.
  bool recv(void* p, std::size_t n, int timeout_ms = 10000) {
    auto* b = static_cast<std::uint8_t*>(p);
    while (n > 0) {
      pollfd pfd{m_fd, POLLIN, 0};
      if (::poll(&pfd, 1, timeout_ms) <= 0) return false;
      const ssize_t k = ::recv(m_fd, b, n, 0);
      if (k <= 0) return false;
      b += k;
      n -= std::size_t(k);
    }
    return true;
  }
  // True when the server closes the connection (EOF or reset) within the timeout.
  bool closed_by_server(int timeout_ms = 5000) {
    std::uint8_t b[256];
    for (;;) {
      pollfd pfd{m_fd, POLLIN, 0};
      if (::poll(&pfd, 1, timeout_ms) <= 0) return false;
      const ssize_t k = ::recv(m_fd, b, sizeof b, 0);
      if (k <= 0) return true;  // anything before the close is ignored
    }
  }

 private:
  int m_fd = -1;
};

inline std::vector<std::uint8_t> option(std::uint32_t opt, const std::vector<std::uint8_t>& data) {
  std::vector<std::uint8_t> v(16 + data.size());
  put64(&v[0], kOptMagic);
  put32(&v[8], opt);
  put32(&v[12], static_cast<std::uint32_t>(data.size()));
  std::copy(data.begin(), data.end(), v.begin() + 16);
  return v;
}

inline std::vector<std::uint8_t> go_data(const std::string& name) {
  std::vector<std::uint8_t> d(4 + name.size() + 2);
  put32(&d[0], static_cast<std::uint32_t>(name.size()));
  if (!name.empty())
    std::memcpy(&d[4], name.data(), name.size());  // (std::copy of an empty name: a GCC 12 false warning)
  put16(&d[4 + name.size()], 0);
  return d;
}

inline bool greet(Conn& c, std::uint32_t client_flags) {
  std::uint8_t g[kGreetingBytes];
  if (!c.recv(g, sizeof g) || get64(g) != kNbdMagic || get64(g + 8) != kOptMagic) return false;
  std::uint8_t f[4];
  put32(f, client_flags);
  return c.send(f, 4);
}

// Reads option replies up to the final one; returns the final reply type.
inline std::uint32_t option_replies(Conn& c, std::uint32_t opt, std::uint64_t* size = nullptr,
                                    std::uint16_t* flags = nullptr) {
  for (;;) {
    std::uint8_t h[20];
    if (!c.recv(h, sizeof h) || get64(h) != kOptReplyMagic || get32(h + 8) != opt) return 0;
    std::vector<std::uint8_t> data(get32(h + 16));
    if (!data.empty() && !c.recv(data.data(), data.size())) return 0;
    const std::uint32_t type = get32(h + 12);
    if (type != kRepInfo) return type;
    if (data.size() == 12 && get16(data.data()) == kInfoExport) {
      if (size) *size = get64(&data[2]);
      if (flags) *flags = get16(&data[10]);
    }
  }
}

struct Session {
  explicit Session(const std::string& source = "") : c(source) {}
  Conn c;
  std::uint64_t size = 0;
  std::uint16_t flags = 0;
  bool ok = false;
};

// Fixed newstyle, NBD_OPT_GO on the default export.
inline void open_session(Session& s) {
  s.ok = s.c.ok() && greet(s.c, kClientFixedNewstyle | kClientNoZeroes) && s.c.send(option(kOptGo, go_data(""))) &&
         option_replies(s.c, kOptGo, &s.size, &s.flags) == kRepAck;
}

inline bool send_request(Conn& c, std::uint16_t type, std::uint16_t flags, std::uint64_t handle, std::uint64_t offset,
                         std::uint32_t length, const std::uint8_t* payload = nullptr) {
  Request r;
  r.type = type;
  r.flags = flags;
  r.handle = handle;
  r.offset = offset;
  r.length = length;
  std::uint8_t b[kRequestBytes];
  encode_request(b, r);
  if (!c.send(b, sizeof b)) return false;
  return !payload || c.send(payload, length);
}

// Reads one simple reply (and `data_len` bytes of data when it is a successful read).
inline bool recv_reply(Conn& c, std::uint32_t& error, std::uint64_t& handle, int timeout_ms = 10000) {
  std::uint8_t b[kReplyBytes];
  if (!c.recv(b, sizeof b, timeout_ms) || get32(b) != kSimpleReplyMagic) return false;
  error = get32(b + 4);
  handle = get64(b + 8);
  return true;
}

inline std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + i * 7 + (i >> 9));
  return v;
}

inline bool write_at(Conn& c, std::uint64_t offset, const std::vector<std::uint8_t>& data, std::uint16_t flags = 0) {
  std::uint32_t error;
  std::uint64_t handle;
  return send_request(c, kCmdWrite, flags, 77, offset, std::uint32_t(data.size()), data.data()) &&
         recv_reply(c, error, handle) && error == kOk && handle == 77;
}

inline bool read_equals(Conn& c, std::uint64_t offset, const std::vector<std::uint8_t>& expect) {
  std::uint32_t error;
  std::uint64_t handle;
  std::vector<std::uint8_t> got(expect.size());
  return send_request(c, kCmdRead, 0, 78, offset, std::uint32_t(expect.size())) && recv_reply(c, error, handle) &&
         error == kOk && handle == 78 && c.recv(got.data(), got.size()) && got == expect;
}

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A field of /proc/PID/status in MiB ("VmRSS", "VmHWM"); -1 when unreadable.
inline double status_mib(const std::string& pid, const std::string& key) {
  std::ifstream in("/proc/" + pid + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size() + 1, key + ":") == 0) return std::atof(line.c_str() + key.size() + 1) / 1024.0;
  }
  return -1;
}

inline bool greeted_within(Conn& c, int timeout_ms) {
  pollfd pfd{c.fd(), POLLIN, 0};
  return ::poll(&pfd, 1, timeout_ms) > 0;
}

// A correct client (from `source`, when given): greeting, NBD_OPT_GO, a write and its read-back.
inline bool correct_client(int wait_ms, std::uint64_t offset, const std::string& source = "") {
  Session s(source);
  if (!s.c.ok() || !greeted_within(s.c, wait_ms)) return false;
  open_session(s);
  const auto data = pattern(4096, std::uint8_t(offset >> 12));
  return s.ok && write_at(s.c, offset, data) && read_equals(s.c, offset, data);
}

// The closing line of every mode; the exit status.
inline int report() {
  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}

}  // namespace ssdlab::nbd::raw
