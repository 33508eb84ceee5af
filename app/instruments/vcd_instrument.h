// `ssdlab run --vcd FILE`: a Value Change Dump of one drive (VcdWriter), every change in it.
// Signals, under scope `drive`: ncq_in_flight (NCQ tags in use at the HBA), buffer_used and
// buffer_dirty (write-buffer slots allocated / waiting for flash), link_busy (a FIS on the SATA
// wire), gc_dies (dies with a GC victim in progress); per channel `bus` (busy); per die `state`
// (0 idle, 1 host op, 2 GC op, 3 mapping op), `free_blocks` and `gc` (a victim in progress).
//
// Where the changes come from: the levels (tags, buffer, free blocks, GC) are polled after every
// callback of the drive's Timeline and whenever a SystemC process schedules one (the Timeline
// observer), so a change made while the pump runs ahead of SystemC's time is stamped with the
// callback's own time. Bus and link bookings (Probe::bus, Probe::fis) arrive ahead of their
// time (bus bookings not always in the order of their start); a die's operation (Probe::nand_op) arrives when it ends,
// so its state is known up to the end of the die's last finished operation while it is busy. Changes wait in
// VcdWriter's heap until no earlier one can arrive; that is at most the longest flash operation behind the drive's
// current time, so memory stays bounded.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "app/instruments/vcd_writer.h"
#include "base/core/probe.h"
#include "base/time/timeline.h"

namespace ssdlab {

class Ssd;

class VcdInstrument final : public Probe, public TimelineObserver {
 public:
  // Declares the signals of `ssd` and writes the header; attach() connects it. Only changes in
  // [start, end) are written, with the values at `start` dumped there.
  VcdInstrument(const std::string& path, Ssd& ssd, Picos start = 0, Picos end = ~Picos(0));
  ~VcdInstrument() override;  // detaches from the Timeline if close() was not called
  // Registers as the drive's probe and its Timeline's observer (before the simulation starts).
  void attach();
  // After the simulation: the final values, every change left, the file closed; detaches.
  void close();

  void observe(Picos when) override;
  void nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t* serials, std::uint32_t count) override;
  void bus(std::uint32_t channel, std::uint32_t die, Picos start, Picos end) override;
  void fis(const Fis& fis, Picos start, Picos end) override;

  std::uint64_t late_changes() const { return m_vcd.late_changes(); }
  std::uint64_t changes_written() const { return m_vcd.changes_written(); }
  std::uint64_t bytes_written() const { return m_vcd.bytes_written(); }

 private:
  // A resource booked in request order (a channel bus, the link): busy runs merge, and the
  // end of the last run is written once nothing can start at that instant any more.
  struct Booked {
    std::uint32_t var = 0;
    bool open = false;  // a run whose end is not yet in the heap
    Picos end = 0;
  };
  // A channel bus: a die books its transfers when its operation starts, a read's data-out ahead
  // of its time, so a later booking may start earlier (in a gap). Bookings wait here in start
  // order until nothing can start before them (they start at or after the time they are made).
  struct ChannelTrack {
    Booked run;
    std::deque<std::pair<Picos, Picos>> ahead;  // sorted by start
  };
  struct DieTrack {
    std::uint32_t state_var = 0, free_var = 0, gc_var = 0;
    Picos last_end = 0;  // end of the last finished operation
    Picos known = 0;     // every change of `state` before this is in the heap
    bool open = false;   // the idle after last_end is not yet in the heap
    std::uint64_t free_blocks = 0;
    bool gc = false;
  };
  void book(Booked& b, Picos start, Picos end);
  void settle(Booked& b, Picos now, bool final);
  void settle(ChannelTrack& c, Picos now, bool final);
  void poll(Picos when);
  // Puts in the heap what is settled by `now` and returns the time before which every
  // change is there.
  Picos settle_all(Picos now, bool final);

  Ssd& m_ssd;
  VcdWriter m_vcd;
  std::uint32_t m_ncq_var, m_used_var, m_dirty_var, m_gc_dies_var;
  std::uint64_t m_ncq = 0, m_used = 0, m_dirty = 0, m_gc_dies = 0;
  Booked m_link;
  std::vector<ChannelTrack> m_channels;
  std::vector<DieTrack> m_dies;
  Picos m_last = 0;  // the latest time polled
  bool m_attached = false, m_closed = false;
};

}  // namespace ssdlab
