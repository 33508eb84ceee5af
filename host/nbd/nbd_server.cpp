// NBD server on Boost.Asio. Everything below runs on the one Asio thread, except
// Server::complete() (posts to it) and Server::shutdown() (posts, then joins).
#include "host/nbd/nbd_server.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <csignal>
#include <cstdio>
#include <deque>
#include <map>
#include <stdexcept>
#include <thread>

namespace ssdlab::nbd {

namespace asio = boost::asio;
using Socket = asio::generic::stream_protocol::socket;
using boost::system::error_code;

namespace {
constexpr std::uint32_t kMaxInFlight = 256;       // per connection; reading pauses above it
constexpr std::size_t kDiscardChunk = 64 * 1024;  // payload of a refused WRITE is read and dropped
constexpr std::size_t kMaxRepliesPerWrite = 64;
constexpr auto kShutdownGrace = std::chrono::seconds(10);  // then connections are cut
// Busy polling: keep polling this long after the last event (a client's next request follows
// its reply closely).
constexpr auto kPollLinger = std::chrono::microseconds(300);
}  // namespace

const char* to_string(IoKind kind) {
  switch (kind) {
    case IoKind::kRead: return "read";
    case IoKind::kWrite: return "write";
    case IoKind::kTrim: return "trim";
    case IoKind::kFlush: return "flush";
  }
  return "?";
}

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(Server::Impl& server, Socket socket, std::uint64_t id)
      : m_server(server), m_socket(std::move(socket)), m_id(id) {}

  void start();
  void reply(const IoPtr& io);
  void stop_intake();
  void close_when_idle();
  void close();

 private:
  struct Outgoing {
    std::array<std::uint8_t, kReplyBytes> header{};
    IoPtr io;  // a successful READ: its data follows the header
  };

  void read_client_flags();
  void read_option_header();
  void on_option();
  void read_request();
  void on_request(const error_code& ec);
  void discard_payload(std::uint32_t left, std::uint32_t error, std::uint64_t handle);
  void dispatch(const IoPtr& io);
  void queue_reply(std::uint32_t error, std::uint64_t handle, IoPtr with_data);
  void write_next();
  void input_ended(bool mid_request);
  void maybe_close();
  void bad_handshake();

  Server::Impl& m_server;
  Socket m_socket;
  std::uint64_t m_id;
  bool m_transmission = false;
  bool m_no_zeroes = false;
  bool m_input_closed = false;  // EOF, DISC, an error or shutdown: no more requests are read
  bool m_paused = false;        // too many requests in flight: reading waits
  bool m_closed = false;
  std::uint32_t m_in_flight = 0;
  std::array<std::uint8_t, kRequestBytes> m_header{};
  OptionHeader m_option;
  std::vector<std::uint8_t> m_handshake;  // bytes in and out during the handshake
  std::vector<std::uint8_t> m_scratch;
  std::deque<Outgoing> m_out;
  std::vector<asio::const_buffer> m_write_buffers;
  std::size_t m_writing = 0;  // replies in the write under way
};

struct Server::Impl {
  Impl(Export e, Backend& b) : ex(std::move(e)), backend(b), signals(io), grace(io) {}

  void accept_tcp();
  void accept_unix();
  void adopt(Socket socket);
  void wait_signal();
  void remove(std::uint64_t id) {
    connections.erase(id);
    if (finishing && connections.empty()) grace.cancel();
  }
  std::vector<std::shared_ptr<Connection>> all_connections() const {
    std::vector<std::shared_ptr<Connection>> v;
    for (const auto& [id, c] : connections) v.push_back(c);
    return v;
  }
  void close_listeners() {
    error_code ec;
    if (tcp) tcp->close(ec);
    if (local) {
      local->close(ec);
      ::unlink(unix_path.c_str());
    }
  }

  Export ex;
  Backend& backend;
  ServerCounters counters;
  asio::io_context io;
  std::unique_ptr<asio::ip::tcp::acceptor> tcp;
  std::unique_ptr<asio::local::stream_protocol::acceptor> local;
  std::string unix_path;
  std::string endpoint;
  asio::signal_set signals;
  std::function<void(int)> on_signal;
  asio::steady_timer grace;
  std::map<std::uint64_t, std::shared_ptr<Connection>> connections;
  std::uint64_t next_id = 0;
  bool stopping = false;   // no new connections or requests
  bool finishing = false;  // closing every connection
  bool busy_poll = false;
  std::uint64_t in_flight = 0;  // requests handed to the backend, not yet completed
  std::thread thread;

  void run();
};

// ---- handshake ---------------------------------------------------------------------------

