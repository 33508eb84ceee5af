#include "controller/ftl/precondition.h"

#include <array>
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

void PageWriter::flush() {
  if (m_page.empty()) return;
  write_page(m_page.data(), static_cast<std::uint32_t>(m_page.size()));
  m_page.clear();
}

void PageWriter::write_page(const Lpn* lpns, std::uint32_t count) {
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

PreconditionResult precondition(Ftl& ftl, const PreconditionSpec& spec, PagePlacedListener* listener) {
  const std::uint64_t units = ftl.user_units();
  PageWriter placer(ftl, listener);
  const auto fill = static_cast<std::uint64_t>(double(units) * spec.fill_percent / 100.0);
  for (std::uint64_t lpn = 0; lpn < fill && lpn < units; ++lpn) placer.write(static_cast<Lpn>(lpn));
  // The same LPNs a `randwrite` job of bs = one mapping unit over the whole drive draws: with
  // norandommap (independent draws) by default, with fio's random map when asked.
  const auto random = static_cast<std::uint64_t>(double(units) * spec.random_percent / 100.0);
  Rng rng(spec.seed);
  Permutation order;
  std::uint64_t next = 0;
  // Every write's mapping entry is a cache miss on a large drive: draw kAhead LPNs in advance
  // and prefetch their entries, so that the misses overlap instead of queueing one by one.
  constexpr std::uint32_t kAhead = 16;
  std::array<Lpn, kAhead> ahead{};
  const auto draw = [&] {
    Lpn lpn;
    if (!spec.random_map) {
      lpn = static_cast<Lpn>(rng.below(units));
    } else {
      if (next == order.size()) {
        order = Permutation(units, rng);
        next = 0;
      }
      lpn = static_cast<Lpn>(order.at(next++));
    }
    ftl.prefetch(lpn);
    return lpn;
  };
  for (std::uint64_t i = 0; i < random && i < kAhead; ++i) ahead[i] = draw();
  for (std::uint64_t i = 0; i < random; ++i) {
    const Lpn lpn = ahead[i % kAhead];
    if (i + kAhead < random) ahead[i % kAhead] = draw();
    placer.write(lpn);
  }
  placer.flush();
  return PreconditionResult{placer.units_written()};
}

}  // namespace ssdlab
