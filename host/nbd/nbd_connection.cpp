// One NBD client connection: handshake, requests, replies, and what it may hold (Limits).
// Runs on the server's Asio thread only.
#include <algorithm>

#include "host/nbd/nbd_server_impl.h"

namespace ssdlab::nbd {

namespace asio = boost::asio;

namespace {
constexpr std::size_t kDiscardChunk = 64 * 1024;  // payload of a refused WRITE is read and dropped
constexpr std::size_t kMaxRepliesPerWrite = 64;

// Payload bytes a request holds while it is outstanding: its READ or WRITE buffer.
std::uint64_t payload_bytes(std::uint16_t type, std::uint32_t length) {
  return type == kCmdRead || type == kCmdWrite ? length : 0;
}
std::uint64_t payload_bytes(const Io& io) {
  return io.kind == IoKind::kRead || io.kind == IoKind::kWrite ? io.length : 0;
}
}  // namespace

Connection::Connection(Server::Impl& server, Socket socket, std::uint64_t id)
    : m_server(server), m_socket(std::move(socket)), m_handshake_timer(server.io), m_id(id) {}

// ---- handshake ---------------------------------------------------------------------------

void Connection::start() {
  auto self = shared_from_this();
  m_handshake_timer.expires_after(m_server.limits.handshake_timeout);
  m_handshake_timer.async_wait([self](const error_code& ec) {
    if (ec || self->m_transmission || self->m_closed) return;
    ++self->m_server.counters.handshake_timeouts;
    self->close();
  });
  const auto g = greeting();
  m_handshake.assign(g.begin(), g.end());
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
        self->m_handshake_timer.cancel();
        self->m_handshake.clear();
        self->m_handshake.shrink_to_fit();
        return self->read_request();
    }
  });
}

// ---- transmission ------------------------------------------------------------------------

void Connection::read_request() {
  if (m_input_closed || m_closed || m_server.stopping || m_reading || m_wait != Wait::kNone) return;
  if (!may_read()) {
    m_paused = true;
    return;
  }
  m_reading = true;
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(m_header),
                   [self](const error_code& ec, std::size_t) { self->on_request(ec); });
}

void Connection::resume_reading() {
  if (m_paused && may_read()) {
    m_paused = false;
    read_request();
  }
}

void Connection::on_request(const error_code& ec) {
  m_reading = false;
  if (ec) return input_ended(false);  // EOF without NBD_CMD_DISC is a normal disconnect
  if (m_server.stopping || m_closed) return;
  Request r;
  if (!decode_request(m_header.data(), r)) return bad_handshake();  // out of step: nothing to trust
  if (r.type == kCmdDisc) return input_ended(false);                // outstanding replies still go out
  const std::uint32_t error = check_request(r, m_server.ex);
  if (error != kOk) {
    ++m_server.counters.rejected;
    if (has_payload(r)) return discard_payload(r.length, error, r.handle);
    queue_reply(error, r.handle, nullptr);
    return read_request();
  }
  m_request = r;
  admit_or_wait();
}

// The request in m_request goes ahead once its payload fits this connection's bound and the
// server's; until then nothing more is read from this client. A connection holding nothing
// goes ahead whatever its request's size and whatever the others hold: no client can stall
// another by leaving its replies unread, and the server's total exceeds its bound by at most
// one request per connection.
void Connection::admit_or_wait() {
  if (m_closed) return;
  const std::uint64_t bytes = payload_bytes(m_request.type, m_request.length);
  const bool alone = m_bytes == 0;
  const bool fits_here = bytes == 0 || alone || m_bytes + bytes <= m_server.limits.connection_bytes;
  const Wait wait = !fits_here                                                         ? Wait::kOwn
                    : bytes > 0 && !m_server.reserve(shared_from_this(), bytes, alone) ? Wait::kServer
                                                                                       : Wait::kNone;
  if (wait != Wait::kNone) {
    if (m_wait == Wait::kNone) ++m_server.counters.memory_waits;
    m_wait = wait;
    return;
  }
  m_wait = Wait::kNone;
  m_bytes += bytes;
  start_io();
}

