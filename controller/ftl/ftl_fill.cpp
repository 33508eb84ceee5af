// A sequential fill of fresh LPNs in whole pages (issue 25: "filling a drive costs no more than
// writing its mapping tables once"). The same placement as PageWriter's page-at-a-time path -
// write_to_buffer() for each unit, then place() on the next die in turn - with everything that
// path decides and cannot happen here taken out of the loop: no old copy to invalidate, no GC
// work (tested when a block is opened, the only time a die's free blocks change), no buffer
// slot, no NAND operation to record. Whole rounds (a page on every die) are written a die at a
// time, so that each die's block receives its pages in one run. It stops, leaving the rest to
// the general path, at the first page where that path would do anything else. Plain C++.
#include <algorithm>

#include "controller/ftl/ftl.h"

namespace ssdlab {

namespace {

// One die's pages of `rounds` rounds: its block's units from `base` on, LPNs from `lpn` on in
// steps of `stride` per page; `p2l(unit, lpn)` stores a P2L entry. kUpp: units per page known at
// compile time (0: `upp`).
template <std::uint32_t kUpp, class P2lStore>
void store_run(std::uint32_t* l2p, P2lStore p2l, Pua base, Lpn lpn, std::uint64_t rounds, std::uint64_t stride,
               std::uint32_t upp) {
  const std::uint32_t n = kUpp ? kUpp : upp;
  for (std::uint64_t r = 0; r < rounds; ++r, base += n, lpn += static_cast<Lpn>(stride)) {
    for (std::uint32_t i = 0; i < n; ++i) {
      l2p[lpn + i] = base + i;
      p2l(base + i, lpn + i);
    }
  }
}

}  // namespace

// place() of a host page on `die` would program it at once (no GC owed, no wait, no refusal),
// opening a block first when the die has none.
bool Ftl::places_without_gc(std::uint32_t die) const {
  const DieState& d = m_dies[die];
  if (m_gc.active_victim(die) >= 0 || needs_gc(die) || d.free_count < m_host_floor) return false;
  return d.host.block >= 0 || (d.free_count > kHostReserveBlocks && d.free_count - 1 >= m_host_floor);
}

std::uint64_t Ftl::fill_fresh_pages(Lpn first, std::uint64_t pages, std::uint32_t& next_die) {
  if (m_hybrid || m_slc_limit || pages == 0) return 0;  // an SLC cache: the host's blocks are chosen per block
  const std::uint32_t upp = m_geo.units_per_page;
  const std::uint32_t ppb = m_geo.pages_per_block;
  const std::uint32_t dies = m_geo.dies;
  std::uint32_t* const l2p = m_l2p.data();
  Lpn* const p2l = m_p2l.array();  // null when spilled: then through set()
  const auto spilled = [this](Pua u, Lpn l) { m_p2l.set(u, l); };
  static_assert(kUnmapped == ~Pua(0), "the test below ANDs entries");
  const auto unmapped = [l2p](std::uint64_t lpn, std::uint64_t end) {
    std::uint32_t all = kUnmapped;  // an AND of the entries: the loop vectorises
    for (std::uint64_t i = lpn; i < end; ++i) all &= l2p[i];
    return all == kUnmapped;
  };
  // Every block free and every unit the host wrote programmed: no LPN maps to flash or to the
  // write buffer (the host's units written exceed those programmed by at least the LPNs still
  // buffered), so none of the LPNs to be written needs checking.
  bool nothing_mapped = m_stats.host_units_written == m_stats.host_units_programmed;
  for (std::uint32_t die = 0; die < m_geo.dies; ++die)  // every good block free
    nothing_mapped =
        nothing_mapped && m_dies[die].free_count + (m_die_bad.empty() ? 0 : m_die_bad[die]) == m_geo.blocks_per_die;
  const std::uint64_t sequence0 = m_sequence;
  std::uint64_t done = 0;
  // Whole rounds, each die's pages of them in one run: as many rounds as every die's open (or
  // next) block has pages left.
  while (pages - done >= dies) {
    std::uint64_t rounds = (pages - done) / dies;
    bool simple = true;
    for (std::uint32_t die = 0; die < dies && simple; ++die) {
      simple = places_without_gc(die);
      const DieState& d = m_dies[die];
      rounds = std::min<std::uint64_t>(rounds, d.host.block >= 0 ? ppb - d.host.next_page : ppb);
    }
    const std::uint64_t lpn0 = first + done * upp;
    if (!simple || !(nothing_mapped || unmapped(lpn0, lpn0 + rounds * dies * upp))) break;
    for (std::uint32_t j = 0; j < dies; ++j) {
      const std::uint32_t die = (next_die + j) % dies;
      DieState& d = m_dies[die];
      if (d.host.block < 0) open_block(die, d.host, kHostReserveBlocks);
      const auto block = static_cast<std::uint32_t>(d.host.block);
      const Pua base = m_geo.first_unit_of_page(block, d.host.next_page);
      const std::uint64_t stride = std::uint64_t(dies) * upp;  // LPNs from one page of the die to its next
      const Lpn lpn = static_cast<Lpn>(lpn0 + j * upp);
      const auto in_array = [p2l](Pua u, Lpn l) { p2l[u] = l; };
      if (p2l && upp == 1) {
        store_run<1>(l2p, in_array, base, lpn, rounds, stride, upp);
      } else if (p2l && upp == 2) {
        store_run<2>(l2p, in_array, base, lpn, rounds, stride, upp);
      } else if (p2l) {
        store_run<0>(l2p, in_array, base, lpn, rounds, stride, upp);
      } else {
        store_run<0>(l2p, spilled, base, lpn, rounds, stride, upp);
      }
      m_valid[block] += static_cast<std::uint32_t>(rounds * upp);
      d.host.next_page += static_cast<std::uint32_t>(rounds);
    }
    // Blocks filled by the last round close in page order, each at the sequence number of its
    // last page (write_to_buffer() counts every unit of a page before the page is placed).
    for (std::uint32_t j = 0; j < dies; ++j) {
      DieState& d = m_dies[(next_die + j) % dies];
      if (d.host.next_page < ppb) continue;
      m_sequence = sequence0 + (done + (rounds - 1) * dies + j + 1) * upp;
      close_block(static_cast<std::uint32_t>(d.host.block));
      d.host.block = -1;
    }
    done += rounds * dies;
    m_sequence = sequence0 + done * upp;
  }
  // The last partial round (or after a round that was not simple), a page at a time.
  for (; done < pages; ++done) {
    const std::uint32_t die = next_die;
    const std::uint64_t lpn0 = first + done * upp;
    if (!places_without_gc(die) || !(nothing_mapped || unmapped(lpn0, lpn0 + upp))) break;
    DieState& d = m_dies[die];
    if (d.host.block < 0) open_block(die, d.host, kHostReserveBlocks);
    const auto block = static_cast<std::uint32_t>(d.host.block);
    const Pua base = m_geo.first_unit_of_page(block, d.host.next_page++);
    store_run<0>(l2p, spilled, base, static_cast<Lpn>(lpn0), 1, 0, upp);  // set(): either table
    m_valid[block] += upp;
    m_sequence += upp;
    if (d.host.next_page == ppb) {
      close_block(block);
      d.host.block = -1;
    }
    next_die = die + 1 == dies ? 0 : die + 1;
  }
  m_stats.host_units_written += done * upp;
  m_stats.host_units_programmed += done * upp;
  m_stats.pages_programmed += done;
  return done;
}

}  // namespace ssdlab
