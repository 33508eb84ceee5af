#include "model/host_port.h"

#include <algorithm>
#include <limits>
#include <string>

#include "base/time/timeline.h"
#include "host/io_record.h"
#include "model/ssd.h"

namespace ssdlab {

HostPort::HostPort(Ssd& ssd, PortClient& client)
    : m_hba(ssd.hba),
      m_client(client),
      m_capacity(ssd.controller.user_sectors() * kSectorBytes),
      m_max_transfer(ssd.config().controller.max_transfer_bytes / kSectorBytes * kSectorBytes) {
  ssd.hba.completion(*this);
}

std::string HostPort::check(const PortRequest& r) const {
  if (r.op == PortOp::kFlush) return "";
  if (r.offset % kSectorBytes != 0 || r.length % kSectorBytes != 0) {
    return "offset " + std::to_string(r.offset) + " and length " + std::to_string(r.length) + " must be multiples of " +
           std::to_string(kSectorBytes) + " bytes";
  }
  if (r.length == 0) return "length 0";
  if (r.offset > m_capacity || r.length > m_capacity - r.offset) {
    return "bytes [" + std::to_string(r.offset) + ", " + std::to_string(r.offset + r.length) +
           ") are past the end of the drive (" + std::to_string(m_capacity) + " bytes)";
  }
  if (r.op == PortOp::kTrim && r.length / kSectorBytes > std::numeric_limits<std::uint32_t>::max()) {
    return "a trim of more than 2^32 sectors";
  }
  return "";
}

void HostPort::add_part(std::uint32_t slot, AtaCommand command, Lba lba, std::uint32_t sectors, std::uint8_t* data,
                        bool fua) {
  const std::uint32_t id = m_parts.acquire();
  Part& part = m_parts[id];
  if (!part.request) part.request = std::make_unique<IoRequest>();
  IoRequest& r = *part.request;
  r = IoRequest{};
  r.id = id;
  r.command = command;
  r.lba = lba;
  r.sectors = sectors;
  r.data = data;
  r.fua = fua;
  r.issued_ps = now_picos();
  r.seq = ++m_seq;
  part.owner = slot;
  ++m_active[slot].parts;
  if (!m_any_transfer && (command == AtaCommand::kReadFpdma || command == AtaCommand::kWriteFpdma)) {
    m_any_transfer = true;
    m_io.first_issue_ps = r.issued_ps;
  }
  m_hba.submit(&r);
}

void HostPort::submit(const PortRequest& req, std::uint64_t token) {
  const std::uint32_t slot = m_active.acquire();
  Active& a = m_active[slot];
  a.token = token;
  a.parts = 0;
  a.error = false;
  // The parts are counted as they are added: one that completes at once (none do: every
  // command crosses the link first) could not finish the request early.
  const Lba lba = req.offset / kSectorBytes;
  switch (req.op) {
    case PortOp::kRead:
    case PortOp::kWrite: {
      // Larger than one ATA command can carry: split, each part DMAs its slice of the buffer.
      const bool write = req.op == PortOp::kWrite;
      for (std::uint64_t done = 0; done < req.length;) {
        const std::uint64_t bytes = std::min<std::uint64_t>(m_max_transfer, req.length - done);
        add_part(slot, write ? AtaCommand::kWriteFpdma : AtaCommand::kReadFpdma, lba + done / kSectorBytes,
                 static_cast<std::uint32_t>(bytes / kSectorBytes), req.data ? req.data + done : nullptr,
                 write && req.fua);
        done += bytes;
      }
      break;
    }
    case PortOp::kTrim:
      // One DATA SET MANAGEMENT command (its range list grows with the length); FUA adds FLUSH CACHE.
      add_part(slot, AtaCommand::kDataSetManagement, lba, static_cast<std::uint32_t>(req.length / kSectorBytes),
               nullptr, false);
      if (req.fua) add_part(slot, AtaCommand::kFlushCache, 0, 0, nullptr, false);
      break;
    case PortOp::kFlush:
      add_part(slot, AtaCommand::kFlushCache, 0, 0, nullptr, false);
      break;
  }
}

void HostPort::io_done(IoRequest* r) {
  const std::uint32_t slot = m_parts[r->id].owner;
  Active& a = m_active[slot];
  a.error |= r->error;
  // ATA-level statistics exactly as `ssdlab run` records them (FLUSH CACHE, which scenarios
  // never issue, is not among them).
  if (r->command != AtaCommand::kFlushCache) record_completion(m_io, *r, m_last_completed_seq);
  m_parts.release(r->id);
  if (--a.parts != 0) return;
  m_active.release(slot);
  m_client.port_done(a.token, a.error);
}

}  // namespace ssdlab
