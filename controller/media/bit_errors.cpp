#include "controller/media/bit_errors.h"

#include <algorithm>
#include <cmath>

namespace ssdlab {

// MLC of 3x-5x nm, the presets' NAND. Two anchors, both Hetzler's ("Series SDD 5: The error
// rate surface for MLC NAND flash", smorgastor.drhetzler.com, 2012, rev. 2014), measured on
// consumer MLC SSDs of 5x/4x/3x nm:
//  - the ECC design point: BCH-15 per 512 B tolerates RBER 3.4e-4 at UBER 1e-15, and the
//    parts are specified for 1 year of retention at 3,000 P/E;
//  - the surface rises about 20,000x from (1 P/E, fresh) to (3,000 P/E, 1 year): a fresh
//    floor of 3.4e-4 / 2e4 = 1.7e-8.
// The split between the terms is ours (docs/reliability.md), each a power law as in the fits of
// Mielke et al. (IRPS 2008) and Hetzler's form:
//  - wear: his surface reaches the ECC limit "simply by cycling" near 10,000 cycles at short
//    ages: 3.4e-6 * (pe/1000)^2 gives 3.4e-4 at 10,000 (exponent 2: assumed; Schroeder et al.,
//    FAST 2016, saw growth slower than exponential in the field);
//  - retention: the rest of the design point, 3.1e-4 at 3,000 P/E and 365 days, as
//    a_ret * (pe/1000) * days^0.5 (the square root: assumed, Mielke's retention exponent of
//    about 0.5 as later papers quote it, not checked against the paper);
//  - read disturb: the era's rule of thumb that a block takes ~100,000 reads before data is
//    at risk (QNX ETFS documentation): 1e-4 added at 100,000 reads and 3,000 P/E, linear in
//    reads as Cai et al. (DSN 2015) measured it.
// No published LSB/MSB split was found: both page types alike.
// SLC: the MLC curve with its cycles scaled by 30 (SLC rated 100,000 cycles against MLC's
// 3,000: "30x worse", storagesearch.com SLC/MLC notes), so SLC at 30,000 P/E errs as MLC at 1,000.
// TLC: MLC's with its cycles scaled by 1/10 (each further bit per cell costs 10-20x of P/E
// lifetime: Grupp et al., FAST 2012). Both derived, not measured.
RberCurve BitErrorModel::curve(CellType cell) {
  constexpr double kBase = 1.7e-8, kPe = 3.4e-6, kRet = 5.4e-6, kRd = 3.3e-10;
  // Cycles scaled by s: wear (pe/s)^2, retention and disturb linear in pe/s.
  const auto scaled = [&](double s) {
    return RberCurve{kBase, kPe / (s * s), 2.0, kRet / s, 1.0, 0.5, kRd / s, 1.0, {1, 1, 1}};
  };
  switch (cell) {
    case CellType::kSlc:
      return scaled(30.0);
    case CellType::kTlc:
      return scaled(0.1);
    case CellType::kMlc:
      break;
  }
  return scaled(1.0);
}

BitErrorModel::BitErrorModel(CellType cell, double scale) : m_curve(curve(cell)), m_scale(scale) {}

double BitErrorModel::rber(const PageWear& w) const {
  const RberCurve& c = m_curve;
  const double kc = double(w.pe) / 1000.0;  // thousands of cycles
  double r = c.base;
  if (kc > 0) r += c.a_pe * std::pow(kc, c.k_pe);
  const double days = w.age_s / 86400.0;
  if (days > 0 && c.a_ret > 0) r += c.a_ret * std::pow(std::max(kc, 0.001), c.k_ret_pe) * std::pow(days, c.k_ret);
  if (w.reads > 0 && c.a_rd > 0) r += c.a_rd * std::pow(std::max(kc, 0.001), c.k_rd_pe) * double(w.reads);
  r *= m_scale * c.page_factor[std::min<std::uint32_t>(w.page_type, 2)];
  return std::min(r, 0.5);  // a random bit is wrong half the time: no rate beyond
}

EccModel::EccModel(const EccConfig& ecc, std::uint32_t retry_levels, double retry_gain)
    : m_bits(ecc.bits),
      m_codeword_bits(ecc.codeword_bytes * 8),
      m_codeword_bytes(ecc.codeword_bytes),
      m_levels(retry_levels),
      m_gain(retry_gain) {}

double EccModel::tail_above(double lambda, std::uint32_t t) {
  if (!(lambda > 0)) return 0.0;
  // term(i) = e^-lambda lambda^i / i!: the first one from logarithms (e^-lambda alone underflows
  // past lambda ~ 745), the next ones by ratios.
  const double log_lambda = std::log(lambda);
  const auto term_at = [&](std::uint32_t i) {
    return std::exp(double(i) * log_lambda - lambda - std::lgamma(double(i) + 1.0));
  };
  if (lambda < double(t) + 1.0) {
    // The terms above t fall: sum them upwards (no cancellation for a tiny tail).
    double term = term_at(t + 1), sum = 0;
    for (std::uint32_t i = t + 1; i < t + 100000 && term > 0; ++i) {
      sum += term;
      term *= lambda / double(i + 1);
      if (term < sum * 1e-17) break;
    }
    return std::min(sum, 1.0);
  }
  // The mass is above t: one minus the terms up to t, summed downwards from t (they fall).
  double term = term_at(t), sum = 0;
  for (std::uint32_t i = t;; --i) {
    sum += term;
    if (i == 0 || term < sum * 1e-17) break;
    term *= double(i) / lambda;
  }
  return std::clamp(1.0 - sum, 0.0, 1.0);
}

double EccModel::read_failure(double rber, std::uint32_t bytes) const {
  const double codewords = double(std::max<std::uint32_t>(1, (bytes + m_codeword_bytes - 1) / m_codeword_bytes));
  const double q = tail_above(double(m_codeword_bits) * rber, m_bits);
  if (q >= 1.0) return 1.0;
  return -std::expm1(codewords * std::log1p(-q));  // 1 - (1 - q)^codewords, exact for a tiny q
}

ReadVerdict EccModel::decide(double rber, std::uint32_t bytes, double u) const {
  ReadVerdict v;
  double r = rber;
  for (std::uint32_t k = 0; k <= m_levels; ++k) {
    if (u >= read_failure(r, bytes)) {
      v.retries = k;
      return v;
    }
    r *= m_gain;
  }
  v.retries = m_levels;
  v.uncorrectable = true;
  return v;
}

double page_quantile(std::uint64_t seed, std::uint32_t block, std::uint32_t page, std::uint32_t erases) {
  // SplitMix64's finaliser over the four inputs (each mixed in turn): 53 bits of it as a double.
  std::uint64_t z = seed ^ 0x9e3779b97f4a7c15ULL;
  for (const std::uint64_t v : {std::uint64_t(block), std::uint64_t(page) << 1 | 1, std::uint64_t(erases) << 2 | 2}) {
    z += v * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
  }
  return double(z >> 11) * 0x1.0p-53;
}

}  // namespace ssdlab
