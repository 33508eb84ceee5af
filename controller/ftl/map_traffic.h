// Mapping-table traffic (controller.mapping_cache): the flash reads and write-backs of
// translation pages that touching the cached mapping costs, and the data reads of each read
// command that wait for its translation pages. Plain C++, owned by the controller's SystemC
// module, which submits the ops it appends.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "base/config/config.h"
#include "controller/controller_stats.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/mapping_cache.h"
#include "controller/hil/command_queue.h"
#include "controller/sched/op_ticket.h"

namespace ssdlab {

class MapTraffic {
 public:
  // The cache holds controller.mapping_cache bytes of translation pages (0: all of them).
  // Translation-page reads and write-backs are counted in `stats`.
  MapTraffic(const Ftl& ftl, const DriveConfig& config, ControllerStats& stats);

  const MappingCache& cache() const { return m_cache; }
  bool unlimited() const { return m_cache.unlimited(); }
  std::uint64_t translation_page(Lpn lpn) const { return m_cache.translation_page(lpn); }

  // Touches `lpn`'s translation page (an update marks it dirty): appends to `ops` the
  // write-back of an evicted dirty page and, on a miss, the read (carrying `read_ticket`).
  // Returns true on a read.
  bool access(Lpn lpn, bool update, OpTicket read_ticket, OpList& ops);
  // A read of `units` LPNs from `first`: each translation page once. Returns the reads issued.
  std::uint32_t lookup_range(Lpn first, std::uint32_t units, OpTicket read_ticket, OpList& ops);
  // TRIM of LPNs [first, end): each translation page updated once.
  void update_range(std::uint64_t first, std::uint64_t end, OpList& ops);

  // The data reads of read command `tag`, held until its translation pages are in.
  std::vector<NandOp>& deferred(std::uint8_t tag) { return m_deferred[tag]; }
  // Moves them to `ops`.
  void release_deferred(std::uint8_t tag, OpList& ops) {
    std::vector<NandOp>& held = m_deferred[tag];
    ops.insert(ops.end(), held.begin(), held.end());
    held.clear();
  }

  // The FTL's mapping was replaced: every translation page that maps anything to flash is on
  // flash, so that a miss on it reads it.
  void mapping_loaded(const Ftl& ftl);
  // Secure erase: the table is rebuilt empty.
  void clear() { m_cache.clear(); }
  // Fast preconditioning counts through this cache (precondition.h).
  MappingCache& cache() { return m_cache; }

 private:
  NandOp map_op(NandOpKind kind, std::uint64_t translation_page, std::uint32_t cookie) const;

  Geometry m_geo;
  MappingCache m_cache;
  std::array<std::vector<NandOp>, CommandQueue::kMaxTags> m_deferred;
  ControllerStats& m_stats;
};

}  // namespace ssdlab
