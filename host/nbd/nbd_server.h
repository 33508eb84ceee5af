// The NBD server: Boost.Asio on a thread of its own, any number of connections (TCP or a Unix
// socket), fixed newstyle handshake, simple replies. It knows nothing of drives: every valid
// request becomes an `Io` handed to a Backend (the simulation bridge), which completes it later
// from its own thread; the reply is then written by the Asio thread. Invalid requests are
// answered here with an NBD error and never reach the backend.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/nbd/nbd_protocol.h"

namespace ssdlab::nbd {

enum class IoKind : std::uint8_t { kRead, kWrite, kTrim, kFlush };
const char* to_string(IoKind kind);

class Connection;

// One request on its way through the drive. Created and filled by the Asio thread, handed to
// the backend, touched by the backend only until it calls Server::complete().
struct Io {
  IoKind kind = IoKind::kRead;
  bool fua = false;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
  std::uint64_t handle = 0;
  std::vector<std::uint8_t> data;                   // WRITE payload; READ destination (length bytes)
  std::chrono::steady_clock::time_point arrival;    // when the whole request had been received
  std::uint32_t error = kOk;                        // set by the backend
  std::chrono::steady_clock::time_point completed;  // when the backend completed it
  std::shared_ptr<Connection> connection;           // the server's: who gets the reply
};
using IoPtr = std::shared_ptr<Io>;

struct Backend {
  virtual ~Backend() = default;
  // Called on the Asio thread. The backend must call Server::complete(io) exactly once.
  virtual void submit(IoPtr io) = 0;
};

// What one client, or all of them, may make the server hold. A connection stops reading
// requests (and so its clients' sockets fill up) while a limit is reached; nothing is refused.
struct Limits {
  // READ/WRITE payload bytes held for requests read and not yet answered (the buffers of
  // requests in the drive and of replies not yet written), per connection and in all. A
  // request larger than a bound is served alone: it waits until nothing else is held.
  std::uint64_t connection_bytes = 64u << 20;
  std::uint64_t server_bytes = 256u << 20;
  std::uint32_t max_connections = 64;  // further connections are closed at once
  // A client that has not finished negotiating (NBD_OPT_GO / EXPORT_NAME) by then is dropped.
  std::chrono::milliseconds handshake_timeout{10000};
  // accept() out of file descriptors (EMFILE, ENFILE) or memory: wait this long, try again.
  std::chrono::milliseconds accept_retry{100};
};

struct ServerCounters {
  std::atomic<std::uint64_t> connections{0};  // accepted
  std::atomic<std::uint64_t> open_connections{0};
  std::atomic<std::uint64_t> refused_connections{0};  // closed at once: max_connections reached
  std::atomic<std::uint64_t> handshake_timeouts{0};
  std::atomic<std::uint64_t> accept_backoffs{0};   // accept() out of descriptors: retried later
  std::atomic<std::uint64_t> memory_waits{0};      // a request waited for in-flight bytes to drain
  std::atomic<std::uint64_t> bad_handshakes{0};    // closed during the handshake by the server
  std::atomic<std::uint64_t> rejected{0};          // requests answered with an error before the drive
  std::atomic<std::uint64_t> submitted{0};         // requests handed to the drive
  std::atomic<std::uint64_t> replies{0};           // replies written
  std::atomic<std::uint64_t> lost_mid_request{0};  // clients gone in the middle of a request
  // Reply hand-over: backend completion -> reply written (nanoseconds; sum, max).
  std::atomic<std::uint64_t> handovers{0}, handover_ns_sum{0}, handover_ns_max{0};
};

class Server {
 public:
  Server(Export ex, Backend& backend, Limits limits = {});
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens; throws std::runtime_error naming the address on failure.
  // "HOST:PORT" (PORT 0 = any free port) or a Unix socket path.
  void listen_tcp(const std::string& host_port);
  void listen_unix(const std::string& path);
  // Where clients connect: "127.0.0.1:10809" or "unix:/path".
  std::string endpoint() const;
  // SIGINT, SIGTERM and SIGUSR1 are delivered to `handler` on the Asio thread.
  void handle_signals(std::function<void(int)> handler);

  // Busy-poll instead of sleeping in epoll while requests are in the drive (and briefly after):
  // on a virtual machine an idle core wakes in tens of microseconds, a polling one at once. The
  // poll yields the core to any other ready thread. Meant for realtime pacing; call before start().
  void set_busy_poll(bool on);
  // Starts the Asio thread (accepting, handshakes, requests).
  void start();
  // Any thread: the backend is done with `io` (its error set); the reply goes out.
  void complete(IoPtr io);
  // Asio thread only (a signal handler): no new connections, no new requests; requests
  // already handed to the backend still get their replies.
  void stop_intake();
  // Any thread except the Asio thread: writes the replies still queued, closes every
  // connection and joins the Asio thread.
  void shutdown();

  const Export& exported() const;
  const ServerCounters& counters() const;
  const Limits& limits() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> m_impl;
};

}  // namespace ssdlab::nbd
