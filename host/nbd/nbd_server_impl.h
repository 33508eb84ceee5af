// Inside the NBD server (nbd_server.cpp, nbd_connection.cpp): one Connection per client and
// the server's shared state. Everything here runs on the one Asio thread.
#pragma once

#include <boost/asio.hpp>
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
  Connection(Server::Impl& server, Socket socket, std::uint64_t id);

  void start();
  void reply(const IoPtr& io);
  void stop_intake();
  void close_when_idle();
  void close();
  // The server has room again: a request waiting for in-flight bytes is retried.
  void retry_admission() { admit_or_wait(); }
  bool waits_for_server() const { return m_wait == Wait::kServer; }
  bool closed() const { return m_closed; }

 private:
  enum class Wait { kNone, kOwn, kServer };  // what a request read but not admitted waits for
  struct Outgoing {
    std::array<std::uint8_t, kReplyBytes> header{};
    IoPtr io;                 // a successful READ: its data follows the header
    std::uint64_t bytes = 0;  // payload bytes held for the request, released once written
  };

  void read_client_flags();
  void read_option_header();
  void on_option();
  void read_request();
  void on_request(const error_code& ec);
  void admit_or_wait();
  void start_io();
  void discard_payload(std::uint32_t left, std::uint32_t error, std::uint64_t handle);
  void dispatch(const IoPtr& io);
  void queue_reply(std::uint32_t error, std::uint64_t handle, IoPtr with_data, std::uint64_t bytes = 0);
  void write_next();
  void release(std::uint64_t bytes);
  void drop_output();
  void resume_reading();
  void cancel_waiting_request();
  bool may_read() const { return m_in_flight + m_out.size() < kMaxOutstanding; }
  void input_ended(bool mid_request);
  void maybe_close();
  void bad_handshake();

  Server::Impl& m_server;
  Socket m_socket;
  boost::asio::steady_timer m_handshake_timer;
  std::uint64_t m_id;
  bool m_transmission = false;
  bool m_no_zeroes = false;
  bool m_input_closed = false;  // EOF, DISC, an error or shutdown: no more requests are read
  bool m_paused = false;        // too many requests outstanding: reading waits
  bool m_closed = false;
  bool m_reading = false;  // a read from the socket is under way
  Wait m_wait = Wait::kNone;
  Request m_request;              // the READ/WRITE read and waiting for in-flight bytes
  std::uint32_t m_in_flight = 0;  // in the backend
  std::uint64_t m_bytes = 0;      // payload bytes held (Limits::connection_bytes)
  std::array<std::uint8_t, kRequestBytes> m_header{};
  OptionHeader m_option;
  std::vector<std::uint8_t> m_handshake;  // bytes in and out during the handshake
  std::vector<std::uint8_t> m_scratch;
  std::deque<Outgoing> m_out;
  std::vector<boost::asio::const_buffer> m_write_buffers;
  std::size_t m_writing = 0;  // replies in the write under way
};

struct Server::Impl {
  Impl(Export e, Backend& b, Limits l);

  void accept_tcp();
  void accept_unix();
  // An accept() failed for want of descriptors or memory: retry later, not at once (the
  // listening socket stays readable, so an immediate retry spins).
  bool backed_off(const error_code& ec, void (Impl::*retry)());
  void accepted() { accept_failing = false; }
  void adopt(Socket socket);
  void wait_signal();
  void remove(std::uint64_t id);
  std::vector<std::shared_ptr<Connection>> all_connections() const;
  void close_listeners();
  // In-flight bytes of all connections: first come, first served (a request waits while
  // others queued before it), except that a connection holding nothing (`alone`) goes ahead.
  bool reserve(const std::shared_ptr<Connection>& c, std::uint64_t bytes, bool alone);
  void drop_waiter(const Connection* c);
  void wake_waiters();  // after bytes were released
  void forget_waiter(const Connection* c);
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
  bool accept_failing = false;       // an episode of accept() errors is under way (logged once)
  bool at_connection_limit = false;  // logged once per episode
  std::map<std::uint64_t, std::shared_ptr<Connection>> connections;
  std::uint64_t next_id = 0;
  bool stopping = false;   // no new connections or requests
  bool finishing = false;  // closing every connection
  bool busy_poll = false;
  std::uint64_t in_flight = 0;                      // requests handed to the backend, not yet completed
  std::uint64_t held_bytes = 0;                     // payload bytes held by all connections
  std::deque<std::shared_ptr<Connection>> waiters;  // requests waiting for server_bytes
  std::thread thread;
};

}  // namespace ssdlab::nbd
