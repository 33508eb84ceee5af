#include "base/stats/anatomy_stats.h"

#include <cmath>

namespace ssdlab {

double AnatomyStats::mean(Part p) const {
  if (m_count == 0) return 0.0;
  unsigned __int128 sum = 0;
  for (std::size_t b = 0; b < kBuckets; ++b) sum += m_bucket_sum[b][std::size_t(p)];
  return double(sum) / double(m_count);
}

std::array<double, kParts> AnatomyStats::tail_mean(double q) const {
  std::array<double, kParts> out{};
  if (m_count == 0) return out;
  const double exact = (1.0 - q) * double(m_count);
  // The slowest `want` requests: ceil, but at least one (tiny floating error must not add one).
  std::uint64_t want = static_cast<std::uint64_t>(std::ceil(exact - 1e-9));
  if (want == 0) want = 1;
  if (want > m_count) want = m_count;
  std::uint64_t taken = 0;
  for (std::size_t b = kBuckets; b-- > 0 && taken < want;) {
    const std::uint64_t n = m_bucket_count[b];
    if (n == 0) continue;
    const std::uint64_t use = n < want - taken ? n : want - taken;
    const double share = double(use) / double(n);
    for (std::size_t i = 0; i < kParts; ++i) out[i] += share * double(m_bucket_sum[b][i]);
    taken += use;
  }
  for (double& v : out) v /= double(taken);
  return out;
}

}  // namespace ssdlab
