// One NAND die: executes its queue of operations one at a time. An operation is a sequence
// of phases that occupy either the shared channel bus (command cycles, data in/out) or only
// the die's array (tR, tPROG, tBERS).
#pragma once

#include <systemc>

#include "model/core/config.h"
#include "model/core/nand_op.h"
#include "model/core/ring.h"
#include "model/core/types.h"
#include "nand/timeline.h"

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

class Die : public sc_core::sc_module, private TimerClient {
 public:
  Die(sc_core::sc_module_name name, const NandConfig& config, Timeline& timeline, Channel& channel,
      DieListener& listener);

  void submit(const NandOp& op);

  std::size_t queued() const { return m_queue.size() + (m_phase != Phase::kIdle); }
  bool idle() const { return m_phase == Phase::kIdle && m_queue.empty(); }
  const DieStats& stats() const { return m_stats; }
  // Busy time including the op in progress up to now.
  Picos busy_until_now() const;

 private:
  // kArray covers the command (and program data) on the bus, then the array time.
  enum class Phase { kIdle, kArray, kBusDataOut };
  void start_next();
  void on_timer(std::uint32_t what) override;
  void finish();
  Picos array_time(const NandOp& op) const;
  Picos bus_time(std::uint32_t bytes);

  const NandConfig& m_config;
  Timeline& m_timeline;
  Timeline::Lane m_lane;  // one operation at a time: its callbacks come in time order
  Channel& m_channel;
  DieListener& m_listener;
  std::uint32_t m_page_types;
  bool m_page_types_pow2;  // page type by mask, not division (SLC, MLC)
  std::uint32_t m_memo_bytes = 0;  // the last transfer size and its bus time: sizes repeat
  Picos m_memo_ps = 0;
  Ring<NandOp> m_queue;
  NandOp m_current;
  Phase m_phase = Phase::kIdle;
  Picos m_op_start = 0;
  DieStats m_stats;
};

}  // namespace ssdlab
