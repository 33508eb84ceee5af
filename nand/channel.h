// A channel bus shared by the dies on it: one transfer at a time, granted in request order.
#pragma once

#include <systemc>

#include "model/core/ring.h"
#include "model/core/types.h"

namespace ssdlab {

class Die;

class Channel : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Channel);
  explicit Channel(sc_core::sc_module_name name);

  // `die` wants the bus for `duration`; it is called back with Die::bus_done() at the end.
  void request(Die& die, Picos duration);
  Picos busy_ps() const { return m_busy_ps; }

 private:
  struct Request {
    Die* die = nullptr;
    Picos duration = 0;
  };
  void start(const Request& r);
  void on_done();

  Ring<Request> m_waiting;
  Die* m_owner = nullptr;
  sc_core::sc_event m_done_event;
  Picos m_busy_ps = 0;
};

}  // namespace ssdlab
