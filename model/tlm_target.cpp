#include "model/tlm_target.h"

#include "base/time/timeline.h"
#include "model/ssd.h"

namespace ssdlab {

TlmTarget::TlmTarget(sc_core::sc_module_name name, Ssd& ssd)
    : sc_core::sc_module(name), socket("socket"), m_port(ssd, *this), m_due("due") {
  socket.register_b_transport(this, &TlmTarget::b_transport);
  socket.register_nb_transport_fw(this, &TlmTarget::nb_transport_fw);
  SC_METHOD(on_request_due);
  sensitive << m_due.get_event();
  dont_initialize();
}

bool TlmTarget::to_request(tlm::tlm_generic_payload& gp, PortRequest& r) const {
  gp.set_dmi_allowed(false);
  r = PortRequest{};
  r.offset = gp.get_address();
  r.length = gp.get_data_length();
  r.data = gp.get_data_ptr();
  switch (gp.get_command()) {
    case tlm::TLM_READ_COMMAND:
      r.op = PortOp::kRead;
      break;
    case tlm::TLM_WRITE_COMMAND:
      r.op = PortOp::kWrite;
      break;
    default: {
      const SsdCommandExtension* ext = gp.get_extension<SsdCommandExtension>();
      if (!ext) {  // the base protocol's ignore: nothing to do
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return false;
      }
      r.op = ext->op == SsdCommandExtension::Op::kTrim ? PortOp::kTrim : PortOp::kFlush;
      r.fua = ext->fua;
      r.data = nullptr;
      break;
    }
  }
  if (gp.get_byte_enable_ptr() != nullptr) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if ((r.op == PortOp::kRead || r.op == PortOp::kWrite) && gp.get_streaming_width() < r.length) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (!m_port.check(r).empty()) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  return true;
}

void TlmTarget::issue(tlm::tlm_generic_payload& gp, bool blocking) {
  PortRequest r;
  to_request(gp, r);  // checked when the payload arrived
  const std::uint32_t slot = m_pending.acquire();
  m_pending[slot] = Pending{&gp, blocking, false, false};
  m_port.submit(r, slot);
}

// ---- LT --------------------------------------------------------------------------------------

void TlmTarget::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  PortRequest r;
  if (!to_request(gp, r)) return;
  if (delay != sc_core::SC_ZERO_TIME) {
    sc_core::wait(delay);  // issue at the initiator's local time
    delay = sc_core::SC_ZERO_TIME;
  }
  const std::uint32_t slot = m_pending.acquire();
  m_pending[slot] = Pending{&gp, true, false, false};
  m_port.submit(r, slot);
  while (!m_pending[slot].done) sc_core::wait(m_blocking_done);
  const bool error = m_pending[slot].error;
  m_pending.release(slot);
  gp.set_response_status(error ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
}

// ---- AT --------------------------------------------------------------------------------------

tlm::tlm_sync_enum TlmTarget::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                              sc_core::sc_time& delay) {
  if (phase == tlm::END_RESP) {
    close_response(gp);
    send_responses();
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR("ssdlab/tlm_target", "nb_transport_fw: a phase other than BEGIN_REQ or END_RESP");
    return tlm::TLM_COMPLETED;
  }
  PortRequest r;
  if (!to_request(gp, r)) return tlm::TLM_COMPLETED;  // answered at once
  if (gp.has_mm()) gp.acquire();
  // Issue at the initiator's time; inside the drive's event queue that may be ahead of
  // SystemC's time (a BEGIN_REQ sent from a BEGIN_RESP's call), and never earlier than the
  // drive's own now: a request announced for a time the drive has passed issues now.
  const Picos at = sc_core::sc_time_stamp().value() + delay.value();
  if (at <= now_picos()) {
    issue(gp, false);
  } else {
    m_due.notify(gp, delay);
  }
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void TlmTarget::on_request_due() {
  while (tlm::tlm_generic_payload* gp = m_due.get_next_transaction()) issue(*gp, false);
}

void TlmTarget::port_done(std::uint64_t token, bool error) {
  const auto slot = static_cast<std::uint32_t>(token);
  Pending& p = m_pending[slot];
  if (p.blocking) {
    p.done = true;
    p.error = error;
    Timeline::notify(m_blocking_done);  // the thread wakes at the completion's time
    return;
  }
  tlm::tlm_generic_payload& gp = *p.gp;
  m_pending.release(slot);
  gp.set_response_status(error ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
  m_responses.push_back(&gp);
  send_responses();
}

void TlmTarget::send_responses() {
  while (!m_response_open && !m_responses.empty()) {
    tlm::tlm_generic_payload& gp = *m_responses.front();
    m_responses.pop_front();
    // The initiator may react by scheduling SystemC activity at this time: the drive's event
    // queue runs nothing later until it has.
    Timeline::notify(m_sync);
    m_response_open = true;
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = to_sc_time(now_picos() - sc_core::sc_time_stamp().value());
    const tlm::tlm_sync_enum s = socket->nb_transport_bw(gp, phase, delay);
    if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::END_RESP)) close_response(gp);
  }
}

void TlmTarget::close_response(tlm::tlm_generic_payload& gp) {
  m_response_open = false;
  if (gp.has_mm()) gp.release();
}

}  // namespace ssdlab
