#include "controller/ftl/precondition.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <vector>

#include "base/core/permutation.h"
#include "base/core/rng.h"

namespace ssdlab {

PageWriter::PageWriter(Ftl& ftl, PagePlacedListener* listener)
    : m_ftl(ftl), m_listener(listener), m_upp(ftl.geometry().units_per_page) {
  m_page.reserve(m_upp);
  m_ops.reserve(4 * std::size_t(ftl.geometry().pages_per_block) + 4);
}

void PageWriter::write(Lpn lpn) {
  // A newer write of an LPN still gathered for this page supersedes the older one, as in the
  // controller's write buffer: a page never holds one LPN twice. (Possible with several units
  // per page: at the end of the fill, wherever independent draws repeat an LPN, or where one
  // random permutation ends and the next begins.)
  for (std::size_t i = 0; i < m_page.size(); ++i) {
    if (m_page[i] == lpn) {
      m_page.erase(m_page.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  m_page.push_back(lpn);
  if (m_page.size() == m_upp) flush();
}

void PageWriter::write_sequential(Lpn first, std::uint64_t count) {
  std::uint64_t lpn = first;
  const std::uint64_t end = first + count;
  while (lpn < end && !m_page.empty()) write(static_cast<Lpn>(lpn++));
  if (m_listener == nullptr) {
    const std::uint64_t placed = m_ftl.fill_fresh_pages(static_cast<Lpn>(lpn), (end - lpn) / m_upp, m_next_die);
    lpn += placed * m_upp;
    m_written += placed * m_upp;
    if (placed) m_ops.clear();  // those pages have no operations listed (last_ops())
  }
  for (; lpn < end; ++lpn) write(static_cast<Lpn>(lpn));
}

void PageWriter::flush() {
  if (m_page.empty()) return;
  write_page(m_page.data(), static_cast<std::uint32_t>(m_page.size()));
  m_page.clear();
}

void PageWriter::write_page(const Lpn* lpns, std::uint32_t count) {
  if (__builtin_expect(m_ftl.read_only(), 0)) {
    throw std::runtime_error("the drive turned read-only after " + std::to_string(m_written) +
                             " units written: grown bad blocks used up a die's spare (nand.bad_blocks)");
  }
  for (std::uint32_t i = 0; i < count; ++i) m_ftl.write_to_buffer(lpns[i], i);
  const std::uint32_t dies = m_ftl.geometry().dies;
  std::uint32_t tries = dies;  // page mapping: any die, from the next in turn
  if (__builtin_expect(m_ftl.hybrid() != nullptr, 0)) {
    m_next_die = static_cast<std::uint32_t>(m_ftl.home_die(lpns[0]));  // its logical block's die, only
    tries = 1;
  }
  for (; tries > 0; --tries) {
    const std::uint32_t die = m_next_die;
    m_next_die = m_next_die + 1 == dies ? 0 : m_next_die + 1;
    if (!m_ftl.can_place(die)) continue;
    m_ops.clear();
    if (m_ftl.place(die, lpns, count, 0, m_ops)) {
      m_written += count;
      if (m_listener) m_listener->page_placed(lpns, count);
      return;
    }
  }
  throw std::runtime_error("no die can take a page (drive full of valid data?)");
}

namespace {

// The LPNs a `randwrite` job of bs = one mapping unit over `units` LPNs draws: with norandommap
// (independent draws) by default, with fio's random map when asked. Every write's mapping entry
// is a cache miss on a large drive: kAhead LPNs are drawn in advance and their entries
// prefetched, so that the misses overlap instead of queueing one by one. The draws come in the
// generator's order whatever is drawn ahead.
class RandomLpns {
 public:
  RandomLpns(const Ftl& ftl, std::uint64_t units, bool random_map, std::uint64_t seed)
      : m_ftl(ftl), m_units(units), m_random_map(random_map), m_rng(seed) {
    for (Lpn& lpn : m_ahead) lpn = draw();
  }
  Lpn next() {
    const Lpn lpn = m_ahead[m_at];
    m_ahead[m_at] = draw();
    m_at = (m_at + 1) % kAhead;
    return lpn;
  }

 private:
  static constexpr std::uint32_t kAhead = 16;
  Lpn draw() {
    Lpn lpn;
    if (!m_random_map) {
      lpn = static_cast<Lpn>(m_rng.below(m_units));
    } else {
      if (m_next == m_order.size()) {
        m_order = Permutation(m_units, m_rng);
        m_next = 0;
      }
      lpn = static_cast<Lpn>(m_order.at(m_next++));
    }
    m_ftl.prefetch(lpn);
    return lpn;
  }

  const Ftl& m_ftl;
  std::uint64_t m_units;
  bool m_random_map;
  Rng m_rng;
  Permutation m_order;
  std::uint64_t m_next = 0;
  std::array<Lpn, kAhead> m_ahead{};
  std::uint32_t m_at = 0;
};

std::uint64_t share_of(std::uint64_t units, double percent) {
  return static_cast<std::uint64_t>(double(units) * percent / 100.0);
}

// The group size replication uses: as asked, or the largest of 8, 4, 3, 2, 1 dies that divides the
// drive's dies into at least two groups. The copies of one group share its blocks' valid counts,
// so a drive replicated from a group of g dies has g independent dies: with groups of one die
// the p99 latency of the next writes came out +1.7 % high on the 64 GiB bench drive; with 4, the
// 1 TiB drive's next writes were 1.5-2 % slower at a WAF 1.5-1.9 % higher than simulated aging's
// (3 seeds against 2); with 8 they agree within the spread of simulated seeds (docs/aging.md).
std::uint32_t group_dies_for(const PreconditionSpec& spec, std::uint32_t dies) {
  if (spec.group_dies != 0) return spec.group_dies;
  for (const std::uint32_t d : {8u, 4u, 3u, 2u}) {
    if (dies % d == 0 && d < dies) return d;
  }
  return 1;
}

}  // namespace

std::string replication_blocker(const Ftl& ftl, const PreconditionSpec& spec, bool mapping_cache) {
  const Geometry& g = ftl.geometry();
  if (ftl.hybrid()) return "the hybrid FTL binds logical blocks to dies";
  if (ftl.striped_relocation()) return "striped GC relocation moves data between dies";
  if (ftl.has_listener()) return "the drive keeps data, which every write must reach";
  if (ftl.grows_bad_blocks()) return "grown bad blocks fail block by block (nand.bad_blocks.grown)";
  if (ftl.has_factory_bad_blocks()) return "each die has its own factory bad blocks (nand.bad_blocks.factory)";
  if (ftl.slc_cache()) return "each die's SLC cache follows its own free blocks (controller.slc_cache)";
  if (mapping_cache) return "the mapping cache is limited: its contents follow every write";
  if (ftl.free_blocks_total() != g.blocks) return "the drive already holds data";
  const std::uint32_t group = group_dies_for(spec, g.dies);
  if (group > g.dies || g.dies % group != 0) {
    return "a group of " + std::to_string(group) + " dies does not divide the drive's " + std::to_string(g.dies);
  }
  if (group == g.dies) return "the drive has no more dies than one group";
  const std::uint64_t replicas = g.dies / group;
  if (ftl.user_units() / (replicas * g.units_per_page) == 0) return "the drive is too small to split";
  return {};
}

namespace {

void describe_state(const Ftl& ftl, PreconditionResult& result) {
  const Geometry& g = ftl.geometry();
  result.valid_histogram.assign(g.units_per_block + 1, 0);
  for (std::uint32_t b = 0; b < g.blocks; ++b) {
    if (ftl.is_closed(b)) ++result.valid_histogram[ftl.valid_units(b)];
  }
  result.free_blocks = ftl.free_blocks_total();
}

PreconditionResult age(Ftl& ftl, const PreconditionSpec& spec, PagePlacedListener* listener) {
  const std::uint64_t units = ftl.user_units();
  const auto fill = std::min(share_of(units, spec.fill_percent), units);
  const auto random = share_of(units, spec.random_percent);
  PreconditionResult result;
  if (spec.method != PreconditionMethod::kSimulate) {
    result.simulated_because = replication_blocker(ftl, spec, listener != nullptr);
    if (result.simulated_because.empty() && spec.method == PreconditionMethod::kAuto) {
      if (units < kReplicateMinUnits) {
        result.simulated_because = kReplicateTooSmall;
      } else if (random == 0) {
        result.simulated_because = kReplicateFillOnly;
      }
    }
    if (!result.simulated_because.empty() && spec.method == PreconditionMethod::kReplicate) {
      throw std::invalid_argument("precondition by replication: " + result.simulated_because);
    }
  }
  if (spec.method != PreconditionMethod::kSimulate && result.simulated_because.empty()) {
    const Geometry& g = ftl.geometry();
    const std::uint32_t group_dies = group_dies_for(spec, g.dies);
    const std::uint32_t replicas = g.dies / group_dies;
    const std::uint32_t upp = g.units_per_page;
    // The group's LPNs: whole pages' worth, the same count for every copy.
    const std::uint64_t group_units = units / (std::uint64_t(replicas) * upp) * upp;
    Ftl group = ftl.die_group(group_dies, group_units);
    const std::uint64_t written_before = ftl.stats().host_units_written;
    PageWriter placer(group);
    const std::uint64_t group_fill = std::min(fill / (std::uint64_t(replicas) * upp) * upp, group_units);
    placer.write_sequential(0, group_fill);
    const std::uint64_t group_random = (random + replicas / 2) / replicas;
    std::optional<RandomLpns> draws;
    if (random != 0) draws.emplace(group, group_units, spec.random_map, spec.seed);
    // Copy r is taken after group_random + (r - R/2) * step random writes, centred on the writes
    // asked for, so that the copies' GC victims are at different points of their collection.
    // The step is one block per die: every copy's host write point sits at the page a
    // simulated drive's would (all its dies get pages in turn), so the free blocks, which rise
    // and fall with it, match. Shorter overwrites than R/2 blocks per die step by whole pages.
    const auto half = static_cast<std::int64_t>(replicas / 2);
    const std::int64_t page_step = std::int64_t(upp) * group_dies;  // one page on every die
    std::int64_t step = 0;
    if (group_random != 0) {
      const std::int64_t block_step = page_step * g.pages_per_block;
      const auto asked = static_cast<std::int64_t>(group_random);
      step = asked >= half * block_step
                 ? block_step
                 : std::max(page_step, asked / std::max<std::int64_t>(half, 1) / page_step * page_step);
    }
    std::int64_t drawn = 0;
    ftl.replicate(replicas, [&](std::uint32_t r) -> const Ftl& {
      const std::int64_t target = static_cast<std::int64_t>(group_random) + (std::int64_t(r) - half) * step;
      while (drawn < target || !placer.page_empty()) {
        placer.write(draws->next());
        ++drawn;
      }
      return group;
    });
    result.units_written = ftl.stats().host_units_written - written_before;
    result.replicas = replicas;
    result.group_dies = group_dies;
    // The LPNs left over by the split: filled by simulation, if the fill covers them.
    // A sequential fill would have placed them next: from the die after the fill's last page.
    PageWriter rest(ftl, listener);
    rest.start_at(static_cast<std::uint32_t>(group_fill / upp * replicas));
    if (fill > group_fill * replicas)
      rest.write_sequential(static_cast<Lpn>(group_fill * replicas), fill - group_fill * replicas);
    rest.flush();
    result.units_written += rest.units_written();
    return result;
  }

  PageWriter placer(ftl, listener);
  placer.write_sequential(0, fill);
  if (random != 0) {
    RandomLpns draws(ftl, units, spec.random_map, spec.seed);
    for (std::uint64_t i = 0; i < random; ++i) placer.write(draws.next());
  }
  placer.flush();
  result.units_written = placer.units_written();
  return result;
}

}  // namespace

PreconditionResult precondition(Ftl& ftl, const PreconditionSpec& spec, PagePlacedListener* listener) {
  PreconditionResult result = age(ftl, spec, listener);
  describe_state(ftl, result);
  return result;
}

}  // namespace ssdlab
