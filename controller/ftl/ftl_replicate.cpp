// Fast aging by replication (issue 25): a drive whose dies see statistically alike work (uniform
// random writes, page mapping, GC within each die) is aged by aging one group of its dies with its
// share of the LPNs, then copying that group's state onto every other group of dies with the LPNs
// renumbered. What it may be used for, and the check against simulated aging, are in
// controller/ftl/precondition.h and docs/aging.md. Plain C++.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "controller/ftl/ftl.h"

namespace ssdlab {

Ftl Ftl::die_group(std::uint32_t group_dies, std::uint64_t user_units) const {
  if (group_dies == 0 || group_dies > m_geo.dies || user_units == 0) {
    throw std::invalid_argument("die group: " + std::to_string(group_dies) + " dies and " + std::to_string(user_units) +
                                " units do not make a drive");
  }
  DriveConfig c;
  c.name = "die group";
  c.nand.channels = 1;
  c.nand.dies_per_channel = group_dies * m_geo.pages_per_unit;
  c.nand.planes_per_die = m_geo.planes;  // multi-plane: blocks_per_die counts block groups (geometry.h)
  c.nand.blocks_per_plane = m_geo.blocks_per_die;
  c.nand.pages_per_block = m_geo.pages_per_block;
  c.nand.page_size_bytes = m_geo.plane_page_bytes;  // the flash page (a virtual page is k of them)
  c.controller.mapping_unit_bytes = m_geo.unit_bytes;
  c.controller.user_bytes = user_units * m_geo.unit_bytes;
  c.controller.gc = m_gc.config();
  c.controller.wear.mode =
      m_cold.on() ? WearLeveling::kStatic : (m_dynamic_wl ? WearLeveling::kDynamic : WearLeveling::kNone);
  c.controller.wear.threshold = m_cold.threshold();
  c.nand.endurance_pe = m_endurance;
  c.controller.ftl = FtlScheme::kPage;
  Ftl group(c);
  if (group.m_geo.dies != group_dies || group.m_geo.units_per_block != m_geo.units_per_block) {
    throw std::logic_error("die group: its geometry does not match the drive's");
  }
  return group;
}

void Ftl::replicate(std::uint32_t replicas, const std::function<const Ftl&(std::uint32_t)>& group_at) {
  if (replicas == 0 || m_geo.dies % replicas != 0) {
    throw std::invalid_argument("replicate: " + std::to_string(replicas) + " replicas do not divide " +
                                std::to_string(m_geo.dies) + " dies");
  }
  if (m_hybrid || m_striped || m_listener) {
    throw std::logic_error("replicate: only a page-mapped drive with in-die GC that keeps no data");
  }
  if (free_blocks_total() != m_geo.blocks) throw std::logic_error("replicate: the drive already holds data");
  const std::uint32_t group_dies = m_geo.dies / replicas;
  const std::uint32_t upp = m_geo.units_per_page;
  const std::uint32_t upb = m_geo.units_per_block;
  const std::uint32_t bpd = m_geo.blocks_per_die;
  const std::uint64_t R = replicas;

  std::fill(m_l2p.begin(), m_l2p.end(), kUnmapped);
  m_policy = empty_victims(m_geo, m_gc.config());
  m_gc.clear();
  // Per block: how far behind the write sequence its last change is, in this drive's writes.
  std::vector<std::uint64_t> behind(m_geo.blocks, 0);
  std::uint64_t sequence = m_sequence;
  std::vector<Lpn> entries(upb);

  for (std::uint32_t r = 0; r < replicas; ++r) {
    const Ftl& g = group_at(r);
    if (g.m_geo.dies != group_dies || g.m_geo.blocks_per_die != bpd || g.m_geo.units_per_block != upb ||
        g.m_geo.units_per_page != upp || g.m_l2p.size() * R > m_l2p.size() || g.m_hybrid || g.m_striped) {
      throw std::invalid_argument("replicate: the group is not a die group of this drive");
    }
    const auto block_of = [&](std::uint32_t gb) { return ((gb / bpd) * replicas + r) * bpd + gb % bpd; };
    const auto lpn_of = [&](Lpn q) { return static_cast<Lpn>((std::uint64_t(q / upp) * R + r) * upp + q % upp); };
    const auto unit_of = [&](std::uint32_t u) {
      return static_cast<Pua>(std::uint64_t(block_of(u / upb)) * upb + u % upb);
    };
    const auto open_of = [&](const OpenBlock& o) {
      OpenBlock b = o;
      if (o.block >= 0) b.block = block_of(static_cast<std::uint32_t>(o.block));
      return b;
    };

    // The mapping.
    const auto units = static_cast<Lpn>(g.m_l2p.size());
    for (Lpn q = 0; q < units; ++q) {
      const std::uint32_t e = g.m_l2p[q];
      if (e == kUnmapped) continue;
      if (e & kBufferedBit) throw std::logic_error("replicate: the group has buffered units");
      m_l2p[lpn_of(q)] = unit_of(e);
    }
    // Blocks: valid counts, erase counts, states, ages, the LPN written in each unit.
    const std::uint64_t group_sequence = g.m_sequence;
    const std::vector<std::uint64_t>& ages = g.m_policy.ages();
    for (std::uint32_t gb = 0; gb < g.m_geo.blocks; ++gb) {
      const std::uint32_t b = block_of(gb);
      m_valid[b] = g.m_valid[gb];
      m_erase_count[b] += g.m_erase_count[gb];
      m_state[b] = g.m_state[gb];
      behind[b] = (group_sequence - std::min(ages[gb], group_sequence)) * R;
      g.m_p2l.read(static_cast<Pua>(std::uint64_t(gb) * upb), upb, entries.data());
      bool any = false;
      for (Lpn& lpn : entries) {
        if (lpn == kNoLpn) continue;
        lpn = lpn_of(lpn);
        any = true;
      }
      if (any) m_p2l.write(static_cast<Pua>(std::uint64_t(b) * upb), upb, entries.data());
    }
    // Dies: write points, free pools, GC progress, and the victim lists in their order.
    for (std::uint32_t gd = 0; gd < group_dies; ++gd) {
      const std::uint32_t die = gd * replicas + r;
      const DieState& from = g.m_dies[gd];
      DieState& to = m_dies[die];
      to.host = open_of(from.host);
      to.gc = open_of(from.gc);
      to.free_head = from.free_head;
      to.free_count = from.free_count;
      for (std::uint32_t i = 0; i < bpd; ++i) to.free_ring[i] = block_of(from.free_ring[i]);
      GarbageCollector::Die collect = g.m_gc.die(gd);
      if (collect.victim >= 0) collect.victim = block_of(static_cast<std::uint32_t>(collect.victim));
      for (Lpn& lpn : collect.pending) lpn = lpn_of(lpn);
      m_gc.die(die) = std::move(collect);
      if (m_policy.kind() == GcPolicyKind::kFifo) {
        for (const std::uint32_t b : g.m_policy.fifo_order(gd)) m_policy.closed(block_of(b), g.m_valid[b], 0);
      } else {
        const VictimIndex& index = g.m_policy.index();
        for (std::uint32_t v = 0; v <= upb; ++v) {  // each bucket oldest first, as the group keeps it
          for (std::int32_t b = index.oldest_with(gd, v); b != VictimIndex::kNone; b = index.next_in_bucket(b)) {
            m_policy.closed(block_of(static_cast<std::uint32_t>(b)), v, 0);
          }
        }
      }
    }
    // Counters.
    sequence += group_sequence;
    const FtlStats& s = g.m_stats;
    m_stats.host_units_written += s.host_units_written;
    m_stats.host_units_programmed += s.host_units_programmed;
    m_stats.gc_units_copied += s.gc_units_copied;
    m_stats.pad_units += s.pad_units;
    m_stats.pages_programmed += s.pages_programmed;
    m_stats.erases += s.erases;
    m_stats.gc_erases += s.gc_erases;
    m_stats.gc_victims += s.gc_victims;
    m_stats.units_trimmed += s.units_trimmed;
    m_stats.wl_victims += s.wl_victims;
    m_stats.wl_units_copied += s.wl_units_copied;
  }
  m_sequence = sequence;
  std::vector<std::uint64_t> ages(m_geo.blocks);
  for (std::uint32_t b = 0; b < m_geo.blocks; ++b) ages[b] = sequence - std::min(behind[b], sequence);
  m_policy.restore_ages(std::move(ages));
  rebuild_wear();
}

}  // namespace ssdlab
