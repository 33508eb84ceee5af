// One NAND die: executes its queue of operations one at a time. An operation is a sequence
// of phases that occupy either the shared channel bus (command cycles, data in/out) or only
// the die's array (tR, tPROG, tBERS).
//
// Dies are plain objects in one array of the flash array (a SystemC module), one cache line of
// hot state each: with 64 dies and the FTL's random accesses between two callbacks of the same
// die, every line a die callback touches is a likely cache miss.
#pragma once

#include <array>
#include <cstdint>

#include "model/config/config.h"
#include "model/core/anatomy.h"
#include "model/core/nand_op.h"
#include "model/core/ring.h"
#include "model/core/types.h"
#include "model/time/timeline.h"

namespace ssdlab {

class Calendar;
using Channel = Calendar;

struct DieListener {
  // `t`: when the op was submitted, waited, used the bus and the array (model/core/anatomy.h).
  virtual void die_done(const NandOp& op, const OpTiming& t) = 0;

 protected:
  ~DieListener() = default;
};

class Probe;

struct DieStats {
  Picos busy_ps = 0;
  std::array<Picos, 3> busy_by_origin_ps{};  // of busy_ps: host, GC and mapping-table ops (OpOrigin)
  std::uint64_t reads = 0, programs = 0, erases = 0;
};

class alignas(64) Die final : private TimerClient {
 public:
  Die() = default;
  Die(const Die&) = delete;
  Die& operator=(const Die&) = delete;
  // `index`: the die's number; `channel_index`: its channel's (for the probe).
  void init(const NandConfig& config, Timeline& timeline, Channel& channel, DieListener& listener, std::uint32_t index,
            std::uint32_t channel_index);
  void set_probe(Probe* probe) { m_probe = probe; }

  void submit(const NandOp& op) {
    if (m_phase == Phase::kIdle) {
      start(op, now_picos(), {});  // the queue is empty whenever the die is idle
    } else {
      m_queue.push(op);
      m_waits.push(queue_stamp());
    }
  }

  std::size_t queued() const { return m_queue.size() + (m_phase != Phase::kIdle); }
  bool idle() const { return m_phase == Phase::kIdle && m_queue.empty(); }
  const DieStats& stats() const { return m_stats; }
  // Busy time including the op in progress up to now (all of it, or that of ops of `origin`).
  Picos busy_until_now() const;
  Picos busy_until_now(OpOrigin origin) const;

 private:
  // kArray covers the command (and program data) on the bus, then the array time.
  enum class Phase : std::uint8_t { kIdle, kArray, kBusDataOut };
  // A queued op's submission: when, and the die's busy time per origin then (with the op in
  // progress counted up to then), so that its wait can be split by what it waited behind.
  struct QueueStamp {
    Picos submitted;
    std::array<Picos, 3> busy_by_origin;
  };
  QueueStamp queue_stamp() const;
  void start(const NandOp& op, Picos submitted, const std::array<Picos, 3>& behind);
  void on_timer(std::uint32_t what) override;
  void finish();
  Picos array_time(const NandOp& op) const;
  Picos bus_time(std::uint32_t bytes);

  // First cache line: what every callback reads (the vtable pointer comes first).
  NandOp m_current;
  Picos m_op_start = 0;
  Timeline::Lane m_lane{0};  // one operation at a time: its callbacks come in time order
  Phase m_phase = Phase::kIdle;
  bool m_page_types_pow2 = true;  // page type by mask, not division (SLC, MLC)
  std::uint32_t m_page_types = 1;
  std::uint32_t m_memo_bytes = 0;  // the last transfer size and its bus time: sizes repeat
  Picos m_memo_ps = 0;
  // Second line on: the queue, where everything else lives, statistics.
  Ring<NandOp> m_queue;
  Ring<QueueStamp> m_waits;  // one per queued op, in the same order
  OpTiming m_timing;         // of the op in progress
  const NandConfig* m_config = nullptr;
  Timeline* m_timeline = nullptr;
  Channel* m_channel = nullptr;
  DieListener* m_listener = nullptr;
  DieStats m_stats;
  Probe* m_probe = nullptr;
  std::uint32_t m_index = 0, m_channel_index = 0;
};

}  // namespace ssdlab
