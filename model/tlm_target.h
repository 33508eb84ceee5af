// The drive's TLM-2.0 front door: a target socket that takes generic payloads at byte
// addresses (READ, WRITE; TRIM and FLUSH through an ignorable extension) and hands them to the
// drive's host port (model/host_port.h), so that they cross the same AHCI port, SATA link and
// firmware as a host's commands in `ssdlab run`, and take the same simulated time.
//
// - LT, b_transport: the target first waits out the annotated delay (the request issues at the
//   initiator's local time), then waits while the drive works, and returns with delay zero: the
//   latency is the simulated time that passed inside the call. Several threads may call it at
//   once; their requests share the drive's NCQ tags.
// - AT, nb_transport_fw (base protocol): BEGIN_REQ is accepted at once (TLM_UPDATED, END_REQ),
//   the request issues at sc_time_stamp() + delay, so an initiator keeps as many in flight as it
//   likes and NCQ sees them. BEGIN_RESP goes back on the backward path at the completion's
//   simulated time: the drive's event queue may run ahead of SystemC's time
//   (base/time/timeline.h), so the call carries delay = completion time - sc_time_stamp(), and a
//   BEGIN_REQ sent from inside that call with the same delay issues at once, as a host driver's
//   next command does. One response at a time (END_RESP or TLM_COMPLETED before the next).
//
// Responses: TLM_OK_RESPONSE; TLM_ADDRESS_ERROR_RESPONSE for a range not inside the drive or not
// in whole sectors; TLM_BYTE_ENABLE_ERROR_RESPONSE with byte enables; TLM_BURST_ERROR_RESPONSE
// with a streaming width below the length; TLM_GENERIC_ERROR_RESPONSE when the drive fails the
// command. A TLM_IGNORE_COMMAND without the extension does nothing (TLM_OK_RESPONSE). Data moves
// only on a drive built with keep_data; DMI and debug transport are not offered.
#pragma once

#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <deque>
#include <tlm>

#include "base/core/slot_pool.h"
#include "model/host_port.h"

namespace ssdlab {

class Ssd;

// TRIM (ATA DATA SET MANAGEMENT) and FLUSH (FLUSH CACHE) on a TLM_IGNORE_COMMAND payload, whose
// address and data length give the trimmed range: a target that does not know the extension
// ignores the payload, as the base protocol asks. `fua` on a trim: a flush follows it.
class SsdCommandExtension : public tlm::tlm_extension<SsdCommandExtension> {
 public:
  enum class Op : std::uint8_t { kTrim, kFlush };
  explicit SsdCommandExtension(Op op_ = Op::kFlush, bool fua_ = false) : op(op_), fua(fua_) {}
  tlm::tlm_extension_base* clone() const override { return new SsdCommandExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const SsdCommandExtension&>(other);
  }

  Op op;
  bool fua;
};

class TlmTarget : public sc_core::sc_module, private PortClient {
 public:
  tlm_utils::simple_target_socket<TlmTarget> socket;

  SC_HAS_PROCESS(TlmTarget);
  // Takes the drive's host port (a drive has one host: nothing else binds ssd.hba.completion).
  TlmTarget(sc_core::sc_module_name name, Ssd& ssd);

  std::uint64_t capacity_bytes() const { return m_port.capacity_bytes(); }
  // Per ATA command, as `ssdlab run` counts.
  const IoStats& io_stats() const { return m_port.io_stats(); }

 private:
  struct Pending {
    tlm::tlm_generic_payload* gp = nullptr;
    bool blocking = false;  // b_transport waits for it
    bool done = false, error = false;
  };

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  // The drive request of `gp`; false when the payload is answered without the drive (its
  // response status then set).
  bool to_request(tlm::tlm_generic_payload& gp, PortRequest& r) const;
  void issue(tlm::tlm_generic_payload& gp, bool blocking);
  void on_request_due();  // AT requests whose time has come
  void port_done(std::uint64_t token, bool error) override;
  // BEGIN_RESP for the completed payloads, one open at a time.
  void send_responses();
  void close_response(tlm::tlm_generic_payload& gp);

  HostPort m_port;
  SlotPool<Pending> m_pending;  // the host port's token is the slot
  sc_core::sc_event m_blocking_done;
  sc_core::sc_event m_sync;  // notified to stop the drive's event queue at a response's time
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> m_due;
  std::deque<tlm::tlm_generic_payload*> m_responses;  // completed, BEGIN_RESP not sent yet
  bool m_response_open = false;
};

}  // namespace ssdlab
