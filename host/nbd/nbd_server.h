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
struct Io;
using IoPtr = std::shared_ptr<Io>;

// A connection may always hold one piece of this size beyond the server's bound, and a READ or
// WRITE that does not fit the bounds whole is served in pieces no smaller (but the last).
constexpr std::uint32_t kPieceBytes = 128u << 10;

// One NBD request. Usually served whole; one that does not fit the memory bounds goes to the
// backend in pieces, one Io each, in order (see Limits). The server's fields are the Asio
// thread's; the backend's are its own thread's (each request's pieces reach it in order).
struct Transfer {
  Request request;  // as the client sent it
  // The server's.
  std::uint32_t admitted = 0;   // bytes handed to pieces so far
  std::uint32_t completed = 0;  // bytes of pieces the backend has completed
  std::uint32_t error = kOk;    // the first error of a piece
  std::uint32_t queued = 0;     // READ in pieces: bytes of its reply queued for writing, in order
  bool started = false;         // READ in pieces: its reply header is queued
  bool failed = false;          // READ in pieces: its reply was an error, the rest of its data is dropped
  std::vector<IoPtr> done;      // READ in pieces: completed, waiting for the pieces before them
  // The backend's: when the first piece started (its clock), bytes done, any piece failed.
  std::uint64_t backend_start = 0;
  std::uint32_t backend_done = 0;
  bool backend_started = false;
  bool backend_error = false;
};

// A piece of a request on its way through the drive (the whole request, usually). Created and
// filled by the Asio thread, handed to the backend, touched by the backend only until it calls
// Server::complete().
struct Io {
  IoKind kind = IoKind::kRead;
  bool fua = false;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
  std::uint64_t handle = 0;
  std::uint32_t piece = 0;                          // offset of this piece in its request
  std::vector<std::uint8_t> data;                   // WRITE payload; READ destination (length bytes)
  std::chrono::steady_clock::time_point arrival;    // when the whole piece had been received
  std::uint32_t error = kOk;                        // set by the backend
  std::chrono::steady_clock::time_point completed;  // when the backend completed it
  std::shared_ptr<Transfer> transfer;               // the request it is (a piece of)
  std::shared_ptr<Connection> connection;           // the server's: who gets the reply
};

struct Backend {
  virtual ~Backend() = default;
  // Called on the Asio thread. The backend must call Server::complete(io) exactly once.
  virtual void submit(IoPtr io) = 0;
};

// What one client, or all of them, may make the server hold. A connection stops reading
// requests (and so its clients' sockets fill up) while a limit is reached; nothing is refused.
struct Limits {
  // READ/WRITE payload bytes held: WRITE data as it arrives until the drive has it, READ data
  // from the drive until the reply is written. Per connection at most connection_bytes (at
  // least kPieceBytes). In all at most server_bytes plus kPieceBytes per connection: each may
  // hold one piece beyond the shared bound, so none waits for ever on another that does not
  // read its replies. A request that does not fit whole is served in pieces (a READ once its
  // connection holds nothing, its reply streamed piece by piece).
  std::uint64_t connection_bytes = 64u << 20;
  std::uint64_t server_bytes = 256u << 20;
  std::uint32_t max_connections = 64;  // further connections are closed at once
  // Connections from one peer (TCP: its address; Unix socket: its process): further ones are
  // closed at once, so that one peer cannot take every connection.
  std::uint32_t max_connections_per_peer = 48;
  // A client that has not finished negotiating (NBD_OPT_GO / EXPORT_NAME) by then is dropped.
  std::chrono::milliseconds handshake_timeout{10000};
  // A session with nothing in the drive whose socket has neither sent a byte nor taken one of
  // its replies' bytes for this long is closed (an idle client, or one that stopped reading).
  // Zero: never.
  std::chrono::milliseconds idle_timeout{3600 * 1000};
  // accept() out of file descriptors (EMFILE, ENFILE) or memory: wait this long, try again.
  std::chrono::milliseconds accept_retry{100};
};

struct ServerCounters {
  std::atomic<std::uint64_t> connections{0};  // accepted
  std::atomic<std::uint64_t> open_connections{0};
  std::atomic<std::uint64_t> refused_connections{0};  // closed at once: max_connections reached
  std::atomic<std::uint64_t> peer_refusals{0};        // closed at once: max_connections_per_peer reached
  std::atomic<std::uint64_t> handshake_timeouts{0};
  std::atomic<std::uint64_t> idle_timeouts{0};     // sessions closed after idle_timeout
  std::atomic<std::uint64_t> accept_backoffs{0};   // accept() out of descriptors: retried later
  std::atomic<std::uint64_t> memory_waits{0};      // a request waited for in-flight bytes to drain
  std::atomic<std::uint64_t> pieced_requests{0};   // requests served in more than one piece
  std::atomic<std::uint64_t> broken_replies{0};    // a later piece of a READ failed: connection closed
  std::atomic<std::uint64_t> peak_held_bytes{0};   // the most payload bytes held at once
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
