#include "host/sata/ahci_hba.h"

#include <algorithm>
#include <stdexcept>

#include "base/time/timeline.h"

namespace ssdlab {

AhciHba::AhciHba(sc_core::sc_module_name name, std::uint32_t tags, Picos command_fetch_ps)
    : sc_core::sc_module(name), m_slots(tags, nullptr), m_waiting(64), m_fetch_ps(command_fetch_ps) {
  if (tags == 0 || tags > 32) throw std::invalid_argument("AHCI supports 1..32 NCQ tags");
  for (std::uint32_t t = tags; t > 0; --t) m_free_tags.push_back(static_cast<std::uint8_t>(t - 1));
}

void AhciHba::submit(IoRequest* request) {
  request->anatomy.start(now_picos());  // issued now: the anatomy's first stamp
  m_waiting.push(request);
  pump();
}

void AhciHba::pump() {
  while (!m_waiting.empty() && !m_exclusive && !m_free_tags.empty()) {
    IoRequest* next = m_waiting.front();
    if (!is_queued(next->command)) {
      if (in_flight() != 0) return;  // drain the NCQ queue first
      m_exclusive = true;
    }
    m_waiting.pop();
    const std::uint8_t tag = m_free_tags.back();
    m_free_tags.pop_back();
    issue(next, tag);
  }
}

void AhciHba::issue(IoRequest* request, std::uint8_t tag) {
  request->tag = tag;
  request->tagged_ps = now_picos();
  request->anatomy.to(Part::kHostQueue, request->tagged_ps);
  m_slots[tag] = request;
  Fis cmd{FisKind::kCommand, tag, request->command, request->lba, request->sectors, 0};
  cmd.fua = request->fua;
  cmd.host_data = request->data;
  cmd.anatomy = &request->anatomy;
  // The command FIS is booked on the link now, to start when its fetch ends: a FIS the device
  // asks to send meanwhile waits behind it (the link grants in request order), at most one
  // fetch time.
  m_fetch_end = std::max(m_fetch_end, request->tagged_ps) + m_fetch_ps;
  request->anatomy.to(Part::kHostAdapter, m_fetch_end);
  const LinkBooking b = link->transmit(cmd, m_fetch_end);
  request->anatomy.link(b.start, b.end);
}

void AhciHba::receive_from_device(const Fis& fis) {
  if (fis.kind != FisKind::kSetDeviceBits) return;  // data went straight to host memory (DMA)
  IoRequest* request = m_slots[fis.tag];
  m_slots[fis.tag] = nullptr;
  request->completed_ps = now_picos();
  request->anatomy.to(Part::kHostAdapter, request->completed_ps);  // the HBA's completion report
  request->error = fis.error;
  if (!is_queued(request->command)) m_exclusive = false;
  m_free_tags.push_back(fis.tag);
  pump();
  if (m_probe) m_probe->command_done(*request);
  completion->io_done(request);
}

}  // namespace ssdlab
