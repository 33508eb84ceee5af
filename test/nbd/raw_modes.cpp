#include "test/nbd/raw_modes.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <thread>

#include "test/nbd/raw_conn.h"

namespace ssdlab::nbd::raw {

namespace {

std::uint32_t as_u32(const std::string& s) { return static_cast<std::uint32_t>(std::strtoul(s.c_str(), nullptr, 0)); }

// Reads one reply to a READ of buffer.size() bytes; true when it is a success for a handle in
// [0, n) not seen before.
bool read_any_reply(Conn& c, std::uint64_t n, std::set<std::uint64_t>& seen, std::vector<std::uint8_t>& buffer) {
  std::uint8_t b[kReplyBytes];
  if (!c.recv(b, sizeof b, 30000) || get32(b) != kSimpleReplyMagic || get32(b + 4) != kOk) return false;
  const std::uint64_t h = get64(b + 8);
  return h < n && seen.insert(h).second && c.recv(buffer.data(), buffer.size(), 30000);
}

// Reads one reply to a READ of buffer.size() bytes; true when it is a success for `handle`.
bool read_reply(Conn& c, std::uint64_t want_handle, std::vector<std::uint8_t>& buffer, int timeout_ms = 30000) {
  std::uint8_t b[kReplyBytes];
  if (!c.recv(b, sizeof b, timeout_ms) || get32(b) != kSimpleReplyMagic) return false;
  if (get32(b + 4) != kOk || get64(b + 8) != want_handle) return false;
  return c.recv(buffer.data(), buffer.size(), timeout_ms);
}

// ---- flood: many big reads in flight, their replies unread ----------------------------------

int flood(const std::string& pid, std::uint32_t connections, std::uint32_t reads, std::uint32_t bytes,
          double max_growth_mib) {
  const double rss0 = status_mib(pid, "VmRSS");
  check(rss0 > 0, "server VmRSS readable: " + std::to_string(rss0) + " MiB");
  if (rss0 <= 0) return report();
  std::vector<std::unique_ptr<Session>> sessions;
  for (std::uint32_t i = 0; i < connections; ++i) {
    sessions.push_back(std::make_unique<Session>());
    open_session(*sessions.back());
    if (!sessions.back()->ok) break;
  }
  check(sessions.size() == connections && sessions.back()->ok, std::to_string(connections) + " sessions");
  if (g_failed) return report();
  const std::uint64_t span = (sessions[0]->size - bytes) / 512 * 512;
  bool sent = true;
  for (std::uint32_t i = 0; i < reads && sent; ++i) {
    for (auto& s : sessions) sent &= send_request(s->c, kCmdRead, 0, i, (std::uint64_t(i) * bytes) % span, bytes);
  }
  check(sent, std::to_string(connections) + " x " + std::to_string(reads) + " reads of " + std::to_string(bytes >> 20) +
                  " MiB sent, no reply read");
  // Let the server do what it will with them; stop early once it is over the bound.
  double peak = rss0;
  const auto t0 = Clock::now();
  auto last_growth = t0;
  while (seconds_since(t0) < 10 && std::chrono::duration<double>(Clock::now() - last_growth).count() < 1.5) {
    const double rss = status_mib(pid, "VmRSS");
    if (rss > peak + 1) {
      peak = rss;
      last_growth = Clock::now();
    }
    if (rss - rss0 > max_growth_mib) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const double hwm_held = status_mib(pid, "VmHWM");
  std::printf("server VmRSS %.0f MiB before the flood, VmHWM %.0f MiB with the replies unread\n", rss0, hwm_held);
  check(hwm_held - rss0 <= max_growth_mib, "while the replies are unread the server grew by " +
                                               std::to_string(int(hwm_held - rss0)) + " MiB (bound " +
                                               std::to_string(int(max_growth_mib)) + " MiB)");
  if (hwm_held - rss0 > max_growth_mib) return report();  // do not push an unbounded server further
  // Now every request must be answered, in full.
  std::vector<std::uint8_t> buffer(bytes);
  std::uint32_t answered = 0;
  for (auto& s : sessions) {  // one connection after the other: the others' replies wait
    std::set<std::uint64_t> seen;
    for (std::uint32_t i = 0; i < reads && read_any_reply(s->c, reads, seen, buffer); ++i) ++answered;
  }
  check(answered == connections * reads,
        "every read answered with its data once the client reads (" + std::to_string(answered) + ")");
  const double hwm = status_mib(pid, "VmHWM");
  std::printf("server VmHWM %.0f MiB after all replies (growth %.0f MiB, bound %.0f MiB)\n", hwm, hwm - rss0,
              max_growth_mib);
  check(hwm - rss0 <= max_growth_mib, "server VmHWM stays within the in-flight bounds plus slack");
  return report();
}

// One read larger than the server's bound, nothing else in flight: served, not refused or stuck.
int alone(std::uint32_t bytes) {
  Session s;
  open_session(s);
  check(s.ok, "session");
  std::vector<std::uint8_t> buffer(bytes);
  check(s.ok && send_request(s.c, kCmdRead, 0, 1, 0, bytes) && read_reply(s.c, 1, buffer),
        "a lone read of " + std::to_string(bytes >> 10) + " KiB is served");
  return report();
}

// ---- connections that hold on to the server --------------------------------------------------

int idle(std::uint32_t n, double wait_s) {
  std::vector<std::unique_ptr<Conn>> idle;
  for (std::uint32_t i = 0; i < n; ++i) {
    idle.push_back(std::make_unique<Conn>());
    if (!idle.back()->ok()) break;
  }
  check(idle.size() == n && idle.back()->ok(), std::to_string(n) + " sockets connected, silent");
  const auto t0 = Clock::now();
  const bool served = correct_client(int(wait_s * 1000), 1 << 20);
  std::printf("correct client %s after %.1f s\n", served ? "served" : "NOT served", seconds_since(t0));
  check(served, "a correct client is served while " + std::to_string(n) + " silent sockets are open");
  std::uint32_t closed = 0;
  for (auto& c : idle) closed += c->closed_by_server(0) ? 1 : 0;
  std::printf("%u of the silent sockets closed by the server so far\n", closed);
  return report();
}

int maxconn(std::uint32_t n) {
  std::vector<std::unique_ptr<Session>> held;
  bool ok = true;
  for (std::uint32_t i = 0; i < n && ok; ++i) {
    held.push_back(std::make_unique<Session>());
    open_session(*held.back());
    ok = held.back()->ok && read_equals(held.back()->c, 0, std::vector<std::uint8_t>(4096, 0));
  }
  check(ok, std::to_string(n) + " sessions open and served");
  {
    Conn extra;
    std::uint8_t g[kGreetingBytes];
    const bool greeted = extra.recv(g, sizeof g, 5000);
    check(extra.ok() && !greeted && extra.closed_by_server(0),
          "connection " + std::to_string(n + 1) + ": closed without a greeting");
  }
  held.front()->c.close();  // a slot frees up once the server has seen the close
  bool served = false;
  for (int attempt = 0; attempt < 50 && !served; ++attempt) {
    served = correct_client(5000, 2 << 20);
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  check(served, "after one session closes, a new connection is served");
  bool still = true;
  for (std::size_t i = 1; i < held.size(); ++i) still &= read_equals(held[i]->c, 0, std::vector<std::uint8_t>(4096, 0));
  check(still, "the sessions held meanwhile still work");
  return report();
}

int slow_handshake(double timeout_s) {
  const int limit_ms = int(timeout_s * 1000) + 20000;
  {  // greeted, then silent
    Conn c;
    std::uint8_t g[kGreetingBytes];
    const auto t0 = Clock::now();
    const bool closed = c.recv(g, sizeof g) && c.closed_by_server(limit_ms);
    const double after = seconds_since(t0);
    std::printf("silent client closed after %.1f s\n", after);
    check(closed, "a client silent after the greeting is dropped");
    check(!closed || after >= timeout_s * 0.99, "...not before the handshake timeout");
  }
  {  // dribbling: one byte every quarter of the timeout, never done within it
    Conn c;
    std::uint8_t g[kGreetingBytes];
    bool ok = c.recv(g, sizeof g);
    std::uint8_t bytes[4 + kOptionHeaderBytes];
    put32(bytes, kClientFixedNewstyle);
    put64(bytes + 4, kOptMagic);  // an NBD_OPT_GO header; its data would follow
    put32(bytes + 12, kOptGo);
    put32(bytes + 16, 6);
    bool closed = false;
    const auto t0 = Clock::now();
    for (std::size_t i = 0; ok && i < sizeof bytes && !closed; ++i) {
      ok = c.send(&bytes[i], 1);
      closed = !ok || c.closed_by_server(int(timeout_s * 250));
    }
    if (!closed) closed = c.closed_by_server(limit_ms);
    std::printf("dribbling client closed after %.1f s\n", seconds_since(t0));
    check(closed, "a client dribbling its handshake is dropped");
  }
  {  // the timeout is for the handshake only: an idle session stays
    Session s;
    open_session(s);
    std::this_thread::sleep_for(std::chrono::duration<double>(timeout_s + 1.0));
    check(s.ok && read_equals(s.c, 0, std::vector<std::uint8_t>(4096, 0)),
          "a session idle for longer than the handshake timeout still works");
  }
  check(correct_client(5000, 3 << 20), "a correct client is served");
  return report();
}

// ---- pacing ----------------------------------------------------------------------------------

struct LatencySet {
  std::vector<double> us;
  double min() const { return us.empty() ? 0 : *std::min_element(us.begin(), us.end()); }
  double max() const { return us.empty() ? 0 : *std::max_element(us.begin(), us.end()); }
  double mean() const {
    double s = 0;
    for (double v : us) s += v;
    return us.empty() ? 0 : s / double(us.size());
  }
};

double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

int paced(double min_us, std::uint32_t count) {
  constexpr std::uint32_t kRegion = 4u << 20, kPiece = 1u << 20, kRead = 4096;
  Session s;
  open_session(s);
  check(s.ok, "session");
  if (!s.ok) return report();
  std::vector<std::uint8_t> region = pattern(kRegion, 0x5c);
  bool ok = true;
  for (std::uint32_t at = 0; at < kRegion && ok; at += kPiece) {
    ok = write_at(s.c, at, std::vector<std::uint8_t>(region.begin() + at, region.begin() + at + kPiece));
  }
  std::uint32_t error = 1;
  std::uint64_t handle = 0;
  ok = ok && send_request(s.c, kCmdFlush, 0, 9, 0, 0) && recv_reply(s.c, error, handle) && error == kOk;
  check(ok, "4 MiB written and flushed (the reads come from flash)");
  LatencySet lat;
  std::uint32_t early = 0, wrong = 0;
  std::vector<std::uint8_t> buffer(kRead);
  std::uint64_t x = 12345;
  auto next_offset = [&x] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % (kRegion / kRead) * kRead;
  };
  for (std::uint32_t i = 0; i < count && ok; ++i) {
    const std::uint64_t off = next_offset();
    const auto t0 = Clock::now();
    ok = send_request(s.c, kCmdRead, 0, 100 + i, off, kRead) && read_reply(s.c, 100 + i, buffer);
    lat.us.push_back(us_since(t0));
    early += lat.us.back() < min_us ? 1 : 0;
    wrong += ok && !std::equal(buffer.begin(), buffer.end(), region.begin() + std::ptrdiff_t(off)) ? 1 : 0;
  }
  check(ok, std::to_string(count) + " QD1 reads answered in order, each with its handle");
  // Pipelined: eight at once; each reply, whenever it comes, no sooner than min_us after its send.
  constexpr int kBatch = 8;
  std::array<Clock::time_point, kBatch> sent_at{};
  std::array<std::uint64_t, kBatch> offsets{};
  for (int i = 0; i < kBatch && ok; ++i) {
    offsets[i] = next_offset();
    sent_at[i] = Clock::now();
    ok = send_request(s.c, kCmdRead, 0, 1000 + i, offsets[i], kRead);
  }
  std::set<std::uint64_t> seen;
  for (int i = 0; i < kBatch && ok; ++i) {
    std::uint8_t b[kReplyBytes];
    ok =
        s.c.recv(b, sizeof b) && get32(b) == kSimpleReplyMagic && get32(b + 4) == kOk && s.c.recv(buffer.data(), kRead);
    const std::uint64_t h = get64(b + 8);
    ok = ok && h >= 1000 && h < 1000 + kBatch && seen.insert(h).second;
    if (!ok) break;
    const std::size_t k = h - 1000;
    lat.us.push_back(us_since(sent_at[k]));
    early += lat.us.back() < min_us ? 1 : 0;
    wrong += !std::equal(buffer.begin(), buffer.end(), region.begin() + std::ptrdiff_t(offsets[k])) ? 1 : 0;
  }
  check(ok, "8 pipelined reads: each handle answered once");
  std::printf("paced: reads=%zu min_us=%.1f mean_us=%.3f max_us=%.1f\n", lat.us.size(), lat.min(), lat.mean(),
              lat.max());
  check(early == 0, "no reply sooner than " + std::to_string(int(min_us)) + " us (t_read) after its request (" +
                        std::to_string(early) + " were)");
  check(wrong == 0, "every read returned the data written (" + std::to_string(wrong) + " did not)");
  return report();
}

int trims(std::uint32_t n) {
  Session s;
  open_session(s);
  bool ok = s.ok;
  for (std::uint32_t i = 0; i < n && ok; ++i) {
    std::uint32_t error = 1;
    std::uint64_t handle = 0;
    ok = send_request(s.c, kCmdTrim, 0, i, std::uint64_t(i) << 16, 1 << 16) && recv_reply(s.c, error, handle) &&
         error == kOk && handle == i;
  }
  check(ok, std::to_string(n) + " TRIMs of 64 KiB answered");
  std::uint32_t error = 0;
  std::uint64_t handle = 0;
  check(ok && send_request(s.c, kCmdTrim, 0, 99, s.size, 4096) && recv_reply(s.c, error, handle) && error == kEinval,
        "a TRIM beyond the end refused");
  return report();
}

// A drive whose every flash read is uncorrectable (nand.errors with a huge scale): data written
// and flushed to flash reads back as EIO with no payload, never as other bytes; the session goes
// on (a write is still accepted, a later read fails alike); LBAs never written read without an
// error (no flash read).
int media_error() {
  Session s;
  open_session(s);
  bool ok = s.ok;
  const auto data = pattern(256 << 10, 0x5a);
  check(ok && write_at(s.c, 0, data), "256 KiB written");
  std::uint32_t error = 1;
  std::uint64_t handle = 0;
  ok = ok && send_request(s.c, kCmdFlush, 0, 5, 0, 0) && recv_reply(s.c, error, handle, 60000) && error == kOk;
  check(ok, "FLUSH: the data is on flash");
  for (int i = 0; i < 2 && ok; ++i) {
    error = 0;
    ok =
        send_request(s.c, kCmdRead, 0, 40 + i, std::uint64_t(i) * 65536, 4096) && recv_reply(s.c, error, handle, 60000);
    check(ok && error == kEio && handle == std::uint64_t(40 + i),
          "a read of flushed data: EIO, no payload (error " + std::to_string(error) + ")");
  }
  std::vector<std::uint8_t> zeros(4096, 0);
  check(ok && read_equals(s.c, 8u << 20, zeros), "a never-written LBA reads as zeros without an error");
  const auto more = pattern(4096, 0x11);
  check(ok && write_at(s.c, 1u << 20, more), "the session goes on: a write is accepted");
  return report();
}

}  // namespace

int run_mode(const std::vector<std::string>& a) {
  const std::string& m = a[0];
  if (m == "flood" && a.size() == 6)
    return flood(a[1], as_u32(a[2]), as_u32(a[3]), as_u32(a[4]), std::atof(a[5].c_str()));
  if (m == "alone" && a.size() == 2) return alone(as_u32(a[1]));
  if (m == "idle" && a.size() == 3) return idle(as_u32(a[1]), std::atof(a[2].c_str()));
  if (m == "maxconn" && a.size() == 2) return maxconn(as_u32(a[1]));
  if (m == "slowhs" && a.size() == 2) return slow_handshake(std::atof(a[1].c_str()));
  if (m == "paced" && a.size() == 3) return paced(std::atof(a[1].c_str()), as_u32(a[2]));
  if (m == "trims" && a.size() == 2) return trims(as_u32(a[1]));
  if (m == "mediaerror" && a.size() == 1) return media_error();
  if (m == "hostile" && a.size() == 8)
    return hostile(a[1], as_u32(a[2]), as_u32(a[3]), as_u32(a[4]), std::atof(a[5].c_str()), std::atof(a[6].c_str()),
                   a[7]);
  if (m == "idlepeer" && a.size() == 4) return idle_peer(as_u32(a[1]), a[2], std::atof(a[3].c_str()));
  if (m == "pattern" && a.size() == 4 && (a[1] == "write" || a[1] == "check"))
    return pattern_mode(a[1] == "write", std::strtoull(a[2].c_str(), nullptr, 0), as_u32(a[3]));
  std::fprintf(stderr, "nbd_raw_client: unknown mode or wrong arguments: %s\n%s", m.c_str(), kModesUsage);
  return 2;
}

}  // namespace ssdlab::nbd::raw