void Connection::start() {
  const auto g = greeting();
  m_handshake.assign(g.begin(), g.end());
  auto self = shared_from_this();
  asio::async_write(m_socket, asio::buffer(m_handshake), [self](const error_code& ec, std::size_t) {
    if (ec) return self->close();
    self->read_client_flags();
  });
}

void Connection::bad_handshake() {
  ++m_server.counters.bad_handshakes;
  close();
}

void Connection::read_client_flags() {
  m_handshake.assign(kClientFlagsBytes, 0);
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(m_handshake), [self](const error_code& ec, std::size_t) {
    if (ec || self->m_server.stopping) return self->close();
    const ClientFlags flags = parse_client_flags(get32(self->m_handshake.data()));
    if (!flags.accepted) return self->bad_handshake();
    self->m_no_zeroes = flags.no_zeroes;
    self->read_option_header();
  });
}

void Connection::read_option_header() {
  m_handshake.assign(kOptionHeaderBytes, 0);
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(m_handshake), [self](const error_code& ec, std::size_t) {
    if (ec || self->m_server.stopping) return self->close();
    if (!decode_option_header(self->m_handshake.data(), self->m_option)) return self->bad_handshake();
    if (self->m_option.length > kMaxOptionBytes) return self->bad_handshake();
    self->m_handshake.assign(self->m_option.length, 0);
    if (self->m_option.length == 0) return self->on_option();
    asio::async_read(self->m_socket, asio::buffer(self->m_handshake), [self](const error_code& ec2, std::size_t) {
      if (ec2 || self->m_server.stopping) return self->close();
      self->on_option();
    });
  });
}

void Connection::on_option() {
  OptionOutcome outcome = handle_option(m_option, m_handshake, m_server.ex, m_no_zeroes);
  if (outcome.reply.empty() && outcome.next == Next::kClose) return close();  // unknown export
  m_handshake = std::move(outcome.reply);
  const Next next = outcome.next;
  auto self = shared_from_this();
  asio::async_write(m_socket, asio::buffer(m_handshake), [self, next](const error_code& ec, std::size_t) {
    if (ec) return self->close();
    switch (next) {
      case Next::kContinue:
        return self->read_option_header();
      case Next::kClose:
        return self->close();
      case Next::kTransmission:
        self->m_transmission = true;
        self->m_handshake.clear();
        self->m_handshake.shrink_to_fit();
        return self->read_request();
    }
  });
}

// ---- transmission ------------------------------------------------------------------------

void Connection::read_request() {
  if (m_input_closed || m_closed || m_server.stopping) return;
  if (m_in_flight >= kMaxInFlight) {
    m_paused = true;
    return;
  }
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(m_header),
                   [self](const error_code& ec, std::size_t) { self->on_request(ec); });
}

void Connection::on_request(const error_code& ec) {
  if (ec) return input_ended(false);  // EOF without NBD_CMD_DISC is a normal disconnect
  if (m_server.stopping || m_closed) return;
  Request r;
  if (!decode_request(m_header.data(), r)) return bad_handshake();  // out of step: nothing to trust
  if (r.type == kCmdDisc) return input_ended(false);  // outstanding replies still go out
  const std::uint32_t error = check_request(r, m_server.ex);
  if (error != kOk) {
    ++m_server.counters.rejected;
    if (has_payload(r)) return discard_payload(r.length, error, r.handle);
    queue_reply(error, r.handle, nullptr);
    return read_request();
  }
  auto io = std::make_shared<Io>();
  io->kind = r.type == kCmdRead ? IoKind::kRead
             : r.type == kCmdWrite ? IoKind::kWrite
             : r.type == kCmdTrim ? IoKind::kTrim
                                  : IoKind::kFlush;
  io->fua = r.flags & kCmdFlagFua;
  io->offset = r.offset;
  io->length = r.length;
  io->handle = r.handle;
  io->connection = shared_from_this();
  if (io->kind == IoKind::kRead) io->data.resize(r.length);
  if (io->kind != IoKind::kWrite) {
    dispatch(io);
    return read_request();
  }
  io->data.resize(r.length);
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(io->data), [self, io](const error_code& ec2, std::size_t) {
    if (ec2) return self->input_ended(true);  // the write was never acknowledged: dropped
    if (self->m_server.stopping || self->m_closed) return;
    self->dispatch(io);
    self->read_request();
  });
}

void Connection::discard_payload(std::uint32_t left, std::uint32_t error, std::uint64_t handle) {
  if (m_scratch.empty()) m_scratch.resize(kDiscardChunk);
  const std::size_t chunk = std::min<std::size_t>(left, kDiscardChunk);
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(m_scratch.data(), chunk),
                   [self, left, chunk, error, handle](const error_code& ec, std::size_t) {
                     if (ec) return self->input_ended(true);
                     if (self->m_server.stopping || self->m_closed) return;
                     if (left > chunk) return self->discard_payload(std::uint32_t(left - chunk), error, handle);
                     self->queue_reply(error, handle, nullptr);
                     self->read_request();
                   });
}

