// One NBD client connection, its replies: pieces completed by the backend, a READ in pieces
// streamed in order (other replies wait behind it), writes to the socket as it takes them, and
// the payload bytes released as they go out. Runs on the server's Asio thread only.
#include <algorithm>

#include "host/nbd/nbd_server_impl.h"

namespace ssdlab::nbd {

namespace asio = boost::asio;

namespace {
constexpr std::size_t kMaxRepliesPerWrite = 64;
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
  progress();
  Transfer& t = *io->transfer;
  t.completed += io->length;
  if (io->error != kOk && t.error == kOk) t.error = io->error;
  const bool payload = io->kind == IoKind::kRead || io->kind == IoKind::kWrite;
  if (m_closed) {
    if (payload) release(io->length);
  } else if (io->kind == IoKind::kRead && io->length < t.request.length) {
    read_piece_done(t, io);
  } else if (io->kind == IoKind::kRead) {
    // The payload stays held until the reply is written: a client that does not read its
    // replies cannot make the server hold more.
    queue_reply(io->error, io->handle, io->error == kOk ? io : nullptr, io->error == kOk ? io->length : 0);
    if (io->error != kOk) release(io->length);
  } else {
    if (payload) release(io->length);  // a WRITE piece: the drive has its data
    if (t.completed == t.request.length) queue_reply(t.error, io->handle, nullptr);
  }
  resume_reading();
  maybe_close();
}

// A piece of a READ served in pieces (the connection's stream from its admission on). Its reply
// is the header, then every piece's data in order: it is queued from the first piece on as the
// pieces complete in order, and replies of other requests completing meanwhile wait behind it. A later piece that fails
// cannot be reported any more (the header said success): the connection is closed.
void Connection::read_piece_done(Transfer& t, const IoPtr& io) {
  if (m_stream != io->transfer) {  // cannot be: one READ streams at a time (on a quiet connection)
    release(io->length);
    ++m_server.counters.broken_replies;
    return close();
  }
  t.done.push_back(io);
  pump_stream();
}

void Connection::pump_stream() {
  while (m_stream) {
    Transfer& t = *m_stream;
    const auto it = std::find_if(t.done.begin(), t.done.end(), [&t](const IoPtr& p) { return p->piece == t.queued; });
    if (it == t.done.end()) break;  // the next piece in order is still in the drive
    const IoPtr p = *it;
    t.done.erase(it);
    t.queued += p->length;
    const bool first = !t.started, last = t.queued == t.request.length;
    t.started = true;
    if (first && p->error != kOk) {
      t.failed = true;
      Outgoing out;
      encode_simple_reply(out.header.data(), p->error, p->handle);
      queue(std::move(out), true);
    }
    if (t.failed) {
      release(p->length);
    } else if (p->error != kOk) {
      ++m_server.counters.broken_replies;
      return close();
    } else {
      Outgoing out;
      out.has_header = first;
      if (first) encode_simple_reply(out.header.data(), kOk, p->handle);
      out.io = p;
      out.bytes = p->length;
      out.ends_request = last;
      queue(std::move(out), true);
    }
    if (last) {  // the replies held behind it go out now
      m_stream.reset();
      for (Outgoing& o : m_deferred) m_out.push_back(std::move(o));
      m_deferred.clear();
      if (m_wait == Wait::kQuiet) admit_or_wait();
    }
  }
  write_next();
}

void Connection::queue(Outgoing out, bool stream) {
  (m_stream && !stream ? m_deferred : m_out).push_back(std::move(out));
  write_next();
}

void Connection::queue_reply(std::uint32_t error, std::uint64_t handle, IoPtr with_data, std::uint64_t bytes) {
  Outgoing out;
  encode_simple_reply(out.header.data(), error, handle);
  out.io = std::move(with_data);
  out.bytes = bytes;
  queue(std::move(out));
}

// As much of the queued replies as the socket takes now (each completion is progress for the
// idle timeout, and releases what was written whole).
void Connection::write_next() {
  if (m_writing || m_out.empty() || m_closed) return;
  m_write_buffers.clear();
  std::size_t skip = m_out_offset;
  const auto add = [this, &skip](const std::uint8_t* p, std::size_t n) {
    if (skip >= n) {
      skip -= n;
    } else {
      m_write_buffers.push_back(asio::buffer(p + skip, n - skip));
      skip = 0;
    }
  };
  const std::size_t n = std::min(m_out.size(), kMaxRepliesPerWrite);
  for (std::size_t i = 0; i < n; ++i) {
    if (m_out[i].has_header) add(m_out[i].header.data(), kReplyBytes);
    if (m_out[i].io) add(m_out[i].io->data.data(), m_out[i].io->data.size());
  }
  m_writing = true;
  auto self = shared_from_this();
  m_socket.async_write_some(m_write_buffers, [self](const error_code& ec, std::size_t written) {
    self->m_writing = false;
    if (ec) {  // the client is gone: nothing more can reach it
      self->close();
      self->drop_output();
      return;
    }
    self->progress();
    self->wrote(written);
  });
}

void Connection::wrote(std::size_t n) {
  std::uint64_t bytes = 0;
  while (n > 0 && !m_out.empty()) {
    Outgoing& o = m_out.front();
    const std::size_t rest = o.size() - m_out_offset;
    if (n < rest) {
      m_out_offset += n;
      break;
    }
    n -= rest;
    m_out_offset = 0;
    bytes += o.bytes;
    if (o.ends_request) {
      --m_open_requests;
      ++m_server.counters.replies;
    }
    m_out.pop_front();
  }
  release(bytes);
  write_next();
  resume_reading();
  maybe_close();
}

void Connection::drop_output() {
  std::uint64_t bytes = 0;
  for (const Outgoing& o : m_out) bytes += o.bytes;
  for (const Outgoing& o : m_deferred) bytes += o.bytes;
  if (m_stream) {
    for (const IoPtr& p : m_stream->done) bytes += p->length;
    m_stream->done.clear();
    m_stream.reset();
  }
  m_out.clear();
  m_deferred.clear();
  m_out_offset = 0;
  release(bytes);
}

}  // namespace ssdlab::nbd
