// The NBD wire protocol without sockets: handshake bytes, option answers, request checks.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "host/nbd/nbd_protocol.h"

using namespace ssdlab::nbd;

namespace {

Export test_export() {
  Export ex;
  ex.name = "drive";
  ex.description = "a test drive";
  ex.size = 64ull << 20;
  ex.flags = kTxHasFlags | kTxSendFlush | kTxSendFua | kTxSendTrim | kTxCanMultiConn;
  return ex;
}

std::vector<std::uint8_t> go_data(const std::string& name, std::vector<std::uint16_t> infos) {
  std::vector<std::uint8_t> d(4 + name.size() + 2 + 2 * infos.size());
  put32(&d[0], static_cast<std::uint32_t>(name.size()));
  std::copy(name.begin(), name.end(), d.begin() + 4);
  put16(&d[4 + name.size()], static_cast<std::uint16_t>(infos.size()));
  for (std::size_t i = 0; i < infos.size(); ++i) put16(&d[6 + name.size() + 2 * i], infos[i]);
  return d;
}

struct ParsedReply {
  std::uint32_t option, type;
  std::vector<std::uint8_t> data;
};

// Splits a byte stream of option replies, checking every magic.
std::vector<ParsedReply> parse_replies(const std::vector<std::uint8_t>& bytes) {
  std::vector<ParsedReply> out;
  std::size_t at = 0;
  while (at < bytes.size()) {
    REQUIRE(bytes.size() - at >= 20);
    REQUIRE(get64(&bytes[at]) == kOptReplyMagic);
    ParsedReply r;
    r.option = get32(&bytes[at + 8]);
    r.type = get32(&bytes[at + 12]);
    const std::uint32_t len = get32(&bytes[at + 16]);
    REQUIRE(bytes.size() - at - 20 >= len);
    r.data.assign(bytes.begin() + std::ptrdiff_t(at + 20), bytes.begin() + std::ptrdiff_t(at + 20 + len));
    out.push_back(r);
    at += 20 + len;
  }
  return out;
}

Request req(std::uint16_t type, std::uint64_t offset, std::uint32_t length, std::uint16_t flags = 0) {
  Request r;
  r.type = type;
  r.offset = offset;
  r.length = length;
  r.flags = flags;
  r.handle = 0x1122334455667788ull;
  return r;
}

}  // namespace

TEST_CASE("NBD greeting: NBDMAGIC, IHAVEOPT, fixed newstyle and no zeroes", "[nbd]") {
  const auto g = greeting();
  CHECK(std::string(g.begin(), g.begin() + 8) == "NBDMAGIC");
  CHECK(std::string(g.begin() + 8, g.begin() + 16) == "IHAVEOPT");
  CHECK(get16(&g[16]) == (kFlagFixedNewstyle | kFlagNoZeroes));
}

TEST_CASE("NBD client flags: only fixed newstyle clients, no unknown bits", "[nbd]") {
  CHECK(parse_client_flags(kClientFixedNewstyle).accepted);
  CHECK_FALSE(parse_client_flags(kClientFixedNewstyle).no_zeroes);
  const ClientFlags both = parse_client_flags(kClientFixedNewstyle | kClientNoZeroes);
  CHECK(both.accepted);
  CHECK(both.no_zeroes);
  CHECK_FALSE(parse_client_flags(0).accepted);  // old newstyle
  CHECK_FALSE(parse_client_flags(kClientNoZeroes).accepted);
  CHECK_FALSE(parse_client_flags(kClientFixedNewstyle | 4).accepted);  // unknown bit
}

TEST_CASE("NBD option header: magic checked, fields big-endian", "[nbd]") {
  std::uint8_t b[16];
  put64(b, kOptMagic);
  put32(b + 8, kOptGo);
  put32(b + 12, 0x01020304);
  OptionHeader h;
  REQUIRE(decode_option_header(b, h));
  CHECK(h.option == kOptGo);
  CHECK(h.length == 0x01020304);
  b[0] ^= 1;
  CHECK_FALSE(decode_option_header(b, h));
}