void Connection::dispatch(const IoPtr& io) {
  io->arrival = std::chrono::steady_clock::now();
  ++m_in_flight;
  ++m_server.in_flight;
  ++m_server.counters.submitted;
  m_server.backend.submit(io);
}

void Connection::reply(const IoPtr& io) {
  --m_in_flight;
  --m_server.in_flight;
  const auto handover = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - io->completed).count());
  ++m_server.counters.handovers;
  m_server.counters.handover_ns_sum += handover;
  if (handover > m_server.counters.handover_ns_max.load(std::memory_order_relaxed)) {
    m_server.counters.handover_ns_max = handover;
  }
  io->connection.reset();
  if (!m_closed) {
    queue_reply(io->error, io->handle, io->kind == IoKind::kRead && io->error == kOk ? io : nullptr);
    if (m_paused && m_in_flight < kMaxInFlight) {
      m_paused = false;
      read_request();
    }
  }
  maybe_close();
}

void Connection::queue_reply(std::uint32_t error, std::uint64_t handle, IoPtr with_data) {
  Outgoing out;
  encode_simple_reply(out.header.data(), error, handle);
  out.io = std::move(with_data);
  m_out.push_back(std::move(out));
  write_next();
}

void Connection::write_next() {
  if (m_writing || m_out.empty() || m_closed) return;
  m_write_buffers.clear();
  const std::size_t n = std::min(m_out.size(), kMaxRepliesPerWrite);
  for (std::size_t i = 0; i < n; ++i) {
    m_write_buffers.push_back(asio::buffer(m_out[i].header));
    if (m_out[i].io) m_write_buffers.push_back(asio::buffer(m_out[i].io->data));
  }
  m_writing = n;
  auto self = shared_from_this();
  asio::async_write(m_socket, m_write_buffers, [self](const error_code& ec, std::size_t) {
    const std::size_t done = self->m_writing;
    self->m_writing = 0;
    if (ec) {  // the client is gone: nothing more can reach it
      self->close();
      self->m_out.clear();
      return;
    }
    for (std::size_t i = 0; i < done && !self->m_out.empty(); ++i) self->m_out.pop_front();
    self->m_server.counters.replies += done;
    self->write_next();
    self->maybe_close();
  });
}

void Connection::input_ended(bool mid_request) {
  if (mid_request) ++m_server.counters.lost_mid_request;
  m_input_closed = true;
  if (!m_transmission) return close();
  maybe_close();
}

void Connection::maybe_close() {
  if (m_input_closed && m_in_flight == 0 && m_out.empty() && !m_writing) close();
}

void Connection::stop_intake() {
  m_input_closed = true;
  if (!m_transmission) return close();
  maybe_close();
}

void Connection::close_when_idle() {
  m_input_closed = true;
  maybe_close();
}

void Connection::close() {
  if (m_closed) return;
  m_closed = true;
  error_code ec;
  m_socket.shutdown(asio::socket_base::shutdown_both, ec);
  m_socket.close(ec);
  if (!m_writing) m_out.clear();  // else the buffers stay valid until the write's handler runs
  --m_server.counters.open_connections;
  auto self = shared_from_this();  // survive our removal from the server's table
  m_server.remove(m_id);
}

// ---- server ------------------------------------------------------------------------------

void Server::Impl::adopt(Socket socket) {
  ++counters.connections;
  ++counters.open_connections;
  const std::uint64_t id = next_id++;
  auto c = std::make_shared<Connection>(*this, std::move(socket), id);
  connections.emplace(id, c);
  c->start();
}

void Server::Impl::accept_tcp() {
  tcp->async_accept([this](const error_code& ec, asio::ip::tcp::socket socket) {
    if (ec == asio::error::operation_aborted || stopping) return;
    if (!ec) {
      error_code ignored;
      socket.set_option(asio::ip::tcp::no_delay(true), ignored);
      adopt(Socket(std::move(socket)));
    }
    accept_tcp();
  });
}

void Server::Impl::accept_unix() {
  local->async_accept([this](const error_code& ec, asio::local::stream_protocol::socket socket) {
    if (ec == asio::error::operation_aborted || stopping) return;
    if (!ec) adopt(Socket(std::move(socket)));
    accept_unix();
  });
}

void Server::Impl::wait_signal() {
  signals.async_wait([this](const error_code& ec, int signo) {
    if (ec) return;
    if (on_signal) on_signal(signo);
    wait_signal();
  });
}

Server::Server(Export ex, Backend& backend) : m_impl(std::make_unique<Impl>(std::move(ex), backend)) {}

