// One NBD client connection: handshake, requests, and what it may hold (Limits): admission of
// a request whole or in pieces, WRITE payloads. Its replies are in nbd_replies.cpp. Runs on the
// server's Asio thread only.
#include <algorithm>

#include "host/nbd/nbd_server_impl.h"

namespace ssdlab::nbd {

namespace asio = boost::asio;

namespace {
// A WRITE's buffer grows as its payload arrives: read at most this much more at a time (and at
// most as much as already arrived), so a client that sends a header and little else makes the
// server hold little.
constexpr std::size_t kPayloadStep = 64 * 1024;
constexpr std::uint32_t kSector = 512;  // the advertised minimum block: pieces are whole sectors
}  // namespace

Connection::Connection(Server::Impl& server, Socket socket, std::uint64_t id, std::string peer)
    : m_server(server), m_socket(std::move(socket)), m_handshake_timer(server.io), m_id(id), m_peer(std::move(peer)) {}

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
        self->progress();
        self->m_handshake_timer.cancel();
        self->m_handshake.clear();
        self->m_handshake.shrink_to_fit();
        return self->read_request();
    }
  });
}

// ---- transmission: requests ------------------------------------------------------------------

void Connection::read_request() {
  if (m_input_closed || m_closed || m_server.stopping || m_reading || m_admitting) return;
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
  progress();
  Request r;
  if (!decode_request(m_header.data(), r)) return bad_handshake();  // out of step: nothing to trust
  if (r.type == kCmdDisc) return input_ended(false);                // outstanding replies still go out
  ++m_open_requests;
  const std::uint32_t error = check_request(r, m_server.ex);
  if (error != kOk) {
    ++m_server.counters.rejected;
    if (has_payload(r)) return discard_payload(r.length, error, r.handle);
    queue_reply(error, r.handle, nullptr);
    return read_request();
  }
  m_admitting = std::make_shared<Transfer>();
  m_admitting->request = r;
  admit_or_wait();
}

// Hands the request being admitted to the backend: whole when it fits this connection's bound
// and the server's, else in pieces of what fits (at least kPieceBytes, which a connection
// holding nothing always gets). A READ goes in pieces only once its connection holds nothing:
// its reply is then streamed piece by piece, and no other reply may come between. Until the
// whole request is admitted nothing more is read from this client.
void Connection::admit_or_wait() {
  while (!m_closed && m_admitting) {
    Transfer& t = *m_admitting;
    const Request& r = t.request;
    if (r.type != kCmdRead && r.type != kCmdWrite) {  // no payload: nothing to hold
      start_piece(r.length);
      continue;
    }
    const std::uint32_t left = r.length - t.admitted;
    const std::uint64_t own_room = m_bytes < kPieceBytes ? kPieceBytes - m_bytes : 0;
    const std::uint64_t connection_room = m_server.limits.connection_bytes - m_bytes;
    const std::uint64_t room = std::min(connection_room, own_room + m_server.shared_room(this));
    const std::uint64_t least = std::min<std::uint64_t>(left, kPieceBytes);
    Wait wait = Wait::kNone;
    std::uint32_t piece = 0;
    if (room >= left) {
      piece = left;
    } else if (r.type == kCmdRead && t.admitted == 0 && !quiet()) {
      wait = Wait::kQuiet;
    } else if (room >= least) {
      piece = static_cast<std::uint32_t>(room / kSector * kSector);
    } else {
      wait = connection_room < least ? Wait::kOwn : Wait::kServer;
    }
    if (wait != Wait::kNone) {
      if (m_wait == Wait::kNone) ++m_server.counters.memory_waits;
      if (wait == Wait::kServer) {
        m_server.wait_for_room(shared_from_this());
      } else if (m_wait == Wait::kServer) {
        m_server.drop_waiter(this);
      }
      m_wait = wait;
      return;
    }
    if (m_wait == Wait::kServer) m_server.drop_waiter(this);
    m_wait = Wait::kNone;
    if (piece < r.length && t.admitted == 0) {
      ++m_server.counters.pieced_requests;
      if (r.type == kCmdRead) m_stream = m_admitting;  // its reply is streamed: others wait behind it
    }
    hold(piece);
    start_piece(piece);
    if (r.type == kCmdWrite) return;  // the next piece once this one's payload is in
  }
}

