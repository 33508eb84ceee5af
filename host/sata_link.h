// The SATA link between HBA and drive: one FIS on the wire at a time, in request order;
// every byte costs 10 line bits (8b/10b) at the configured line rate.
#pragma once

#include "controller/sc/sata_if.h"
#include "model/core/config.h"
#include "model/core/ring.h"

namespace ssdlab {

struct LinkStats {
  Picos busy_ps = 0;
  std::uint64_t fises = 0, wire_bytes = 0;
};

class SataLink : public sc_core::sc_module, public SataLinkIf {
 public:
  sc_core::sc_port<SataDeviceIf> device;
  sc_core::sc_port<SataHostIf> host;

  SC_HAS_PROCESS(SataLink);
  SataLink(sc_core::sc_module_name name, const HostConfig& config);

  void transmit(const Fis& fis) override;
  Picos wire_time(const Fis& fis) const;
  const LinkStats& stats() const { return m_stats; }

 private:
  void start(const Fis& fis);
  void on_done();

  std::uint64_t m_line_bps;
  Ring<Fis> m_waiting;
  Fis m_current;
  bool m_busy = false;
  sc_core::sc_event m_done_event;
  LinkStats m_stats;
};

}  // namespace ssdlab
