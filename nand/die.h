// One NAND die: executes its queue of operations one at a time. An operation is a sequence
// of phases that occupy either the shared channel bus (command cycles, data in/out) or only
// the die's array (tR, tPROG, tBERS).
#pragma once

#include <systemc>

#include "model/core/config.h"
#include "model/core/nand_op.h"
#include "model/core/ring.h"
#include "model/core/types.h"

namespace ssdlab {

class Channel;

struct DieListener {
  virtual void die_done(const NandOp& op) = 0;
  virtual ~DieListener() = default;
};

struct DieStats {
  Picos busy_ps = 0;
  std::uint64_t reads = 0, programs = 0, erases = 0;
};

class Die : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Die);
  Die(sc_core::sc_module_name name, const NandConfig& config, Channel& channel,
      DieListener& listener);

  void submit(const NandOp& op);
  // The channel finished the bus phase this die asked for.
  void bus_done();

  std::size_t queued() const { return m_queue.size() + (m_phase != Phase::kIdle); }
  bool idle() const { return m_phase == Phase::kIdle && m_queue.empty(); }
  const DieStats& stats() const { return m_stats; }
  // Busy time including the op in progress up to now.
  Picos busy_until_now() const;

 private:
  enum class Phase { kIdle, kBusCommand, kArray, kBusDataOut };
  void start_next();
  void on_array_done();
  void finish();
  Picos array_time(const NandOp& op) const;
  Picos bus_time(std::uint32_t bytes) const;

  const NandConfig& m_config;
  Channel& m_channel;
  DieListener& m_listener;
  Ring<NandOp> m_queue;
  NandOp m_current;
  Phase m_phase = Phase::kIdle;
  Picos m_op_start = 0;
  sc_core::sc_event m_array_event;
  DieStats m_stats;
};

}  // namespace ssdlab
