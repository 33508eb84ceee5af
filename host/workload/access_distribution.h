// Skewed choices of a slot (an aligned block position) of a job's region: fio's
// random_distribution. Plain C++, seeded through the caller's Rng, O(1) memory and O(1)
// (expected) time per draw whatever the region's size: no table per block.
//
// zipf:theta   rank k (1..n) with probability k^-theta / H(n, theta), drawn exactly by
//              rejection-inversion (Hoermann & Derflinger 1996); fio draws it with Gray's
//              approximation over a zeta sum of up to 10 M terms.
// pareto:h     rank floor(n * u^(log h / log(1-h))): the hottest fraction h of the slots gets
//              the share 1-h of the accesses (h = 0.2: 80/20), as fio's power.
// Ranks are mapped to slots by a keyed bijection (a Feistel permutation), so hot slots are
// spread over the region and each slot's frequency is exactly the rank's; fio hashes ranks
// (and a hash modulo n merges some). The optional second value (center, 0..1) rotates the
// mapping by center * n slots, as fio's offset does.
// normal:dev   a normal distribution over the slots' positions (direct, not scrambled):
//              mean at center (default 0.5) of the region, standard deviation dev % of it,
//              draws outside the region redrawn. (fio: a sum of 12 uniforms plus jitter, hashed.)
// zoned / zoned_abs   consecutive zones of the region, each with a share of the accesses,
//              uniform inside a zone (fio's 1..100 lookup).
#pragma once

#include <array>
#include <cstdint>

#include "base/config/scenario.h"
#include "base/core/permutation.h"
#include "base/core/rng.h"

namespace ssdlab {

// Uniform double in [0, 1) from 53 random bits.
inline double unit_double(Rng& rng) { return double(rng.next() >> 11) * 0x1.0p-53; }

// Zipf ranks 1..n, exponent theta > 0 (any, 1 included).
class ZipfSampler {
 public:
  ZipfSampler() = default;
  ZipfSampler(std::uint64_t n, double theta);
  std::uint64_t sample(Rng& rng) const;       // 1..n
  double probability(std::uint64_t k) const;  // exact P(rank = k), for tests (O(1), H(n) by Euler-Maclaurin)

 private:
  double h(double x) const;
  double big_h(double x) const;
  double big_h_inv(double y) const;

  std::uint64_t m_n = 1;
  double m_theta = 1;
  double m_h_x1 = 0, m_h_n = 0, m_s = 0;
  double m_zeta_n = 1;
};

// Generalised harmonic number H(n, theta) = sum_{k=1..n} k^-theta (exact head + Euler-Maclaurin tail).
double generalized_harmonic(std::uint64_t n, double theta);

class AccessDistribution {
 public:
  AccessDistribution() = default;
  // `slots` aligned positions of `align` bytes; throws std::invalid_argument when the zones do
  // not fit the region. Draws its permutation keys from `key_rng`.
  AccessDistribution(const RandomDistribution& d, std::uint64_t slots, std::uint64_t align, Rng& key_rng);
  bool uniform() const { return m_kind == RandomDist::kRandom; }
  std::uint64_t slot(Rng& rng) const;  // 0..slots-1

 private:
  std::uint64_t scramble(std::uint64_t rank) const;

  RandomDist m_kind = RandomDist::kRandom;
  std::uint64_t m_slots = 1;
  std::uint64_t m_rotate = 0;
  double m_pareto_pow = 1, m_mean = 0, m_sd = 0;
  ZipfSampler m_zipf;
  Permutation m_perm;
  struct Zone {
    std::uint64_t first = 0, count = 0;
  };
  std::array<Zone, 256> m_zones{};
  std::array<std::uint8_t, 100> m_zone_of{};  // percent 0..99 -> zone
};

}  // namespace ssdlab
