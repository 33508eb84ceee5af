// Latency anatomy: where one request's time went, as consecutive segments of its critical
// path. Every stamp moves one mark forward and charges the time since the last stamp to one
// part, so the parts always sum exactly to (last stamp - first stamp): completion - issue.
// Fixed size, carried inside the host's request record; the drive writes into it through the
// pointer its command FIS carries (a simulator's probe: no real FIS holds one).
#pragma once

#include <array>
#include <cstdint>

#include "base/core/types.h"

namespace ssdlab {

enum class Part : std::uint8_t {
  kHostQueue,     // issued -> NCQ tag obtained (all tags busy, or a non-queued command drains)
  kLinkWait,      // the request's own FISes waited for the SATA wire
  kLinkTransfer,  // the request's own FISes on the wire (command, data, completion)
  kFwQueue,       // command received -> firmware CPU starts it (behind other commands)
  kFirmware,      // firmware CPU time for the command (GC bookkeeping charged to it included)
  kMapWait,       // waiting for translation pages (mapping-cache misses) before the data reads
  kBufferWait,    // waiting for write-buffer space before the data may come
  kStaging,       // data in the buffer -> its page program is submitted (write-through)
  kDieWaitHost,   // the critical flash op queued at its die behind host operations
  kDieWaitGc,     // ... behind garbage-collection operations
  kDieWaitMap,    // ... behind mapping-table (translation page) operations
  kBusWait,       // the critical flash op waited for the channel bus
  kBusTransfer,   // its command cycles and data on the channel bus
  kArray,         // its array time: tR, tPROG or tBERS
  kFlushWait,     // FLUSH CACHE: the buffer going to flash
  kReadRetry,     // the critical read's retry attempts (their commands, tR and data-outs)
  kEcc,           // the critical read's ECC decodes, one per attempt
  kLinkWake,      // its command waited for the link to leave Partial or Slumber (host.link_pm)
  kHostAdapter,   // the AHCI adapter's command fetch and completion report (host.ahci)
  kReadDma,       // its last read data leaving the controller's buffer for the link (controller.read_dma_rate)
  kUsb,           // host.link usb2: its CBW, the USB data beyond the SATA hop, its CSW, the host's turnarounds
  kCount
};
constexpr std::size_t kParts = static_cast<std::size_t>(Part::kCount);
// The parts' storage, rounded up to even so that adding one anatomy to another is whole vector
// operations (the slots past kParts stay 0).
constexpr std::size_t kPartSlots = 22;
static_assert(kParts <= kPartSlots);

// Stable names (summary.json keys, latency-log columns, explain text).
inline const char* part_name(Part p) {
  static constexpr const char* kNames[kParts] = {
      "host_queue", "link_wait",     "link_transfer", "fw_queue",     "firmware",     "map_wait",     "buffer_wait",
      "staging",    "die_wait_host", "die_wait_gc",   "die_wait_map", "bus_wait",     "bus_transfer", "array",
      "flush_wait", "read_retry",    "ecc",           "link_wake",    "host_adapter", "read_dma",     "usb"};
  return kNames[static_cast<std::size_t>(p)];
}

// The timing of one completed flash operation, from the die's point of view. Segments:
// submitted -> started (die queue, split by the origin of the work ahead: `behind`),
// started -> cmd_bus_start (bus wait), -> array_start (command cycles and program data on the
// bus), -> array_end (array), -> out_bus_start (bus wait for the data out; reads with data),
// -> out_end (data out), -> finished (a read's ECC decodes and read-retry attempts, with bit
// errors only; `ecc` of it decoding). For ops without a data-out phase out_bus_start == out_end ==
// array_end; without bit errors out_end == finished. A cache read (nand.cache_read) issued its
// command in the slot of the read before it: its cmd_bus_start and array_start (and maybe its
// array_end) come before `started`; with cache read every read's data-out phase begins with the
// slot (one t_cmd) that moves its page to the cache register.
struct OpTiming {
  Picos submitted = 0, started = 0, cmd_bus_start = 0, array_start = 0, array_end = 0, out_bus_start = 0, out_end = 0,
        finished = 0;
  Picos ecc = 0;
  std::array<Picos, 3> behind{};  // indexed by OpOrigin: host, GC, map
};

struct Anatomy {
  std::array<Picos, kPartSlots> part{};
  Picos mark = 0;
  std::uint64_t device_serial = 0;  // the drive's command serial (joins host and flash records)

  void start(Picos t) {
    part = {};
    mark = t;
    device_serial = 0;
  }
  // Charge the time since the last stamp to `p`.
  void to(Part p, Picos t) {
    part[static_cast<std::size_t>(p)] += t - mark;
    mark = t;
  }
  // Charge to `p` the time from the last stamp up to `t`, if the mark is not already past it
  // (a FIS booked on the link moves the mark to its delivery, ahead of the clock).
  void wait_until(Part p, Picos t) {
    if (t > mark) to(p, t);
  }
  Picos& operator[](Part p) { return part[static_cast<std::size_t>(p)]; }
  Picos operator[](Part p) const { return part[static_cast<std::size_t>(p)]; }
  // A FIS of this request booked on the link: waited until `start`, on the wire until `end`. (A
  // command that woke the link was stamped kLinkWake up to the wake's end by the link itself.)
  void link(Picos start, Picos end) {
    to(Part::kLinkWait, start);
    to(Part::kLinkTransfer, end);
  }
  // The request's critical flash op (the last it waited for): the time from the last stamp to
  // the op's submission is staging; then the op's own segments.
  void flash_op(const OpTiming& t) {
    to(Part::kStaging, t.submitted);
    (*this)[Part::kDieWaitHost] += t.behind[0];
    (*this)[Part::kDieWaitGc] += t.behind[1];
    (*this)[Part::kDieWaitMap] += t.behind[2];
    mark = t.started;
    if (__builtin_expect(t.array_start < t.started, 0)) {
      // A cache read's command, and maybe its tR, came before it started (while the read before
      // it went out, counted as its wait behind that read): only what follows its start counts.
      wait_until(Part::kArray, t.array_end);
    } else {
      to(Part::kBusWait, t.cmd_bus_start);
      to(Part::kBusTransfer, t.array_start);
      to(Part::kArray, t.array_end);
    }
    to(Part::kBusWait, t.out_bus_start);
    to(Part::kBusTransfer, t.out_end);
    if (t.finished != t.out_end) {  // bit errors: decodes, and the retries between them
      (*this)[Part::kEcc] += t.ecc;
      (*this)[Part::kReadRetry] += t.finished - t.out_end - t.ecc;
      mark = t.finished;
    }
  }
  // A read-ahead op the request joined while it was in flight (controller.read_ahead): of the
  // op's segments, what came after the request's last stamp.
  void read_ahead_op(const OpTiming& t) {
    wait_until(Part::kDieWaitHost, t.started);
    wait_until(Part::kBusWait, t.cmd_bus_start);
    wait_until(Part::kBusTransfer, t.array_start);
    wait_until(Part::kArray, t.array_end);
    wait_until(Part::kBusWait, t.out_bus_start);
    wait_until(Part::kBusTransfer, t.out_end);
    wait_until(Part::kEcc, t.finished);  // its decodes (and retries, with bit errors)
  }
  Picos total() const {
    Picos sum = 0;
    for (Picos v : part) sum += v;
    return sum;
  }
};

}  // namespace ssdlab
