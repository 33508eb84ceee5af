// The raw client's data mode: a seeded sequence of random writes over the start of the export,
// then every byte read back. `check` replays the sequence in memory only, so that a second
// server (the drive restored from its image) can be checked against what the first one was sent.
#include <algorithm>

#include "test/nbd/raw_conn.h"
#include "test/nbd/raw_modes.h"

namespace ssdlab::nbd::raw {

namespace {

// xorshift64*: the test needs a fixed sequence, not quality.
struct Sequence {
  std::uint64_t x;
  explicit Sequence(std::uint64_t seed) : x(seed * 2654435761u + 1) {}
  std::uint64_t next() {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 2685821657736338717ull;
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

}  // namespace

int pattern_mode(bool write, std::uint64_t seed, std::uint32_t mib) {
  Session s;
  open_session(s);
  check(s.ok, "session");
  const std::uint64_t region = std::uint64_t(mib) << 20;
  if (!s.ok || region > s.size) {
    check(false, "the export holds " + std::to_string(mib) + " MiB");
    return report();
  }
  // Twice the region in writes of 0.5 to 256 KiB at sector offsets, then a FLUSH.
  std::vector<std::uint8_t> expect(region, 0);
  Sequence seq(seed);
  bool ok = true;
  std::uint64_t writes = 0;
  for (std::uint64_t done = 0; done < 2 * region && ok; ++writes) {
    const auto sectors = static_cast<std::uint32_t>(1 + seq.below(512));
    const std::uint64_t at = seq.below(region / 512 - sectors + 1) * 512;
    const std::uint32_t n = sectors * 512;
    for (std::uint32_t i = 0; i < n; ++i) expect[at + i] = static_cast<std::uint8_t>(seq.next() >> 56);
    if (write) ok = write_at(s.c, at, std::vector<std::uint8_t>(expect.begin() + at, expect.begin() + at + n));
    done += n;
  }
  if (write) {
    std::uint32_t error = 1;
    std::uint64_t handle = 0;
    ok = ok && send_request(s.c, kCmdFlush, 0, 5, 0, 0) && recv_reply(s.c, error, handle, 60000) && error == kOk;
    check(ok, std::to_string(writes) + " writes over " + std::to_string(mib) + " MiB (seed " + std::to_string(seed) +
                  "), then FLUSH");
  }
  constexpr std::uint32_t kPiece = 1u << 20;
  std::uint64_t wrong = 0;
  std::vector<std::uint8_t> got(kPiece);
  for (std::uint64_t at = 0; at < region && ok; at += kPiece) {
    std::uint32_t error = 1;
    std::uint64_t handle = 0;
    ok = send_request(s.c, kCmdRead, 0, 7, at, kPiece) && recv_reply(s.c, error, handle, 60000) && error == kOk &&
         s.c.recv(got.data(), kPiece, 60000);
    if (ok && !std::equal(got.begin(), got.end(), expect.begin() + std::ptrdiff_t(at))) ++wrong;
  }
  check(ok && wrong == 0, "every byte of the " + std::to_string(mib) + " MiB reads back as written (" +
                              std::to_string(wrong) + " MiB differ)");
  return report();
}

}  // namespace ssdlab::nbd::raw
