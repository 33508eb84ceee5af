// The raw client's modes against the server's limits: many connections each holding one big
// request (READs whose replies are never read, WRITE headers whose payload never comes) while
// a correct client works and the server's memory is watched; idle sessions from one peer
// while a correct client tries to get in.
#include <memory>
#include <thread>

#include "test/nbd/raw_conn.h"
#include "test/nbd/raw_modes.h"

namespace ssdlab::nbd::raw {

namespace {

// A write and its read-back of `bytes` at `offset`, each reply awaited up to `timeout_s`.
bool write_read(Session& s, std::uint64_t offset, std::uint32_t bytes, double timeout_s, std::uint64_t handle) {
  const auto data = pattern(bytes, std::uint8_t(handle));
  const int ms = int(timeout_s * 1000);
  std::uint32_t error = 1;
  std::uint64_t h = 0;
  std::vector<std::uint8_t> got(bytes);
  return send_request(s.c, kCmdWrite, 0, handle, offset, bytes, data.data()) && recv_reply(s.c, error, h, ms) &&
         error == kOk && h == handle && send_request(s.c, kCmdRead, 0, handle + 1, offset, bytes) &&
         recv_reply(s.c, error, h, ms) && error == kOk && h == handle + 1 && s.c.recv(got.data(), bytes, ms) &&
         got == data;
}

}  // namespace

int hostile(const std::string& pid, std::uint32_t readers, std::uint32_t writers, std::uint32_t bytes,
            double max_growth_mib, double safety_s, const std::string& source) {
  const double rss0 = status_mib(pid, "VmRSS");
  check(rss0 > 0, "server VmRSS readable: " + std::to_string(rss0) + " MiB");
  if (rss0 <= 0) return report();
  std::vector<std::unique_ptr<Session>> held;
  bool sent = true;
  for (std::uint32_t i = 0; i < readers + writers && sent; ++i) {
    held.push_back(std::make_unique<Session>(source));
    Session& s = *held.back();
    open_session(s);
    const std::uint64_t span = s.size > bytes ? (s.size - bytes) / 512 * 512 : 0;
    const std::uint64_t offset = span ? (std::uint64_t(i) << 20) % span : 0;
    if (i < readers) {  // a READ whose reply is never read
      sent = s.ok && send_request(s.c, kCmdRead, 0, i, offset, bytes);
    } else {  // a WRITE header, then 10 bytes of its payload and nothing more
      const auto some = pattern(10, 1);
      sent = s.ok && send_request(s.c, kCmdWrite, 0, i, offset, bytes) && s.c.send(some);
    }
  }
  check(sent, std::to_string(readers) + " READs and " + std::to_string(writers) + " WRITE headers of " +
                  std::to_string(bytes >> 20) + " MiB sent from " + (source.empty() ? "the default address" : source) +
                  ", none answered or completed");
  if (!sent) return report();
  double peak = rss0;
  const auto sample = [&] { peak = std::max(peak, status_mib(pid, "VmRSS")); };
  // A correct client meanwhile: small, medium and large requests, each served within the
  // safety timeout (large ones go in pieces while the others hold the server's bytes).
  Session s;
  open_session(s);
  check(s.ok, "a correct client gets a session");
  std::uint64_t handle = 1000;
  for (const std::uint32_t size : {4096u, 1u << 20, 8u << 20, 4096u}) {
    const auto t0 = Clock::now();
    const bool ok = s.ok && write_read(s, 40ull << 20, size, safety_s, handle);
    handle += 2;
    sample();
    std::printf("correct client: %u KiB written and read back in %.2f s\n", size >> 10, seconds_since(t0));
    check(ok, "a correct client's " + std::to_string(size >> 10) + " KiB write and read are served");
  }
  const auto t0 = Clock::now();
  while (seconds_since(t0) < 2) {  // what the server holds once it has settled
    sample();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double hwm = status_mib(pid, "VmHWM");
  std::printf("server VmRSS %.0f MiB before, peak VmRSS %.0f MiB, VmHWM %.0f MiB (growth %.0f MiB, bound %.0f MiB)\n",
              rss0, peak, hwm, hwm - rss0, max_growth_mib);
  check(hwm - rss0 <= max_growth_mib, "the server's memory grew by " + std::to_string(int(hwm - rss0)) +
                                          " MiB, within the bound of " + std::to_string(int(max_growth_mib)) + " MiB");
  held.clear();  // the hostile connections go away
  check(correct_client(int(safety_s * 1000), 44ull << 20), "after they close, a new client is served");
  return report();
}

int idle_peer(std::uint32_t n, const std::string& source, double wait_s) {
  std::vector<std::unique_ptr<Session>> idle;
  std::uint32_t sessions = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    idle.push_back(std::make_unique<Session>(source));
    open_session(*idle.back());
    sessions += idle.back()->ok ? 1 : 0;
  }
  std::printf("%u of %u idle sessions from %s got through the handshake\n", sessions, n, source.c_str());
  check(sessions > 0, "idle sessions from " + source + " hold connections");
  const auto t0 = Clock::now();
  bool served = false;
  int attempt = 0;
  for (; !served && seconds_since(t0) < wait_s; ++attempt) {
    served = correct_client(5000, (8ull + attempt % 8) << 20);
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::printf("correct client %s after %.1f s (%d attempts)\n", served ? "served" : "NOT served", seconds_since(t0),
              attempt);
  check(served,
        "a correct client is served while " + std::to_string(sessions) + " idle sessions from " + source + " are open");
  std::uint32_t closed = 0;
  for (auto& s : idle) closed += s->ok && s->c.closed_by_server(0) ? 1 : 0;
  std::printf("%u of the idle sessions closed by the server so far\n", closed);
  return report();
}

}  // namespace ssdlab::nbd::raw