Server::~Server() {
  if (m_impl->thread.joinable()) shutdown();
}

void Server::listen_tcp(const std::string& host_port) {
  const auto colon = host_port.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("--listen wants HOST:PORT, got '" + host_port + "'");
  std::string host = host_port.substr(0, colon);
  const std::string port = host_port.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  try {
    asio::ip::tcp::resolver resolver(m_impl->io);
    const auto results = resolver.resolve(host, port, asio::ip::tcp::resolver::numeric_service);
    const asio::ip::tcp::endpoint ep = *results.begin();
    auto acceptor = std::make_unique<asio::ip::tcp::acceptor>(m_impl->io, ep.protocol());
    acceptor->set_option(asio::socket_base::reuse_address(true));
    acceptor->bind(ep);
    acceptor->listen();
    const auto bound = acceptor->local_endpoint();
    const std::string addr = bound.address().to_string();
    m_impl->endpoint = (bound.address().is_v6() ? "[" + addr + "]" : addr) + ":" + std::to_string(bound.port());
    m_impl->tcp = std::move(acceptor);
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + host_port + ": " + e.code().message());
  }
}

void Server::listen_unix(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) throw std::runtime_error("cannot listen on " + path + ": exists and is not a socket");
    ::unlink(path.c_str());  // a stale socket of an earlier server
  }
  try {
    auto acceptor = std::make_unique<asio::local::stream_protocol::acceptor>(m_impl->io);
    const asio::local::stream_protocol::endpoint ep(path);
    acceptor->open(ep.protocol());
    acceptor->bind(ep);
    acceptor->listen();
    m_impl->local = std::move(acceptor);
    m_impl->unix_path = path;
    m_impl->endpoint = "unix:" + path;
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot listen on " + path + ": " + e.code().message());
  }
}

std::string Server::endpoint() const { return m_impl->endpoint; }
const Export& Server::exported() const { return m_impl->ex; }
const ServerCounters& Server::counters() const { return m_impl->counters; }

void Server::handle_signals(std::function<void(int)> handler) {
  m_impl->on_signal = std::move(handler);
  m_impl->signals.add(SIGINT);
  m_impl->signals.add(SIGTERM);
  m_impl->signals.add(SIGUSR1);
}

void Server::Impl::run() {
  ::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // wake on time, not 50 us late
  using Clock = std::chrono::steady_clock;
  for (;;) {
    try {
      if (!busy_poll) {
        io.run();
        return;
      }
      // Poll while requests are in the drive and a little after; yield rather than pause, so a
      // client thread woken on this core runs at once.
      Clock::time_point last_event = Clock::now();
      while (!io.stopped()) {
        if (io.poll() > 0) {
          last_event = Clock::now();
        } else if (in_flight > 0 || Clock::now() - last_event < kPollLinger) {
          std::this_thread::yield();
        } else {
          io.run_one();  // sleep until something happens
          last_event = Clock::now();
        }
      }
      return;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ssdlab serve: NBD server: %s\n", e.what());
    }
  }
}

void Server::set_busy_poll(bool on) { m_impl->busy_poll = on; }

void Server::start() {
  std::signal(SIGPIPE, SIG_IGN);  // a client gone mid-reply is an error code, not a death
  Impl* impl = m_impl.get();
  if (impl->tcp) impl->accept_tcp();
  if (impl->local) impl->accept_unix();
  if (impl->on_signal) impl->wait_signal();
  impl->thread = std::thread([impl] { impl->run(); });
}

void Server::complete(IoPtr io) {
  io->completed = std::chrono::steady_clock::now();
  asio::post(m_impl->io, [io = std::move(io)] {
    const std::shared_ptr<Connection> c = io->connection;
    c->reply(io);
  });
}

void Server::stop_intake() {
  Impl& impl = *m_impl;
  if (impl.stopping) return;
  impl.stopping = true;
  impl.close_listeners();
  for (const auto& c : impl.all_connections()) c->stop_intake();
}

void Server::shutdown() {
  if (!m_impl->thread.joinable()) return;
  Impl* impl = m_impl.get();
  asio::post(impl->io, [impl] {
    impl->stopping = true;
    impl->finishing = true;
    impl->close_listeners();
    error_code ec;
    impl->signals.cancel(ec);
    for (const auto& c : impl->all_connections()) c->close_when_idle();
    if (impl->connections.empty()) return;
    // A client that stopped reading would hold its connection open for ever.
    impl->grace.expires_after(kShutdownGrace);
    impl->grace.async_wait([impl](const error_code& e) {
      if (e) return;
      for (const auto& c : impl->all_connections()) c->close();
    });
  });
  impl->thread.join();
}

}  // namespace ssdlab::nbd
