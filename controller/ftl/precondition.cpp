#include "controller/ftl/precondition.h"

#include <stdexcept>
#include <vector>

#include "model/core/permutation.h"
#include "model/core/rng.h"

namespace ssdlab {

namespace {

// Buffers LPNs into pages and places each page on the next die that can take it.
class Placer {
 public:
  explicit Placer(Ftl& ftl) : m_ftl(ftl), m_upp(ftl.geometry().units_per_page) { m_page.reserve(m_upp); }

  void write(Lpn lpn) {
    m_ftl.write_to_buffer(lpn, static_cast<std::uint32_t>(m_page.size()));
    m_page.push_back(lpn);
    ++m_written;
    if (m_page.size() == m_upp) flush();
  }
  void flush() {
    if (m_page.empty()) return;
    const std::uint32_t dies = m_ftl.geometry().dies;
    for (std::uint32_t tries = 0; tries < dies; ++tries) {
      const std::uint32_t die = m_next_die;
      m_next_die = (m_next_die + 1) % dies;
      if (!m_ftl.can_place(die)) continue;
      m_ops.clear();
      if (m_ftl.place(die, m_page.data(), static_cast<std::uint32_t>(m_page.size()), 0, m_ops)) {
        m_page.clear();
        return;
      }
    }
    throw std::runtime_error("preconditioning: no die can take a page (drive full of valid data?)");
  }
  std::uint64_t written() const { return m_written; }

 private:
  Ftl& m_ftl;
  std::uint32_t m_upp;
  std::vector<Lpn> m_page;
  OpList m_ops;
  std::uint32_t m_next_die = 0;
  std::uint64_t m_written = 0;
};

}  // namespace

PreconditionResult precondition(Ftl& ftl, const PreconditionSpec& spec) {
  const std::uint64_t units = ftl.user_units();
  Placer placer(ftl);
  const auto fill = static_cast<std::uint64_t>(double(units) * spec.fill_percent / 100.0);
  for (std::uint64_t lpn = 0; lpn < fill && lpn < units; ++lpn) placer.write(static_cast<Lpn>(lpn));
  // The same order a `randwrite` job of bs = one mapping unit over the whole drive draws.
  const auto random = static_cast<std::uint64_t>(double(units) * spec.random_percent / 100.0);
  Rng rng(spec.seed);
  Permutation order;
  std::uint64_t next = 0;
  for (std::uint64_t i = 0; i < random; ++i) {
    if (next == order.size()) {
      order = Permutation(units, rng);
      next = 0;
    }
    placer.write(static_cast<Lpn>(order.at(next++)));
  }
  placer.flush();
  return PreconditionResult{placer.written()};
}

}  // namespace ssdlab
