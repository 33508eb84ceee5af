// libFuzzer target: the NBD decoders (host/nbd/nbd_protocol.h), fed as the server reads a
// connection: client flags, options until one ends the handshake, then requests (a WRITE's
// payload is skipped, as the server discards or consumes it). Only calls the decoders.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "host/nbd/nbd_protocol.h"

namespace nbd = ssdlab::nbd;

namespace {

const nbd::Export& fuzz_export() {
  static const nbd::Export ex = [] {
    nbd::Export e;
    e.name = "fuzz";
    e.description = "fuzz export";
    e.size = 1ULL << 30;
    e.flags = nbd::kTxHasFlags | nbd::kTxSendFlush | nbd::kTxSendTrim | nbd::kTxSendFua;
    return e;
  }();
  return ex;
}

// Options until the handshake ends; false if the connection would be closed.
bool handshake(const std::uint8_t*& p, const std::uint8_t* end) {
  if (end - p < 4) return false;
  const nbd::ClientFlags flags = nbd::parse_client_flags(nbd::get32(p));
  p += 4;
  if (!flags.accepted) return false;
  while (end - p >= static_cast<std::ptrdiff_t>(nbd::kOptionHeaderBytes)) {
    nbd::OptionHeader header;
    if (!nbd::decode_option_header(p, header)) return false;
    p += nbd::kOptionHeaderBytes;
    if (header.length > nbd::kMaxOptionBytes || header.length > std::size_t(end - p)) return false;
    const std::vector<std::uint8_t> payload(p, p + header.length);
    p += header.length;
    const nbd::OptionOutcome outcome = nbd::handle_option(header, payload, fuzz_export(), flags.no_zeroes);
    if (outcome.next == nbd::Next::kClose) return false;
    if (outcome.next == nbd::Next::kTransmission) return true;
  }
  return false;
}

void transmission(const std::uint8_t* p, const std::uint8_t* end) {
  while (end - p >= static_cast<std::ptrdiff_t>(nbd::kRequestBytes)) {
    nbd::Request r;
    if (!nbd::decode_request(p, r)) return;
    std::uint8_t again[nbd::kRequestBytes];
    nbd::encode_request(again, r);
    if (std::memcmp(again, p, nbd::kRequestBytes) != 0) std::abort();  // decode/encode disagree
    p += nbd::kRequestBytes;
    (void)nbd::error_name(nbd::check_request(r, fuzz_export()));
    std::uint8_t reply[nbd::kReplyBytes];
    nbd::encode_simple_reply(reply, nbd::kOk, r.handle);
    if (nbd::has_payload(r)) {
      if (r.length > std::size_t(end - p)) return;
      p += r.length;
    }
    if (r.type == nbd::kCmdDisc) return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // First byte: 0 = a whole connection from the client flags on; otherwise requests only.
  if (size == 0) return 0;
  const std::uint8_t* p = data + 1;
  const std::uint8_t* end = data + size;
  if (data[0] == 0 && !handshake(p, end)) return 0;
  transmission(p, end);
  return 0;
}
