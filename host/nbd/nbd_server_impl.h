// Inside the NBD server (nbd_server.cpp, nbd_connection.cpp): one Connection per client and
// the server's shared state. Everything here runs on the one Asio thread.
#pragma once

#include <boost/asio.hpp>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "host/nbd/nbd_server.h"

namespace ssdlab::nbd {

using Socket = boost::asio::generic::stream_protocol::socket;
using boost::system::error_code;

// Requests read and not yet answered, per connection (in the drive or with a reply waiting to
// be written): reading pauses at this many. It bounds the replies a client that never reads
// them can pile up, whatever their kind.
constexpr std::uint32_t kMaxOutstanding = 256;

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using Clock = std::chrono::steady_clock;
  Connection(Server::Impl& server, Socket socket, std::uint64_t id, std::string peer);

  void start();
  void reply(const IoPtr& io);  // a piece completed by the backend
  void stop_intake();
  void close_when_idle();
  void close();
  // The server has room again: a request waiting for in-flight bytes is retried.
  void retry_admission() { admit_or_wait(); }
  bool waits_for_server() const { return m_wait == Wait::kServer; }
  bool closed() const { return m_closed; }
  const std::string& peer() const { return m_peer; }
  // Idle for Limits::idle_timeout at `now`: a session with nothing in the drive and not waiting
  // for the others' memory, whose socket has carried no byte either way for that long.
  bool idle_since(Clock::time_point deadline) const {
    return m_transmission && !m_closed && m_in_flight == 0 && m_wait != Wait::kServer && m_last_progress < deadline;
  }

 private:
  // What the request being admitted waits for: its connection's bound (its replies to drain),
  // the server's shared bytes (other connections), or its connection to hold nothing (a READ
  // to be served in pieces streams its reply, and nothing may come between).
  enum class Wait { kNone, kOwn, kServer, kQuiet };
  struct Outgoing {
    std::array<std::uint8_t, kReplyBytes> header{};
    bool has_header = true;
    IoPtr io;                  // data follows (a successful READ, or a piece of one)
    std::uint64_t bytes = 0;   // payload bytes held for it, released once written
    bool ends_request = true;  // its last byte answers the request
    std::size_t size() const { return (has_header ? kReplyBytes : 0) + (io ? io->data.size() : 0); }
  };

  void read_client_flags();
  void read_option_header();
  void on_option();
  void read_request();
  void on_request(const error_code& ec);
  void admit_or_wait();
  void start_piece(std::uint32_t length);
  void read_payload(const IoPtr& io);
  void admitted_all();
  void discard_payload(std::uint32_t left, std::uint32_t error, std::uint64_t handle);
  void dispatch(const IoPtr& io);
  void read_piece_done(Transfer& t, const IoPtr& io);
  void pump_stream();
  void queue(Outgoing out, bool stream = false);
  void queue_reply(std::uint32_t error, std::uint64_t handle, IoPtr with_data, std::uint64_t bytes = 0);
  void write_next();
  void wrote(std::size_t n);
  void hold(std::uint64_t bytes);
  void release(std::uint64_t bytes);
  void drop_output();
  void resume_reading();
  void cancel_waiting_request();
  bool may_read() const { return m_open_requests < kMaxOutstanding; }
  bool quiet() const { return m_bytes == 0 && !m_stream; }
  void progress() { m_last_progress = Clock::now(); }
  void input_ended(bool mid_request);
  void maybe_close();
  void bad_handshake();

