// A raw-socket NBD client that sends what real clients never do: requests beyond the export,
// of zero length, over the maximum payload, unknown commands and flags, malformed handshakes,
// and connections that vanish in the middle of a request. After each, a valid request must
// still succeed and nothing acknowledged may be lost.
// usage: nbd_raw_client HOST PORT            (these malformed-input cases)
//        nbd_raw_client HOST PORT MODE ARGS  (a hostile or measuring client: raw_modes.h)
#include <map>
#include <string>
#include <vector>

#include "test/nbd/raw_conn.h"
#include "test/nbd/raw_modes.h"

using namespace ssdlab::nbd;
using namespace ssdlab::nbd::raw;

namespace {

// A request that must be refused with `expect`; a WRITE carries `payload_len` bytes.
void refused(Session& s, const std::string& what, std::uint16_t type, std::uint16_t flags, std::uint64_t offset,
             std::uint32_t length, std::uint32_t expect, std::size_t payload_len = 0) {
  static std::uint64_t next_handle = 1000;
  const std::uint64_t h = next_handle++;
  std::vector<std::uint8_t> payload(payload_len, 0xee);
  bool sent = send_request(s.c, type, flags, h, offset, length);
  if (sent && payload_len) sent = s.c.send(payload);
  std::uint32_t error = 0;
  std::uint64_t handle = 0;
  const bool got = sent && recv_reply(s.c, error, handle);
  check(got && handle == h && error == expect,
        what + ": " + error_name(expect) + (got ? std::string(" (got ") + error_name(error) + ")" : " (no reply)"));
}

int malformed_input() {
  const std::uint64_t base = 1 << 20;
  const auto known = pattern(8192, 0x31);

  Session s;
  open_session(s);
  check(s.ok, "fixed newstyle handshake with NBD_OPT_GO");
  if (!s.ok) return 1;
  const std::uint16_t want = kTxHasFlags | kTxSendFlush | kTxSendFua | kTxSendTrim | kTxCanMultiConn;
  check((s.flags & want) == want, "transmission flags: flush, FUA, trim, multi-conn");
  check(s.size >= 48 * base && s.size % 512 == 0, "export size " + std::to_string(s.size));
  check(write_at(s.c, base, known), "write 8 KiB");
  check(read_equals(s.c, base, known), "read it back");

  // ---- bad requests: each answered with an error, the connection goes on --------------------
  const std::uint64_t end = s.size;
  refused(s, "read at the end of the export", kCmdRead, 0, end, 4096, kEinval);
  refused(s, "read across the end", kCmdRead, 0, end - 512, 1024, kEinval);
  refused(s, "read far beyond the end", kCmdRead, 0, ~0ull - 4095, 4096, kEinval);
  refused(s, "write across the end (payload sent)", kCmdWrite, 0, end - 4096, 8192, kEnospc, 8192);
  refused(s, "trim beyond the end", kCmdTrim, 0, end, 4096, kEinval);
  refused(s, "zero-length read", kCmdRead, 0, base, 0, kEinval);
  refused(s, "zero-length write", kCmdWrite, 0, base, 0, kEinval);
  refused(s, "zero-length trim", kCmdTrim, 0, base, 0, kEinval);
  refused(s, "read over the maximum payload", kCmdRead, 0, 0, (32u << 20) + 4096, kEinval);
  refused(s, "write over the maximum payload (33 MiB sent)", kCmdWrite, 0, 0, (33u << 20), kEinval, 33u << 20);
  refused(s, "unaligned read", kCmdRead, 0, base + 100, 512, kEinval);
  refused(s, "unaligned write (payload sent)", kCmdWrite, 0, base, 100, kEinval, 100);
  refused(s, "unknown command 9", 9, 0, base, 4096, kEinval);
  refused(s, "NBD_CMD_WRITE_ZEROES (not offered)", 6, 0, base, 4096, kEinval);
  refused(s, "unknown command flag 0x8000", kCmdRead, 0x8000, base, 4096, kEinval);
  refused(s, "NBD_CMD_FLAG_DF without structured replies", kCmdRead, kCmdFlagDf, base, 4096, kEinval);
  refused(s, "NBD_CMD_FLAG_NO_HOLE on a write (payload sent)", kCmdWrite, kCmdFlagNoHole, base, 4096, kEinval, 4096);
  refused(s, "flush with a length", kCmdFlush, 0, 0, 4096, kEinval);
  check(read_equals(s.c, base, known), "after all that, a valid read still succeeds with the data");

  // ---- valid but unusual ---------------------------------------------------------------------
  const auto big = pattern(3u << 20, 0x52);  // larger than the drive's max transfer: split
  check(write_at(s.c, 8 * base, big, kCmdFlagFua), "3 MiB write with FUA (split into ATA commands)");
  check(read_equals(s.c, 8 * base, big), "3 MiB read back");
  {
    std::uint32_t error;
    std::uint64_t handle;
    check(send_request(s.c, kCmdFlush, 0, 5, 0, 0) && recv_reply(s.c, error, handle) && error == kOk && handle == 5,
          "flush");
    check(write_at(s.c, 16 * base, pattern(65536, 3)), "write 64 KiB");
    check(send_request(s.c, kCmdTrim, kCmdFlagFua, 6, 16 * base, 65536) && recv_reply(s.c, error, handle) &&
              error == kOk && handle == 6,
          "trim with FUA");
    check(read_equals(s.c, 16 * base, std::vector<std::uint8_t>(65536, 0)), "trimmed range reads zeros");
  }
  {  // pipelined: many requests before any reply, replies matched by handle
    std::map<std::uint64_t, std::vector<std::uint8_t>> expect;
    bool sent = true;
    for (std::uint64_t i = 0; i < 16; ++i) {
      const auto data = pattern(4096, std::uint8_t(i));
      sent &= send_request(s.c, kCmdWrite, 0, 100 + i, 20 * base + i * 4096, 4096, data.data());
      expect[100 + i] = data;
    }
    int replies = 0;
    for (int i = 0; sent && i < 16; ++i) {
      std::uint32_t error;
      std::uint64_t handle;
      if (recv_reply(s.c, error, handle) && error == kOk && expect.erase(handle)) ++replies;
    }
    check(replies == 16, "16 pipelined writes, 16 replies with their handles");
    bool all = true;
    for (std::uint64_t i = 0; i < 16; ++i)
      all &= read_equals(s.c, 20 * base + i * 4096, pattern(4096, std::uint8_t(i)));
    check(all, "...and their data");
  }
  {  // NBD_CMD_DISC: the outstanding read is answered, then the server closes
    std::uint32_t error;
    std::uint64_t handle;
    std::vector<std::uint8_t> got(8192);
    const bool sent = send_request(s.c, kCmdRead, 0, 9, base, 8192) && send_request(s.c, kCmdDisc, 0, 10, 0, 0);
    check(sent && recv_reply(s.c, error, handle) && handle == 9 && error == kOk && s.c.recv(got.data(), 8192) &&
              got == known,
          "read before NBD_CMD_DISC is answered");
    check(s.c.closed_by_server(), "then the server closes the connection");
  }

  // ---- several connections at once share the drive (multi-conn) -----------------------------
  {
    Session a, b, c;
    open_session(a);
    open_session(b);
    open_session(c);
    check(a.ok && b.ok && c.ok, "three connections at once");
    const auto pa = pattern(4096, 0xa0), pb = pattern(4096, 0xb0);
    check(write_at(a.c, 30 * base, pa) && write_at(b.c, 31 * base, pb), "writes on two connections");
    check(read_equals(c.c, 30 * base, pa) && read_equals(c.c, 31 * base, pb), "visible on the third");
    // EOF without NBD_CMD_DISC is a normal disconnect.
    a.c.close();
    check(read_equals(b.c, 30 * base, pa), "a client closing without DISC loses nothing");
  }

  // ---- option haggling ----------------------------------------------------------------------
  {
    Conn c;
    bool ok = greet(c, kClientFixedNewstyle);
    ok = ok && c.send(option(kOptStructuredReply, {})) && option_replies(c, kOptStructuredReply) == kRepErrUnsup;
    check(ok, "NBD_OPT_STRUCTURED_REPLY answered NBD_REP_ERR_UNSUP");
    ok = ok && c.send(option(kOptList, {})) && option_replies(c, kOptList) == kRepErrUnsup;
    check(ok, "NBD_OPT_LIST answered NBD_REP_ERR_UNSUP");
    ok = ok && c.send(option(0xdead, {1, 2, 3})) && option_replies(c, 0xdead) == kRepErrUnsup;
    check(ok, "an unknown option answered NBD_REP_ERR_UNSUP");
    ok = ok && c.send(option(kOptInfo, go_data("no-such-export"))) && option_replies(c, kOptInfo) == kRepErrUnknown;
    check(ok, "NBD_OPT_INFO of an unknown export: NBD_REP_ERR_UNKNOWN");
    ok = ok && c.send(option(kOptInfo, {0, 0})) && option_replies(c, kOptInfo) == kRepErrInvalid;
    check(ok, "malformed NBD_OPT_INFO: NBD_REP_ERR_INVALID");
    std::uint64_t size = 0;
    ok = ok && c.send(option(kOptInfo, go_data(""))) && option_replies(c, kOptInfo, &size) == kRepAck && size == end;
    check(ok, "NBD_OPT_INFO of the default export");
    ok = ok && c.send(option(kOptGo, go_data(""))) && option_replies(c, kOptGo) == kRepAck;
    check(ok && read_equals(c, base, known), "then NBD_OPT_GO and a read");
  }
  {
    Conn c;
    std::uint8_t reply[134];
    const bool ok = greet(c, kClientFixedNewstyle) && c.send(option(kOptExportName, {})) && c.recv(reply, 134) &&
                    get64(reply) == end;
    check(ok && read_equals(c, base, known), "NBD_OPT_EXPORT_NAME (with the 124 zero bytes) and a read");
  }
  {
    Conn c;
    const bool ok =
        greet(c, kClientFixedNewstyle) && c.send(option(kOptAbort, {})) && option_replies(c, kOptAbort) == kRepAck;
    check(ok && c.closed_by_server(), "NBD_OPT_ABORT: acknowledged, connection closed");
  }

  // ---- malformed handshakes close that connection only ---------------------------------------
  auto still_serving = [&](const std::string& after) {
    Session t;
    open_session(t);
    check(t.ok && read_equals(t.c, base, known), "  server still serves after: " + after);
  };
  {
    Conn c;
    check(greet(c, 0) && c.closed_by_server(), "client without fixed newstyle: closed");
    still_serving("no fixed newstyle");
  }
  {
    Conn c;
    check(greet(c, kClientFixedNewstyle | 0x80) && c.closed_by_server(), "unknown client flag: closed");
    still_serving("unknown client flag");
  }
  {
    Conn c;
    auto bad = option(kOptGo, go_data(""));
    bad[0] ^= 0xff;
    check(greet(c, kClientFixedNewstyle) && c.send(bad) && c.closed_by_server(), "bad option magic: closed");
    still_serving("bad option magic");
  }
  {
    Conn c;
    std::vector<std::uint8_t> huge(16);
    put64(&huge[0], kOptMagic);
    put32(&huge[8], kOptGo);
    put32(&huge[12], 1u << 30);
    check(greet(c, kClientFixedNewstyle) && c.send(huge) && c.closed_by_server(), "1 GiB of option data: closed");
    still_serving("oversized option");
  }
  {
    Conn c;
    const std::string name = "no-such-export";
    check(greet(c, kClientFixedNewstyle) &&
              c.send(option(kOptExportName, std::vector<std::uint8_t>(name.begin(), name.end()))) &&
              c.closed_by_server(),
          "NBD_OPT_EXPORT_NAME of an unknown export: closed");
    still_serving("unknown export name");
  }
  {
    Conn c;
    check(greet(c, kClientFixedNewstyle) && c.send("garbage!garbage!garbage!", 24) && c.closed_by_server(),
          "garbage instead of an option: closed");
    still_serving("garbage option");
  }
  {
    Session t;
    open_session(t);
    std::uint8_t junk[kRequestBytes] = {0xde, 0xad, 0xbe, 0xef};
    check(t.ok && t.c.send(junk, sizeof junk) && t.c.closed_by_server(), "bad request magic: closed");
    still_serving("bad request magic");
  }
  {
    Conn c;
    std::uint8_t half[8];
    check(c.recv(half, 8), "client vanishing during the greeting");
    c.close();
    still_serving("a client gone during the greeting");
  }
  {  // a client gone in the middle of a write: that write never happened, acknowledged data stays
    Session t;
    open_session(t);
    Request r;
    r.type = kCmdWrite;
    r.handle = 1;
    r.offset = base;
    r.length = 65536;
    std::uint8_t b[kRequestBytes];
    encode_request(b, r);
    const auto partial = pattern(1000, 0x99);
    check(t.ok && t.c.send(b, sizeof b) && t.c.send(partial), "client vanishing in the middle of a write");
    t.c.close();
    Session u;
    open_session(u);
    check(u.ok && read_equals(u.c, base, known), "  acknowledged data intact, server still serving");
  }
  {  // a client gone while its reads are in the drive
    Session t;
    open_session(t);
    bool sent = t.ok;
    for (int i = 0; i < 32 && sent; ++i) sent = send_request(t.c, kCmdRead, 0, std::uint64_t(i), 0, 1 << 20);
    check(sent, "client vanishing with 32 MiB of reads in flight");
    t.c.close();
    still_serving("a client gone with requests in flight");
  }

  return report();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s HOST PORT [MODE ARGS...]\n%s", argv[0], kModesUsage);
    return 2;
  }
  g_host = argv[1];
  g_port = argv[2];
  if (argc == 3) return malformed_input();
  return run_mode(std::vector<std::string>(argv + 3, argv + argc));
}
