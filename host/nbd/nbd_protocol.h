// The NBD wire protocol (fixed newstyle handshake, simple replies) as plain C++: constants,
// big-endian encoding, option handling and request validation. No sockets here: the Asio
// server (nbd_server.h) moves the bytes, this file decides what they mean, so every rule can
// be unit-tested on byte arrays. Reference: the NBD protocol document (doc/proto.md of the
// nbd project).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ssdlab::nbd {

// ---- magic numbers -------------------------------------------------------------------------
constexpr std::uint64_t kNbdMagic = 0x4e42444d41474943ULL;  // "NBDMAGIC"
constexpr std::uint64_t kOptMagic = 0x49484156454F5054ULL;  // "IHAVEOPT"
constexpr std::uint64_t kOptReplyMagic = 0x0003e889045565a9ULL;
constexpr std::uint32_t kRequestMagic = 0x25609513;
constexpr std::uint32_t kSimpleReplyMagic = 0x67446698;

// ---- handshake -----------------------------------------------------------------------------
constexpr std::uint16_t kFlagFixedNewstyle = 1 << 0;  // server handshake flags
constexpr std::uint16_t kFlagNoZeroes = 1 << 1;
constexpr std::uint32_t kClientFixedNewstyle = 1 << 0;  // client flags
constexpr std::uint32_t kClientNoZeroes = 1 << 1;

enum Option : std::uint32_t {
  kOptExportName = 1,
  kOptAbort = 2,
  kOptList = 3,
  kOptStartTls = 5,
  kOptInfo = 6,
  kOptGo = 7,
  kOptStructuredReply = 8,
  kOptListMetaContext = 9,
  kOptSetMetaContext = 10,
};

enum OptionReply : std::uint32_t {
  kRepAck = 1,
  kRepServer = 2,
  kRepInfo = 3,
  kRepErrUnsup = 0x80000001u,
  kRepErrPolicy = 0x80000002u,
  kRepErrInvalid = 0x80000003u,
  kRepErrUnknown = 0x80000006u,
  kRepErrShutdown = 0x80000007u,
};

enum Info : std::uint16_t { kInfoExport = 0, kInfoName = 1, kInfoDescription = 2, kInfoBlockSize = 3 };

// ---- transmission --------------------------------------------------------------------------
enum TransmissionFlag : std::uint16_t {
  kTxHasFlags = 1 << 0,
  kTxReadOnly = 1 << 1,
  kTxSendFlush = 1 << 2,
  kTxSendFua = 1 << 3,
  kTxRotational = 1 << 4,
  kTxSendTrim = 1 << 5,
  kTxCanMultiConn = 1 << 8,
};

enum Command : std::uint16_t { kCmdRead = 0, kCmdWrite = 1, kCmdDisc = 2, kCmdFlush = 3, kCmdTrim = 4 };

enum CommandFlag : std::uint16_t {
  kCmdFlagFua = 1 << 0,
  kCmdFlagNoHole = 1 << 1,
  kCmdFlagDf = 1 << 2,
  kCmdFlagReqOne = 1 << 3,
  kCmdFlagFastZero = 1 << 4,
};

enum Error : std::uint32_t {
  kOk = 0,
  kEperm = 1,
  kEio = 5,
  kEnomem = 12,
  kEinval = 22,
  kEnospc = 28,
  kEoverflow = 75,
  kEnotsup = 95,
  kEshutdown = 108,
};
const char* error_name(std::uint32_t error);

// What the server offers: one export, its size, its flags and block size constraints.
struct Export {
  std::string name;  // the empty name (the default export) is accepted too
  std::string description;
  std::uint64_t size = 0;
  std::uint16_t flags = kTxHasFlags;
  std::uint32_t min_block = 512;  // the drive's sector: smaller requests cannot be expressed
  std::uint32_t preferred_block = 4096;
  std::uint32_t max_block = 32u << 20;  // largest READ/WRITE payload
  bool accepts(const std::string& requested) const { return requested.empty() || requested == name; }
};

// ---- big-endian fields ---------------------------------------------------------------------
inline void put16(std::uint8_t* p, std::uint16_t v) {
  p[0] = std::uint8_t(v >> 8);
  p[1] = std::uint8_t(v);
}
inline void put32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = std::uint8_t(v >> (24 - 8 * i));
}
inline void put64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = std::uint8_t(v >> (56 - 8 * i));
}
inline std::uint16_t get16(const std::uint8_t* p) { return std::uint16_t(p[0] << 8 | p[1]); }
inline std::uint32_t get32(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}
inline std::uint64_t get64(const std::uint8_t* p) { return std::uint64_t(get32(p)) << 32 | get32(p + 4); }

// ---- handshake -----------------------------------------------------------------------------
constexpr std::size_t kGreetingBytes = 18;
constexpr std::size_t kClientFlagsBytes = 4;
constexpr std::size_t kOptionHeaderBytes = 16;
// Option data beyond this is treated as an attack on the server: the connection is closed.
constexpr std::uint32_t kMaxOptionBytes = 64 * 1024;

// NBDMAGIC, IHAVEOPT, handshake flags (fixed newstyle, no zeroes).
std::array<std::uint8_t, kGreetingBytes> greeting();

struct ClientFlags {
  bool accepted = false;  // fixed newstyle and nothing unknown; otherwise close the connection
  bool no_zeroes = false;
};
ClientFlags parse_client_flags(std::uint32_t flags);

struct OptionHeader {
  std::uint32_t option = 0;
  std::uint32_t length = 0;
};
// False when the magic is wrong (a malformed handshake: close the connection).
bool decode_option_header(const std::uint8_t* p, OptionHeader& out);

enum class Next { kContinue, kTransmission, kClose };
struct OptionOutcome {
  std::vector<std::uint8_t> reply;  // bytes to send (possibly none)
  Next next = Next::kContinue;      // after sending them
};
// The server's answer to one option. EXPORT_NAME, GO, INFO and ABORT are served; every other
// option is answered NBD_REP_ERR_UNSUP (structured replies, TLS, LIST, metadata contexts).
OptionOutcome handle_option(const OptionHeader& header, const std::vector<std::uint8_t>& data, const Export& ex,
                            bool no_zeroes);

// ---- transmission --------------------------------------------------------------------------
constexpr std::size_t kRequestBytes = 28;
constexpr std::size_t kReplyBytes = 16;

struct Request {
  std::uint16_t flags = 0;
  std::uint16_t type = 0;
  std::uint64_t handle = 0;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
};
// False when the magic is wrong: the stream is out of step, the connection must be closed.
bool decode_request(const std::uint8_t* p, Request& out);
void encode_request(std::uint8_t* p, const Request& r);  // (clients and tests)
void encode_simple_reply(std::uint8_t* p, std::uint32_t error, std::uint64_t handle);

// The error a request gets before it reaches the drive (kOk when it is acceptable). A WRITE's
// payload follows its header whatever the verdict: the server reads (or discards) `length`
// bytes of it either way, so the stream stays in step. DISC is always acceptable.
std::uint32_t check_request(const Request& r, const Export& ex);
inline bool has_payload(const Request& r) { return r.type == kCmdWrite; }

}  // namespace ssdlab::nbd
