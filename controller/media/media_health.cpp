#include "controller/media/media_health.h"

#include <algorithm>

#include "controller/ftl/virtual_page.h"

namespace ssdlab {

MediaHealth::MediaHealth(const DriveConfig& config, const Geometry& geometry)
    : m_model(config.nand.cell, config.nand.errors.scale),
      m_ecc(config.controller.ecc, config.nand.errors.retry_levels, config.nand.errors.retry_gain),
      m_seed(config.nand.errors.seed),
      m_page_types(config.nand.page_types()),
      m_written_s(geometry.blocks, 0.0),
      m_reads(geometry.blocks, 0) {}

void MediaHealth::decide(NandOp& op, std::uint32_t erases, double now_s) {
  const std::uint32_t reads = ++m_reads[op.block];
  // The page itself, without a virtual page's mask of the flash pages a read touches: the same
  // page gets the same draw whoever reads it. The read disturb a read sees is that of the reads
  // before it.
  const std::uint32_t page = op.page & vpage::kPageMask;
  const PageWear w{erases, now_s - m_written_s[op.block], reads - 1, page % m_page_types};
  const double rber = m_model.rber(w);
  const ReadVerdict v = m_ecc.decide(rber, op.bytes, page_quantile(m_seed, op.block, page, erases));
  op.retries = static_cast<std::uint8_t>(std::min<std::uint32_t>(v.retries, 255));
  op.status = kOpDecoded | (v.uncorrectable ? kOpUncorrectable : 0);
  MediaStats& s = m_stats;
  ++s.reads;
  s.rber_sum_e12 += static_cast<std::uint64_t>(rber * 1e12 + 0.5);
  s.rber_max = std::max(s.rber_max, rber);
  if (v.retries) {
    ++s.retried_reads;
    s.retries += v.retries;
  }
  ++s.by_retries[std::min<std::size_t>(v.retries, MediaStats::kRetryBuckets - 1)];
  if (v.uncorrectable) ++s.uncorrectable[std::size_t(op.origin)];
}

}  // namespace ssdlab