  Server::Impl& m_server;
  Socket m_socket;
  boost::asio::steady_timer m_handshake_timer;
  std::uint64_t m_id;
  std::string m_peer;
  bool m_transmission = false;
  bool m_no_zeroes = false;
  bool m_input_closed = false;  // EOF, DISC, an error or shutdown: no more requests are read
  bool m_paused = false;        // too many requests outstanding: reading waits
  bool m_closed = false;
  bool m_reading = false;  // a read from the socket is under way
  Wait m_wait = Wait::kNone;
  std::shared_ptr<Transfer> m_admitting;  // the READ/WRITE whose pieces are being admitted
  std::shared_ptr<Transfer> m_stream;     // the READ in pieces whose reply is being queued
  std::uint32_t m_in_flight = 0;          // pieces in the backend
  std::uint32_t m_open_requests = 0;      // requests read and not yet answered
  std::uint64_t m_bytes = 0;              // payload bytes held (Limits::connection_bytes)
  Clock::time_point m_last_progress = Clock::now();
  std::array<std::uint8_t, kRequestBytes> m_header{};
  OptionHeader m_option;
  std::vector<std::uint8_t> m_handshake;  // bytes in and out during the handshake
  std::deque<Outgoing> m_out;             // replies to write, in order
  std::deque<Outgoing> m_deferred;        // replies completed while a READ's pieces stream
  std::size_t m_out_offset = 0;           // bytes of m_out.front() already written
  std::vector<boost::asio::const_buffer> m_write_buffers;
  bool m_writing = false;  // a write to the socket is under way
};

struct Server::Impl {
  Impl(Export e, Backend& b, Limits l);

  void accept_tcp();
  void accept_unix();
  // An accept() failed for want of descriptors or memory: retry later, not at once (the
  // listening socket stays readable, so an immediate retry spins).
  bool backed_off(const error_code& ec, void (Impl::*retry)());
  void accepted() { accept_failing = false; }
  void adopt(Socket socket, std::string peer);
  void wait_signal();
  void remove(std::uint64_t id, const std::string& peer);
  std::vector<std::shared_ptr<Connection>> all_connections() const;
  void close_listeners();
  void sweep_idle();  // every quarter of the idle timeout (at most a second)
  // Payload bytes: every connection may hold kPieceBytes of its own; what it holds beyond that
  // comes from the shared pool of Limits::server_bytes, first come first served.
  static std::uint64_t shared_part(std::uint64_t held) { return held > kPieceBytes ? held - kPieceBytes : 0; }
  // What `c` may take from the shared pool now (nothing while others queued before it).
  std::uint64_t shared_room(const Connection* c) const;
  void held_changed(std::uint64_t before, std::uint64_t after);  // a connection's held bytes
  void wait_for_room(const std::shared_ptr<Connection>& c);      // queues `c` (once)
  void drop_waiter(const Connection* c);
  void wake_waiters();  // after shared bytes were released
  void run();

  Export ex;
  Backend& backend;
  Limits limits;
  ServerCounters counters;
  boost::asio::io_context io;
  std::unique_ptr<boost::asio::ip::tcp::acceptor> tcp;
  std::unique_ptr<boost::asio::local::stream_protocol::acceptor> local;
  std::string unix_path;
  std::string endpoint;
  boost::asio::signal_set signals;
  std::function<void(int)> on_signal;
  boost::asio::steady_timer grace;
  boost::asio::steady_timer accept_retry;
  boost::asio::steady_timer idle_timer;
  bool accept_failing = false;       // an episode of accept() errors is under way (logged once)
  bool at_connection_limit = false;  // logged once per episode
  bool at_peer_limit = false;        // logged once per episode
  std::map<std::uint64_t, std::shared_ptr<Connection>> connections;
  std::map<std::string, std::uint32_t> peers;  // open connections per peer
  std::uint64_t next_id = 0;
  bool stopping = false;   // no new connections or requests
  bool finishing = false;  // closing every connection
  bool busy_poll = false;
  std::uint64_t in_flight = 0;                      // pieces handed to the backend, not yet completed
  std::uint64_t held_bytes = 0;                     // payload bytes held by all connections
  std::uint64_t shared_bytes = 0;                   // of which beyond each connection's kPieceBytes
  std::deque<std::shared_ptr<Connection>> waiters;  // requests waiting for shared bytes
  bool waking = false;
  std::vector<std::uint8_t> discard;  // the payload of refused WRITEs is read into this and dropped
  std::thread thread;
};

}  // namespace ssdlab::nbd
