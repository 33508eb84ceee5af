#include "host/workload/access_distribution.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ssdlab {
namespace {

// log1p(x) / x and expm1(x) / x, continuous at 0 (so theta = 1 needs no special case).
double log1p_over(double x) { return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x / 2.0 + x * x / 3.0; }
double expm1_over(double x) { return std::abs(x) > 1e-8 ? std::expm1(x) / x : 1.0 + x / 2.0 + x * x / 6.0; }

// (b^(1-s) - a^(1-s)) / (1-s), the integral of x^-s over [a, b].
double power_integral(double a, double b, double s) {
  const double la = std::log(a), lb = std::log(b);
  return expm1_over((1.0 - s) * lb) * lb - expm1_over((1.0 - s) * la) * la;
}

}  // namespace

double generalized_harmonic(std::uint64_t n, double theta) {
  constexpr std::uint64_t kExact = 1000;
  const std::uint64_t head = std::min(n, kExact);
  double sum = 0;
  for (std::uint64_t k = head; k >= 1; --k) sum += std::pow(double(k), -theta);  // small terms first
  if (n <= kExact) return sum;
  // Euler-Maclaurin for sum_{k=m}^{n} f(k), f(x) = x^-theta, m = kExact + 1.
  const double m = double(kExact + 1), x = double(n), s = theta;
  const auto f = [s](double v) { return std::pow(v, -s); };
  const auto f1 = [s](double v) { return -s * std::pow(v, -s - 1); };
  const auto f3 = [s](double v) { return -s * (s + 1) * (s + 2) * std::pow(v, -s - 3); };
  return sum + power_integral(m, x, s) + (f(m) + f(x)) / 2 + (f1(x) - f1(m)) / 12 - (f3(x) - f3(m)) / 720;
}

ZipfSampler::ZipfSampler(std::uint64_t n, double theta) : m_n(n), m_theta(theta) {
  if (n == 0 || !(theta > 0)) throw std::invalid_argument("zipf needs at least one slot and theta > 0");
  m_h_x1 = big_h(1.5) - 1.0;
  m_h_n = big_h(double(n) + 0.5);
  m_s = 2.0 - big_h_inv(big_h(2.5) - h(2.0));
  m_zeta_n = generalized_harmonic(n, theta);
}

double ZipfSampler::h(double x) const { return std::exp(-m_theta * std::log(x)); }

// H(x) = (x^(1-theta) - 1) / (1-theta), an antiderivative of h; log(x) at theta = 1.
double ZipfSampler::big_h(double x) const {
  const double lx = std::log(x);
  return expm1_over((1.0 - m_theta) * lx) * lx;
}

double ZipfSampler::big_h_inv(double y) const {
  const double t = std::max((1.0 - m_theta) * y, -1.0 + 1e-16);  // rounding must not leave the domain
  return std::exp(log1p_over(t) * y);
}

// Rejection-inversion: invert the integral of the hat function h over [1.5 - 1, n + 0.5],
// round to the nearest rank and accept when the point lies under the rank's own bar.
std::uint64_t ZipfSampler::sample(Rng& rng) const {
  for (;;) {
    const double u = m_h_n + unit_double(rng) * (m_h_x1 - m_h_n);
    const double x = big_h_inv(u);
    double kd = std::floor(x + 0.5);
    kd = std::min(std::max(kd, 1.0), double(m_n));
    if (kd - x <= m_s || u >= big_h(kd + 0.5) - h(kd)) return static_cast<std::uint64_t>(kd);
  }
}

double ZipfSampler::probability(std::uint64_t k) const { return std::pow(double(k), -m_theta) / m_zeta_n; }

AccessDistribution::AccessDistribution(const RandomDistribution& d, std::uint64_t slots, std::uint64_t align,
                                       Rng& key_rng)
    : m_kind(d.kind), m_slots(slots) {
  if (d.kind == RandomDist::kZipf || d.kind == RandomDist::kPareto) {
    m_perm = Permutation(slots, key_rng);
    if (d.center >= 0) m_rotate = std::min<std::uint64_t>(slots - 1, std::uint64_t(d.center * double(slots)));
  }
  if (d.kind == RandomDist::kZipf) m_zipf = ZipfSampler(slots, d.param);
  if (d.kind == RandomDist::kPareto) m_pareto_pow = std::log(d.param) / std::log(1.0 - d.param);
  if (d.kind == RandomDist::kNormal) {
    m_mean = std::min((d.center >= 0 ? d.center : 0.5) * double(slots), double(slots) - 0.5);
    m_sd = d.param / 100.0 * double(slots);
  }
  if (d.kind != RandomDist::kZoned && d.kind != RandomDist::kZonedAbs) return;
  if (d.zones.empty() || d.zones.size() > m_zones.size())
    throw std::invalid_argument("a zoned distribution needs 1 to 256 zones");
  std::uint64_t first = 0, percent_before = 0;
  std::uint32_t access = 0;
  for (std::size_t i = 0; i < d.zones.size(); ++i) {
    const AccessZone& z = d.zones[i];
    Zone& out = m_zones[i];
    if (d.kind == RandomDist::kZoned) {
      // fio: a zone is [before%, (before + size)%) of the slots.
      out.first = slots * percent_before / 100;
      percent_before += z.size_percent;
      out.count = slots * percent_before / 100 - out.first;
    } else {
      out.first = first;
      out.count = z.size_bytes / align;
      first += out.count;
    }
    if (out.first + out.count > slots)
      throw std::invalid_argument("zoned_abs zones (" + std::to_string(first * align) +
                                  " bytes) exceed the job's region (" + std::to_string(slots * align) + " bytes)");
    if (out.count == 0 && z.access_percent > 0)
      throw std::invalid_argument("zone " + std::to_string(i + 1) + " of random_distribution holds no whole block");
    for (std::uint32_t p = 0; p < z.access_percent && access + p < 100; ++p) m_zone_of[access + p] = std::uint8_t(i);
    access += z.access_percent;
  }
  if (access != 100)
    throw std::invalid_argument("the zones' access shares add up to " + std::to_string(access) + ", not 100");
}

std::uint64_t AccessDistribution::scramble(std::uint64_t rank) const {
  const std::uint64_t s = m_perm.at(rank) + m_rotate;
  return s >= m_slots ? s - m_slots : s;
}

std::uint64_t AccessDistribution::slot(Rng& rng) const {
  switch (m_kind) {
    case RandomDist::kRandom:
      return rng.below(m_slots);
    case RandomDist::kZipf:
      return scramble(m_zipf.sample(rng) - 1);
    case RandomDist::kPareto: {
      const double r = std::floor(double(m_slots) * std::pow(unit_double(rng), m_pareto_pow));
      return scramble(std::min(static_cast<std::uint64_t>(r), m_slots - 1));
    }
    case RandomDist::kNormal:
      for (;;) {
        // Box-Muller; a draw outside the region is redrawn (a truncated normal).
        const double u1 = 1.0 - unit_double(rng), u2 = unit_double(rng);
        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
        const double x = std::floor(m_mean + z * m_sd);
        if (x >= 0 && x < double(m_slots)) return static_cast<std::uint64_t>(x);
      }
    case RandomDist::kZoned:
    case RandomDist::kZonedAbs: {
      const Zone& z = m_zones[m_zone_of[rng.below(100)]];
      return z.first + rng.below(z.count);
    }
  }
  return 0;
}

}  // namespace ssdlab
