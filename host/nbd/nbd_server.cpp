// NBD server on Boost.Asio: listening, accepting, signals, the Asio thread. Everything below
// runs on the one Asio thread, except Server::complete() (posts to it) and Server::shutdown()
// (posts, then joins). The connections are in nbd_connection.cpp.
#include "host/nbd/nbd_server.h"

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <stdexcept>

#include "host/nbd/nbd_server_impl.h"

namespace ssdlab::nbd {

namespace asio = boost::asio;

namespace {
constexpr auto kShutdownGrace = std::chrono::seconds(10);  // then connections are cut
constexpr std::size_t kDiscardChunk = 64 * 1024;           // payload of a refused WRITE is read and dropped
// Busy polling: keep polling this long after the last event (a client's next request follows
// its reply closely).
constexpr auto kPollLinger = std::chrono::microseconds(300);
}  // namespace

const char* to_string(IoKind kind) {
  switch (kind) {
    case IoKind::kRead:
      return "read";
    case IoKind::kWrite:
      return "write";
    case IoKind::kTrim:
      return "trim";
    case IoKind::kFlush:
      return "flush";
  }
  return "?";
}

// ---- server ------------------------------------------------------------------------------

Server::Impl::Impl(Export e, Backend& b, Limits l)
    : ex(std::move(e)),
      backend(b),
      limits(l),
      signals(io),
      grace(io),
      accept_retry(io),
      idle_timer(io),
      discard(kDiscardChunk) {}

void Server::Impl::remove(std::uint64_t id, const std::string& peer) {
  connections.erase(id);
  const auto it = peers.find(peer);
  if (it != peers.end() && --it->second == 0) peers.erase(it);
  if (finishing && connections.empty()) grace.cancel();
}

void Server::Impl::sweep_idle() {
  if (limits.idle_timeout.count() == 0) return;
  const auto period = std::clamp<std::chrono::milliseconds>(limits.idle_timeout / 4, std::chrono::milliseconds(10),
                                                            std::chrono::milliseconds(1000));
  idle_timer.expires_after(period);
  idle_timer.async_wait([this](const error_code& ec) {
    if (ec || finishing) return;
    const auto deadline = std::chrono::steady_clock::now() - limits.idle_timeout;
    for (const auto& c : all_connections()) {
      if (!c->idle_since(deadline)) continue;
      ++counters.idle_timeouts;
      c->close();
    }
    sweep_idle();
  });
}

std::vector<std::shared_ptr<Connection>> Server::Impl::all_connections() const {
  std::vector<std::shared_ptr<Connection>> v;
  for (const auto& [id, c] : connections) v.push_back(c);
  return v;
}

void Server::Impl::close_listeners() {
  error_code ec;
  accept_retry.cancel();
  if (tcp) tcp->close(ec);
  if (local) {
    local->close(ec);
    ::unlink(unix_path.c_str());
  }
}

void Server::Impl::adopt(Socket socket, std::string peer) {
  const bool full = connections.size() >= limits.max_connections;
  const auto known = peers.find(peer);
  const bool peer_full = known != peers.end() && known->second >= limits.max_connections_per_peer;
  if (full || peer_full) {
    // NBD has no way to refuse before the handshake: the connection is closed at once.
    ++(full ? counters.refused_connections : counters.peer_refusals);
    bool& logged = full ? at_connection_limit : at_peer_limit;
    if (!logged) {
      if (full) {
        std::fprintf(stderr, "ssdlab serve: %u connections open (--max-connections): new ones are closed\n",
                     limits.max_connections);
      } else {
        std::fprintf(stderr,
                     "ssdlab serve: %u connections open from %s (--max-connections-per-peer): new ones from there "
                     "are closed\n",
                     limits.max_connections_per_peer, peer.c_str());
      }
      logged = true;
    }
    error_code ec;
    socket.shutdown(asio::socket_base::shutdown_both, ec);
    socket.close(ec);
    return;
  }
  at_connection_limit = at_peer_limit = false;
  ++counters.connections;
  ++counters.open_connections;
  ++peers[peer];
  const std::uint64_t id = next_id++;
  auto c = std::make_shared<Connection>(*this, std::move(socket), id, std::move(peer));
  connections.emplace(id, c);
  c->start();
}

bool Server::Impl::backed_off(const error_code& ec, void (Impl::*retry)()) {
  const int e = ec.value();
  if (!ec || ec.category() != boost::system::system_category() ||
      (e != EMFILE && e != ENFILE && e != ENOBUFS && e != ENOMEM)) {
    return false;
  }
  if (!accept_failing) {  // once per episode, not once per retry
    accept_failing = true;
    ++counters.accept_backoffs;
    std::fprintf(stderr, "ssdlab serve: accept: %s; new connections wait (retried every %lld ms)\n",
                 ec.message().c_str(), static_cast<long long>(limits.accept_retry.count()));
  }
  accept_retry.expires_after(limits.accept_retry);
  accept_retry.async_wait([this, retry](const error_code& e2) {
    if (e2 || stopping) return;
    (this->*retry)();
  });
  return true;
}

void Server::Impl::accept_tcp() {
  tcp->async_accept([this](const error_code& ec, asio::ip::tcp::socket socket) {
    if (ec == asio::error::operation_aborted || stopping) return;
    if (backed_off(ec, &Impl::accept_tcp)) return;
    if (!ec) {
      accepted();
      error_code ignored;
      socket.set_option(asio::ip::tcp::no_delay(true), ignored);
      const auto remote = socket.remote_endpoint(ignored);
      adopt(Socket(std::move(socket)), ignored ? std::string("?") : remote.address().to_string());
    }
    accept_tcp();
  });
}

void Server::Impl::accept_unix() {
  local->async_accept([this](const error_code& ec, asio::local::stream_protocol::socket socket) {
    if (ec == asio::error::operation_aborted || stopping) return;
    if (backed_off(ec, &Impl::accept_unix)) return;
    if (!ec) {
      accepted();
      // A Unix socket's peer is the process that connected.
      ucred cred{};
      socklen_t len = sizeof cred;
      const bool known = ::getsockopt(socket.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0;
      adopt(Socket(std::move(socket)), known ? "process " + std::to_string(cred.pid) : std::string("?"));
    }
    accept_unix();
  });
}

std::uint64_t Server::Impl::shared_room(const Connection* c) const {
  if (!waiters.empty() && waiters.front().get() != c) return 0;  // first come, first served
  return shared_bytes < limits.server_bytes ? limits.server_bytes - shared_bytes : 0;
}

void Server::Impl::held_changed(std::uint64_t before, std::uint64_t after) {
  held_bytes = held_bytes - before + after;
  const std::uint64_t was = shared_part(before), now = shared_part(after);
  shared_bytes = shared_bytes - was + now;
  if (held_bytes > counters.peak_held_bytes.load(std::memory_order_relaxed)) counters.peak_held_bytes = held_bytes;
  if (now < was) wake_waiters();
}

void Server::Impl::wait_for_room(const std::shared_ptr<Connection>& c) {
  if (std::find(waiters.begin(), waiters.end(), c) == waiters.end()) waiters.push_back(c);
}

void Server::Impl::wake_waiters() {
  if (waking) return;  // a retry that releases bytes comes back here: the loop below goes on
  waking = true;
  while (!waiters.empty()) {
    const std::shared_ptr<Connection> c = waiters.front();
    if (c->closed() || !c->waits_for_server()) {
      waiters.pop_front();
      continue;
    }
    c->retry_admission();  // leaves the queue once it takes a piece (and may queue again, last)
    if (!waiters.empty() && waiters.front() == c) break;  // the first in the queue still does not fit
  }
  waking = false;
}

void Server::Impl::drop_waiter(const Connection* c) {
  waiters.erase(std::remove_if(waiters.begin(), waiters.end(),
                               [c](const std::shared_ptr<Connection>& w) { return w.get() == c; }),
                waiters.end());
}

void Server::Impl::wait_signal() {
  signals.async_wait([this](const error_code& ec, int signo) {
    if (ec) return;
    if (on_signal) on_signal(signo);
    wait_signal();
  });
}

Server::Server(Export ex, Backend& backend, Limits limits)
    : m_impl(std::make_unique<Impl>(std::move(ex), backend, limits)) {}

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
const Limits& Server::limits() const { return m_impl->limits; }

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
  impl->sweep_idle();
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
    impl->idle_timer.cancel();
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
