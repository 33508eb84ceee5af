#include "host/nbd/nbd_protocol.h"

#include <algorithm>

namespace ssdlab::nbd {

namespace {

void append_option_reply(std::vector<std::uint8_t>& out, std::uint32_t option, std::uint32_t type,
                         const std::vector<std::uint8_t>& payload = {}) {
  const std::size_t at = out.size();
  out.resize(at + 20 + payload.size());
  put64(&out[at], kOptReplyMagic);
  put32(&out[at + 8], option);
  put32(&out[at + 12], type);
  put32(&out[at + 16], static_cast<std::uint32_t>(payload.size()));
  if (!payload.empty()) std::copy(payload.begin(), payload.end(), out.begin() + std::ptrdiff_t(at + 20));
}

void append_error(std::vector<std::uint8_t>& out, std::uint32_t option, std::uint32_t type,
                  const std::string& message) {
  append_option_reply(out, option, type, std::vector<std::uint8_t>(message.begin(), message.end()));
}

std::vector<std::uint8_t> info_export(const Export& ex) {
  std::vector<std::uint8_t> p(12);
  put16(&p[0], kInfoExport);
  put64(&p[2], ex.size);
  put16(&p[10], ex.flags);
  return p;
}

std::vector<std::uint8_t> info_block_size(const Export& ex) {
  std::vector<std::uint8_t> p(14);
  put16(&p[0], kInfoBlockSize);
  put32(&p[2], ex.min_block);
  put32(&p[6], ex.preferred_block);
  put32(&p[10], ex.max_block);
  return p;
}

std::vector<std::uint8_t> info_string(std::uint16_t type, const std::string& s) {
  std::vector<std::uint8_t> p(2 + s.size());
  put16(&p[0], type);
  std::copy(s.begin(), s.end(), p.begin() + 2);
  return p;
}

// NBD_OPT_INFO / NBD_OPT_GO: name length, name, count of info requests, the requests.
OptionOutcome info_or_go(const OptionHeader& h, const std::vector<std::uint8_t>& data, const Export& ex) {
  OptionOutcome out;
  const std::size_t n = data.size();
  if (n < 6) {
    append_error(out.reply, h.option, kRepErrInvalid, "option data too short");
    return out;
  }
  const std::uint32_t name_len = get32(&data[0]);
  if (name_len > n - 6) {
    append_error(out.reply, h.option, kRepErrInvalid, "export name longer than the option");
    return out;
  }
  const std::string name(data.begin() + 4, data.begin() + 4 + name_len);
  const std::uint16_t requests = get16(&data[4 + name_len]);
  if (std::size_t(6) + name_len + 2 * std::size_t(requests) != n) {
    append_error(out.reply, h.option, kRepErrInvalid, "information request list does not match the length");
    return out;
  }
  if (!ex.accepts(name)) {
    append_error(out.reply, h.option, kRepErrUnknown, "no export named '" + name + "' (try '" + ex.name + "')");
    return out;
  }
  bool want_name = false, want_description = false;
  for (std::uint16_t i = 0; i < requests; ++i) {
    const std::uint16_t type = get16(&data[6 + name_len + 2 * std::size_t(i)]);
    want_name |= type == kInfoName;
    want_description |= type == kInfoDescription;
  }
  append_option_reply(out.reply, h.option, kRepInfo, info_export(ex));
  // Sent unasked too: the constraints hold whether or not the client asked for them.
  append_option_reply(out.reply, h.option, kRepInfo, info_block_size(ex));
  if (want_name) append_option_reply(out.reply, h.option, kRepInfo, info_string(kInfoName, ex.name));
  if (want_description && !ex.description.empty()) {
    append_option_reply(out.reply, h.option, kRepInfo, info_string(kInfoDescription, ex.description));
  }
  append_option_reply(out.reply, h.option, kRepAck);
  out.next = h.option == kOptGo ? Next::kTransmission : Next::kContinue;
  return out;
}

}  // namespace

const char* error_name(std::uint32_t error) {
  switch (error) {
    case kOk:
      return "ok";
    case kEperm:
      return "EPERM";
    case kEio:
      return "EIO";
    case kEnomem:
      return "ENOMEM";
    case kEinval:
      return "EINVAL";
    case kEnospc:
      return "ENOSPC";
    case kEoverflow:
      return "EOVERFLOW";
    case kEnotsup:
      return "ENOTSUP";
    case kEshutdown:
      return "ESHUTDOWN";
  }
  return "unknown error";
}

std::array<std::uint8_t, kGreetingBytes> greeting() {
  std::array<std::uint8_t, kGreetingBytes> g{};
  put64(&g[0], kNbdMagic);
  put64(&g[8], kOptMagic);
  put16(&g[16], kFlagFixedNewstyle | kFlagNoZeroes);
  return g;
}

ClientFlags parse_client_flags(std::uint32_t flags) {
  ClientFlags c;
  // Only fixed newstyle is served: a client that does not speak it could not be sent an
  // error for an option it does not like.
  c.accepted = (flags & kClientFixedNewstyle) && !(flags & ~(kClientFixedNewstyle | kClientNoZeroes));
  c.no_zeroes = flags & kClientNoZeroes;
  return c;
}

bool decode_option_header(const std::uint8_t* p, OptionHeader& out) {
  if (get64(p) != kOptMagic) return false;
  out.option = get32(p + 8);
  out.length = get32(p + 12);
  return true;
}

OptionOutcome handle_option(const OptionHeader& h, const std::vector<std::uint8_t>& data, const Export& ex,
                            bool no_zeroes) {
  OptionOutcome out;
  switch (h.option) {
    case kOptExportName: {
      const std::string name(data.begin(), data.end());
      if (!ex.accepts(name)) {  // this option cannot answer with an error: hard disconnect
        out.next = Next::kClose;
        return out;
      }
      out.reply.assign(10 + (no_zeroes ? 0 : 124), 0);
      put64(&out.reply[0], ex.size);
      put16(&out.reply[8], ex.flags);
      out.next = Next::kTransmission;
      return out;
    }
    case kOptAbort:
      append_option_reply(out.reply, h.option, kRepAck);
      out.next = Next::kClose;
      return out;
    case kOptInfo:
    case kOptGo:
      return info_or_go(h, data, ex);
    default:
      append_error(out.reply, h.option, kRepErrUnsup, "option not supported by ssdlab");
      return out;
  }
}

bool decode_request(const std::uint8_t* p, Request& out) {
  if (get32(p) != kRequestMagic) return false;
  out.flags = get16(p + 4);
  out.type = get16(p + 6);
  out.handle = get64(p + 8);
  out.offset = get64(p + 16);
  out.length = get32(p + 24);
  return true;
}

void encode_request(std::uint8_t* p, const Request& r) {
  put32(p, kRequestMagic);
  put16(p + 4, r.flags);
  put16(p + 6, r.type);
  put64(p + 8, r.handle);
  put64(p + 16, r.offset);
  put32(p + 24, r.length);
}

void encode_simple_reply(std::uint8_t* p, std::uint32_t error, std::uint64_t handle) {
  put32(p, kSimpleReplyMagic);
  put32(p + 4, error);
  put64(p + 8, handle);
}

std::uint32_t check_request(const Request& r, const Export& ex) {
  if (r.type == kCmdDisc) return kOk;
  if (r.type != kCmdRead && r.type != kCmdWrite && r.type != kCmdFlush && r.type != kCmdTrim) return kEinval;
  // FUA is valid on every command once advertised; nothing else is (DF needs structured replies).
  const std::uint16_t allowed = (ex.flags & kTxSendFua) ? kCmdFlagFua : 0;
  if (r.flags & ~allowed) return kEinval;
  if (r.type == kCmdFlush) {
    if (!(ex.flags & kTxSendFlush)) return kEinval;
    return r.offset == 0 && r.length == 0 ? kOk : kEinval;
  }
  if (r.type == kCmdTrim && !(ex.flags & kTxSendTrim)) return kEinval;
  if (r.type == kCmdWrite && (ex.flags & kTxReadOnly)) return kEperm;
  if (r.length == 0) return kEinval;
  if (r.type != kCmdTrim && r.length > ex.max_block) return kEinval;
  if (r.offset % ex.min_block != 0 || r.length % ex.min_block != 0) return kEinval;
  if (r.offset > ex.size || r.length > ex.size - r.offset) return r.type == kCmdWrite ? kEnospc : kEinval;
  return kOk;
}

}  // namespace ssdlab::nbd
