#include "nand/channel.h"

#include "nand/die.h"
#include "nand/flash_if.h"

namespace ssdlab {

Channel::Channel(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  SC_METHOD(on_done);
  sensitive << m_done_event;
  dont_initialize();
}

void Channel::request(Die& die, Picos duration) {
  if (m_owner == nullptr) {
    start(Request{&die, duration});
  } else {
    m_waiting.push(Request{&die, duration});
  }
}

void Channel::start(const Request& r) {
  m_owner = r.die;
  m_busy_ps += r.duration;
  m_done_event.notify(to_sc_time(r.duration));
}

void Channel::on_done() {
  Die* finished = m_owner;
  m_owner = nullptr;
  if (!m_waiting.empty()) start(m_waiting.pop());
  finished->bus_done();
}

}  // namespace ssdlab
