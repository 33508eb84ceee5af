// AHCI host bus adapter: 32 command slots; with NCQ up to `tags` commands are outstanding
// at the drive and may complete in any order. Requests beyond that wait, in order, for a free
// tag. A non-queued command (TRIM, FLUSH CACHE) waits until no command is outstanding and holds
// back everything behind it until it completes. Before a command's FIS goes, the HBA fetches its
// command header and table from host memory (host.ahci.command), one command at a time.
#pragma once

#include <vector>

#include "base/core/probe.h"
#include "base/core/ring.h"
#include "controller/sc/sata_if.h"
#include "host/io_request.h"

namespace ssdlab {

struct HostAdapterIf : virtual sc_core::sc_interface {
  virtual void submit(IoRequest* request) = 0;
};

struct IoCompletionIf : virtual sc_core::sc_interface {
  virtual void io_done(IoRequest* request) = 0;
};

class AhciHba : public sc_core::sc_module, public HostAdapterIf, public SataHostIf {
 public:
  sc_core::sc_port<SataLinkIf> link;
  sc_core::sc_port<IoCompletionIf> completion;

  AhciHba(sc_core::sc_module_name name, std::uint32_t tags, Picos command_fetch_ps = 0);

  void submit(IoRequest* request) override;
  void receive_from_device(const Fis& fis) override;
  std::uint32_t tags() const { return static_cast<std::uint32_t>(m_slots.size()); }
  // Instruments: every request's completion (its anatomy complete) goes to `probe` (null: none).
  void set_probe(Probe* probe) { m_probe = probe; }
  std::uint32_t in_flight() const { return tags() - static_cast<std::uint32_t>(m_free_tags.size()); }

 private:
  void issue(IoRequest* request, std::uint8_t tag);
  void pump();

  std::vector<IoRequest*> m_slots;
  std::vector<std::uint8_t> m_free_tags;  // stack: lowest tag on top
  Ring<IoRequest*> m_waiting;
  bool m_exclusive = false;  // a non-queued command is outstanding
  Picos m_fetch_ps;          // host.ahci.command
  Picos m_fetch_end = 0;     // when the last command fetch ends
  Probe* m_probe = nullptr;
};

}  // namespace ssdlab