TEST_CASE("NBD_OPT_GO and NBD_OPT_INFO describe the export", "[nbd]") {
  const Export ex = test_export();
  for (const std::uint32_t opt : {std::uint32_t(kOptGo), std::uint32_t(kOptInfo)}) {
    CAPTURE(opt);
    for (const std::string name : {"", "drive"}) {
      const auto data = go_data(name, {kInfoBlockSize, kInfoName, 42});
      const OptionOutcome out = handle_option({opt, std::uint32_t(data.size())}, data, ex, false);
      CHECK(out.next == (opt == kOptGo ? Next::kTransmission : Next::kContinue));
      const auto replies = parse_replies(out.reply);
      REQUIRE(replies.size() == 4);
      for (const auto& r : replies) CHECK(r.option == opt);
      bool saw_export = false, saw_block = false, saw_name = false;
      for (std::size_t i = 0; i + 1 < replies.size(); ++i) {
        const auto& r = replies[i];
        REQUIRE(r.type == kRepInfo);
        const std::uint16_t info = get16(r.data.data());
        if (info == kInfoExport) {
          REQUIRE(r.data.size() == 12);
          CHECK(get64(&r.data[2]) == ex.size);
          CHECK(get16(&r.data[10]) == ex.flags);
          saw_export = true;
        } else if (info == kInfoBlockSize) {
          REQUIRE(r.data.size() == 14);
          CHECK(get32(&r.data[2]) == 512);
          CHECK(get32(&r.data[6]) == 4096);
          CHECK(get32(&r.data[10]) == (32u << 20));
          saw_block = true;
        } else if (info == kInfoName) {
          CHECK(std::string(r.data.begin() + 2, r.data.end()) == "drive");
          saw_name = true;
        }
      }
      CHECK(saw_export);
      CHECK(saw_block);
      CHECK(saw_name);
      CHECK(replies.back().type == kRepAck);
      CHECK(replies.back().data.empty());
    }
  }
}

TEST_CASE("NBD_OPT_GO errors: unknown export, malformed data", "[nbd]") {
  const Export ex = test_export();
  auto single_error = [&](const std::vector<std::uint8_t>& data) {
    const OptionOutcome out = handle_option({kOptGo, std::uint32_t(data.size())}, data, ex, false);
    CHECK(out.next == Next::kContinue);  // the client may try again
    const auto replies = parse_replies(out.reply);
    REQUIRE(replies.size() == 1);
    return replies[0].type;
  };
  CHECK(single_error(go_data("other", {})) == kRepErrUnknown);
  CHECK(single_error({0, 0, 0}) == kRepErrInvalid);  // shorter than the fixed part
  auto long_name = go_data("drive", {});
  put32(&long_name[0], 100);  // name runs past the end
  CHECK(single_error(long_name) == kRepErrInvalid);
  auto bad_count = go_data("drive", {kInfoBlockSize});
  put16(&bad_count[4 + 5], 3);  // claims three info requests, carries one
  CHECK(single_error(bad_count) == kRepErrInvalid);
}

TEST_CASE("NBD_OPT_EXPORT_NAME: size, flags and zeroes unless refused", "[nbd]") {
  const Export ex = test_export();
  const std::vector<std::uint8_t> none;
  OptionOutcome out = handle_option({kOptExportName, 0}, none, ex, false);
  CHECK(out.next == Next::kTransmission);
  REQUIRE(out.reply.size() == 8 + 2 + 124);
  CHECK(get64(&out.reply[0]) == ex.size);
  CHECK(get16(&out.reply[8]) == ex.flags);
  out = handle_option({kOptExportName, 0}, none, ex, true);
  CHECK(out.reply.size() == 10);
  const std::vector<std::uint8_t> wrong = {'x'};
  out = handle_option({kOptExportName, 1}, wrong, ex, true);
  CHECK(out.next == Next::kClose);  // cannot answer with an error: hard disconnect
  CHECK(out.reply.empty());
}

TEST_CASE("NBD options other than GO, INFO, EXPORT_NAME, ABORT are unsupported", "[nbd]") {
  const Export ex = test_export();
  for (const std::uint32_t opt :
       {std::uint32_t(kOptStructuredReply), std::uint32_t(kOptList), std::uint32_t(kOptStartTls),
        std::uint32_t(kOptListMetaContext), std::uint32_t(kOptSetMetaContext), 0xdeadu}) {
    CAPTURE(opt);
    const OptionOutcome out = handle_option({opt, 0}, {}, ex, false);
    CHECK(out.next == Next::kContinue);
    const auto replies = parse_replies(out.reply);
    REQUIRE(replies.size() == 1);
    CHECK(replies[0].option == opt);
    CHECK(replies[0].type == kRepErrUnsup);
  }
  const OptionOutcome abort = handle_option({kOptAbort, 0}, {}, ex, false);
  CHECK(abort.next == Next::kClose);
  const auto replies = parse_replies(abort.reply);
  REQUIRE(replies.size() == 1);
  CHECK(replies[0].type == kRepAck);
}