void Connection::start_io() {
  const Request& r = m_request;
  auto io = std::make_shared<Io>();
  io->kind = r.type == kCmdRead    ? IoKind::kRead
             : r.type == kCmdWrite ? IoKind::kWrite
             : r.type == kCmdTrim  ? IoKind::kTrim
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
  m_reading = true;
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(io->data), [self, io](const error_code& ec2, std::size_t) {
    self->m_reading = false;
    if (ec2 || self->m_server.stopping || self->m_closed) {
      io->connection.reset();
      self->release(payload_bytes(*io));
      if (ec2) self->input_ended(true);  // the write was never acknowledged: dropped
      return;
    }
    self->dispatch(io);
    self->read_request();
  });
}

void Connection::discard_payload(std::uint32_t left, std::uint32_t error, std::uint64_t handle) {
  if (m_scratch.empty()) m_scratch.resize(kDiscardChunk);
  const std::size_t chunk = std::min<std::size_t>(left, kDiscardChunk);
  m_reading = true;
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(m_scratch.data(), chunk),
                   [self, left, chunk, error, handle](const error_code& ec, std::size_t) {
                     self->m_reading = false;
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
  if (m_closed) {
    release(payload_bytes(*io));
  } else {
    // The payload stays held until the reply is written: a client that does not read its
    // replies cannot make the server hold more.
    queue_reply(io->error, io->handle, io->kind == IoKind::kRead && io->error == kOk ? io : nullptr,
                payload_bytes(*io));
    resume_reading();
  }
  maybe_close();
}

void Connection::queue_reply(std::uint32_t error, std::uint64_t handle, IoPtr with_data, std::uint64_t bytes) {
  Outgoing out;
  encode_simple_reply(out.header.data(), error, handle);
  out.io = std::move(with_data);
  out.bytes = bytes;
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
      self->drop_output();
      return;
    }
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < done && !self->m_out.empty(); ++i) {
      bytes += self->m_out.front().bytes;
      self->m_out.pop_front();
    }
    self->m_server.counters.replies += done;
    self->release(bytes);
    self->write_next();
    self->resume_reading();
    self->maybe_close();
  });
}

// Payload bytes no longer held: a request waiting here, then those waiting at the server, may go.
void Connection::release(std::uint64_t bytes) {
  if (bytes == 0) return;
  m_bytes -= bytes;
  m_server.held_bytes -= bytes;
  if (m_wait == Wait::kOwn || (m_wait == Wait::kServer && m_bytes == 0)) admit_or_wait();
  m_server.wake_waiters();
}

void Connection::drop_output() {
  std::uint64_t bytes = 0;
  for (const Outgoing& o : m_out) bytes += o.bytes;
  m_out.clear();
  release(bytes);
}

// A request read but not admitted when the server stops: answered ESHUTDOWN (a WRITE's payload
// is not read: the connection closes after the reply).
void Connection::cancel_waiting_request() {
  if (m_wait == Wait::kNone) return;
  if (m_wait == Wait::kServer) m_server.forget_waiter(this);
  m_wait = Wait::kNone;
  if (!m_closed) queue_reply(kEshutdown, m_request.handle, nullptr);
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
  cancel_waiting_request();
  if (!m_transmission) return close();
  maybe_close();
}

void Connection::close_when_idle() {
  m_input_closed = true;
  cancel_waiting_request();
  maybe_close();
}

void Connection::close() {
  if (m_closed) return;
  m_closed = true;
  if (m_wait == Wait::kServer) m_server.forget_waiter(this);
  m_wait = Wait::kNone;
  m_handshake_timer.cancel();
  error_code ec;
  m_socket.shutdown(asio::socket_base::shutdown_both, ec);
  m_socket.close(ec);
  if (!m_writing) drop_output();  // else the buffers stay valid until the write's handler runs
  --m_server.counters.open_connections;
  auto self = shared_from_this();  // survive our removal from the server's table
  m_server.remove(m_id);
}

}  // namespace ssdlab::nbd