void Connection::start_piece(std::uint32_t length) {
  Transfer& t = *m_admitting;
  const Request& r = t.request;
  auto io = std::make_shared<Io>();
  io->kind = r.type == kCmdRead    ? IoKind::kRead
             : r.type == kCmdWrite ? IoKind::kWrite
             : r.type == kCmdTrim  ? IoKind::kTrim
                                   : IoKind::kFlush;
  io->fua = r.flags & kCmdFlagFua;
  io->offset = r.offset + t.admitted;
  io->length = length;
  io->handle = r.handle;
  io->piece = t.admitted;
  io->transfer = m_admitting;
  io->connection = shared_from_this();
  t.admitted += length;
  if (io->kind == IoKind::kWrite) return read_payload(io);
  if (io->kind == IoKind::kRead) io->data.resize(length);
  dispatch(io);
  if (t.admitted == r.length) admitted_all();
}

// The request is in the backend whole: the next one may be read.
void Connection::admitted_all() {
  m_admitting.reset();
  read_request();
}

// A WRITE piece's payload, into a buffer that grows as it arrives; then the piece goes to the
// drive and the next one is admitted.
void Connection::read_payload(const IoPtr& io) {
  const std::size_t have = io->data.size();
  if (have == io->length) {
    dispatch(io);
    if (m_admitting->admitted == m_admitting->request.length) return admitted_all();
    return admit_or_wait();
  }
  const std::size_t step = std::min<std::size_t>(io->length - have, std::max(kPayloadStep, have));
  if (io->data.capacity() < have + step) io->data.reserve(std::min<std::size_t>(io->length, 2 * (have + step)));
  io->data.resize(have + step);
  m_reading = true;
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(io->data.data() + have, step), [self, io](const error_code& ec, std::size_t) {
    self->m_reading = false;
    if (ec || self->m_server.stopping || self->m_closed) {
      io->connection.reset();
      self->m_admitting.reset();  // pieces already in the drive complete; no reply is written
      self->release(io->length);
      if (ec) return self->input_ended(true);
      return self->maybe_close();
    }
    self->progress();
    self->read_payload(io);
  });
}

void Connection::discard_payload(std::uint32_t left, std::uint32_t error, std::uint64_t handle) {
  std::vector<std::uint8_t>& scratch = m_server.discard;
  const std::size_t chunk = std::min<std::size_t>(left, scratch.size());
  m_reading = true;
  auto self = shared_from_this();
  asio::async_read(m_socket, asio::buffer(scratch.data(), chunk),
                   [self, left, chunk, error, handle](const error_code& ec, std::size_t) {
                     self->m_reading = false;
                     if (ec) return self->input_ended(true);
                     if (self->m_server.stopping || self->m_closed) return;
                     self->progress();
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

// Payload bytes taken: this connection's own piece first, then from the server's pool.
void Connection::hold(std::uint64_t bytes) {
  if (bytes == 0) return;
  const std::uint64_t before = m_bytes;
  m_bytes += bytes;
  m_server.held_changed(before, m_bytes);
}

// Payload bytes no longer held: the request being admitted here, then those waiting at the
// server, may go on.
void Connection::release(std::uint64_t bytes) {
  if (bytes == 0) return;
  const std::uint64_t before = m_bytes;
  m_bytes -= bytes;
  m_server.held_changed(before, m_bytes);
  if (m_wait != Wait::kNone) admit_or_wait();
}

// A request read but not admitted (or not whole) when the server stops: answered ESHUTDOWN
// when nothing of it reached the drive (a WRITE's payload is not read: the connection closes
// after the reply); one in pieces already cannot be answered whole, so the connection closes.
void Connection::cancel_waiting_request() {
  if (!m_admitting || m_reading) return;
  if (m_wait == Wait::kServer) m_server.drop_waiter(this);
  m_wait = Wait::kNone;
  const std::shared_ptr<Transfer> t = std::move(m_admitting);
  if (t->admitted > 0) return close();
  if (!m_closed) queue_reply(kEshutdown, t->request.handle, nullptr);
}

void Connection::input_ended(bool mid_request) {
  if (mid_request) ++m_server.counters.lost_mid_request;
  m_input_closed = true;
  if (!m_transmission) return close();
  maybe_close();
}

void Connection::maybe_close() {
  if (m_input_closed && m_in_flight == 0 && m_out.empty() && m_deferred.empty() && !m_writing && !m_admitting) close();
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
  if (m_wait == Wait::kServer) m_server.drop_waiter(this);
  m_wait = Wait::kNone;
  m_admitting.reset();
  m_handshake_timer.cancel();
  error_code ec;
  m_socket.shutdown(asio::socket_base::shutdown_both, ec);
  m_socket.close(ec);
  if (!m_writing) drop_output();  // else the buffers stay valid until the write's handler runs
  --m_server.counters.open_connections;
  auto self = shared_from_this();  // survive our removal from the server's table
  m_server.remove(m_id, m_peer);
}

}  // namespace ssdlab::nbd