TEST_CASE("NBD requests and replies round-trip big-endian", "[nbd]") {
  std::uint8_t b[kRequestBytes];
  const Request r = req(kCmdWrite, 0x0102030405060708ull, 0x0a0b0c0d, kCmdFlagFua);
  encode_request(b, r);
  CHECK(get32(b) == kRequestMagic);
  CHECK(b[16] == 0x01);
  CHECK(b[23] == 0x08);
  Request back;
  REQUIRE(decode_request(b, back));
  CHECK(back.type == r.type);
  CHECK(back.flags == r.flags);
  CHECK(back.handle == r.handle);
  CHECK(back.offset == r.offset);
  CHECK(back.length == r.length);
  b[0] = 0;
  CHECK_FALSE(decode_request(b, back));
  std::uint8_t reply[kReplyBytes];
  encode_simple_reply(reply, kEinval, 0x99);
  CHECK(get32(reply) == kSimpleReplyMagic);
  CHECK(get32(reply + 4) == 22);
  CHECK(get64(reply + 8) == 0x99);
}

TEST_CASE("NBD request checks: the errors the spec asks for", "[nbd]") {
  const Export ex = test_export();
  const std::uint64_t end = ex.size;
  // Acceptable requests.
  CHECK(check_request(req(kCmdRead, 0, 4096), ex) == kOk);
  CHECK(check_request(req(kCmdWrite, end - 512, 512, kCmdFlagFua), ex) == kOk);
  CHECK(check_request(req(kCmdRead, 0, 32u << 20), ex) == kOk);
  CHECK(check_request(req(kCmdTrim, 0, std::uint32_t(end)), ex) == kOk);  // trim has no payload limit
  CHECK(check_request(req(kCmdFlush, 0, 0), ex) == kOk);
  CHECK(check_request(req(kCmdFlush, 0, 0, kCmdFlagFua), ex) == kOk);  // FUA valid on every command
  CHECK(check_request(req(kCmdDisc, 0, 0), ex) == kOk);
  // Beyond the export: EINVAL for reads and trims, ENOSPC for writes.
  CHECK(check_request(req(kCmdRead, end, 512), ex) == kEinval);
  CHECK(check_request(req(kCmdRead, end - 512, 1024), ex) == kEinval);
  CHECK(check_request(req(kCmdTrim, end - 512, 1024), ex) == kEinval);
  CHECK(check_request(req(kCmdWrite, end - 512, 1024), ex) == kEnospc);
  CHECK(check_request(req(kCmdWrite, ~0ull - 511, 1024), ex) == kEnospc);  // no overflow
  // Zero length, too long, unaligned.
  CHECK(check_request(req(kCmdRead, 0, 0), ex) == kEinval);
  CHECK(check_request(req(kCmdWrite, 0, 0), ex) == kEinval);
  CHECK(check_request(req(kCmdTrim, 0, 0), ex) == kEinval);
  CHECK(check_request(req(kCmdRead, 0, (32u << 20) + 512), ex) == kEinval);
  CHECK(check_request(req(kCmdWrite, 0, (32u << 20) + 512), ex) == kEinval);
  CHECK(check_request(req(kCmdRead, 100, 512), ex) == kEinval);
  CHECK(check_request(req(kCmdWrite, 0, 100), ex) == kEinval);
  // Unknown commands and flags, flags not valid here.
  CHECK(check_request(req(5, 0, 512), ex) == kEinval);  // CACHE: not offered
  CHECK(check_request(req(6, 0, 512), ex) == kEinval);  // WRITE_ZEROES: not offered
  CHECK(check_request(req(77, 0, 512), ex) == kEinval);
  CHECK(check_request(req(kCmdRead, 0, 512, kCmdFlagDf), ex) == kEinval);  // no structured replies
  CHECK(check_request(req(kCmdWrite, 0, 512, kCmdFlagNoHole), ex) == kEinval);
  CHECK(check_request(req(kCmdRead, 0, 512, 0x8000), ex) == kEinval);
  CHECK(check_request(req(kCmdFlush, 0, 512), ex) == kEinval);  // offset and length must be zero
  // Features the export does not offer.
  Export bare = ex;
  bare.flags = kTxHasFlags;
  CHECK(check_request(req(kCmdTrim, 0, 4096), bare) == kEinval);
  CHECK(check_request(req(kCmdFlush, 0, 0), bare) == kEinval);
  CHECK(check_request(req(kCmdWrite, 0, 4096, kCmdFlagFua), bare) == kEinval);
  Export read_only = ex;
  read_only.flags |= kTxReadOnly;
  CHECK(check_request(req(kCmdWrite, 0, 4096), read_only) == kEperm);
  CHECK(has_payload(req(kCmdWrite, 0, 4096)));
  CHECK_FALSE(has_payload(req(kCmdRead, 0, 4096)));
}
