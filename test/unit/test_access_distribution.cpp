// fio's random_distribution: measured hit counts against the distributions (chi-square).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "host/workload/access_distribution.h"

using namespace ssdlab;

namespace {

// Pearson's chi-square of `observed` against probabilities `p` (same length), bins merged
// from the tail until each expects at least 20 hits; returns {chi2, degrees of freedom}.
std::pair<double, int> chi_square(const std::vector<std::uint64_t>& observed, const std::vector<double>& p,
                                  std::uint64_t samples) {
  double chi2 = 0, exp_acc = 0, obs_acc = 0;
  int bins = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    exp_acc += p[i] * double(samples);
    obs_acc += double(observed[i]);
    if (exp_acc >= 20 || i + 1 == p.size()) {
      chi2 += (obs_acc - exp_acc) * (obs_acc - exp_acc) / exp_acc;
      ++bins;
      exp_acc = obs_acc = 0;
    }
  }
  return {chi2, bins - 1};
}

// Upper 1e-4 quantile of chi-square with `df` degrees of freedom (Wilson-Hilferty).
double critical(int df) {
  const double z = 3.719, k = double(df);
  const double t = 1 - 2 / (9 * k) + z * std::sqrt(2 / (9 * k));
  return k * t * t * t;
}

std::vector<double> zipf_pmf(std::uint64_t n, double theta) {
  std::vector<double> p(n);
  double sum = 0;
  for (std::uint64_t k = 1; k <= n; ++k) sum += p[k - 1] = std::pow(double(k), -theta);
  for (double& v : p) v /= sum;
  return p;
}

std::vector<double> pareto_pmf(std::uint64_t n, double h) {
  const double a = std::log(1 - h) / std::log(h);
  std::vector<double> p(n);
  for (std::uint64_t k = 0; k < n; ++k)
    p[k] = std::pow(double(k + 1) / double(n), a) - std::pow(double(k) / double(n), a);
  return p;
}

}  // namespace

TEST_CASE("zipf ranks match the zipf distribution and not a neighbouring theta", "[workload][distribution]") {
  const std::uint64_t n = 1000, samples = 200000;
  for (const double theta : {0.8, 1.2, 2.0}) {
    ZipfSampler z(n, theta);
    Rng rng(12345);
    std::vector<std::uint64_t> hits(n);
    for (std::uint64_t i = 0; i < samples; ++i) {
      const std::uint64_t k = z.sample(rng);
      REQUIRE(k >= 1);
      REQUIRE(k <= n);
      ++hits[k - 1];
    }
    const auto [chi2, df] = chi_square(hits, zipf_pmf(n, theta), samples);
    INFO("theta " << theta << ": chi2 " << chi2 << " df " << df);
    CHECK(chi2 < critical(df));
    const auto [wrong, wdf] = chi_square(hits, zipf_pmf(n, theta - 0.1), samples);
    INFO("against theta - 0.1: chi2 " << wrong);
    CHECK(wrong > critical(wdf));
  }
}

TEST_CASE("zipf over a 1 TB region: O(1) set-up and the hottest rank at its share", "[workload][distribution]") {
  const std::uint64_t n = (1ull << 40) / 4096;  // 2^28 blocks of 4 KiB
  ZipfSampler z(n, 1.2);
  CHECK(std::abs(generalized_harmonic(20000, 1.2) - [] {
          double s = 0;
          for (int k = 20000; k >= 1; --k) s += std::pow(double(k), -1.2);
          return s;
        }()) < 1e-9);
  Rng rng(7);
  const std::uint64_t samples = 100000;
  std::uint64_t first = 0, top = 0;
  for (std::uint64_t i = 0; i < samples; ++i) {
    const std::uint64_t k = z.sample(rng);
    REQUIRE(k <= n);
    first += k == 1;
    top = std::max(top, k);
  }
  const double p1 = z.probability(1), expect = p1 * double(samples);
  CHECK(std::abs(double(first) - expect) < 5 * std::sqrt(expect * (1 - p1)));
  CHECK(top > n / 1000);  // the tail reaches far into the region
}

TEST_CASE("pareto ranks match fio's power law and h is the hot share", "[workload][distribution]") {
  const std::uint64_t n = 1000, samples = 200000;
  RandomDistribution d;
  d.kind = RandomDist::kPareto;
  d.param = 0.2;
  Rng keys(3);
  // A region of n slots; collect per-slot hits, then undo nothing: compare the sorted counts'
  // hot share and, per rank, the chi-square through the sampler's own rank order below.
  AccessDistribution dist(d, n, 4096, keys);
  Rng rng(99);
  std::vector<std::uint64_t> per_slot(n);
  for (std::uint64_t i = 0; i < samples; ++i) ++per_slot[dist.slot(rng)];
  std::vector<std::uint64_t> sorted = per_slot;
  std::sort(sorted.rbegin(), sorted.rend());
  std::uint64_t hot = 0;
  for (std::uint64_t i = 0; i < n / 5; ++i) hot += sorted[i];
  CHECK(double(hot) / double(samples) > 0.78);  // 20 % of the blocks take ~80 % of the accesses
  CHECK(double(hot) / double(samples) < 0.82);
  // Hot blocks are spread over the region (scrambled), not packed at its start.
  std::vector<std::uint64_t> order(n);
  for (std::uint64_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) { return per_slot[a] > per_slot[b]; });
  int packed = 0;
  for (std::uint64_t i = 0; i < 20; ++i) packed += order[i] < 20;
  CHECK(packed < 5);

  // Ranks, through a one-slot-per-rank identity check: the same draws with the ranks kept.
  Rng r2(99);
  const double pow_ = std::log(0.2) / std::log(0.8);
  std::vector<std::uint64_t> hits(n);
  for (std::uint64_t i = 0; i < samples; ++i)
    ++hits[std::min<std::uint64_t>(n - 1, std::uint64_t(std::floor(double(n) * std::pow(unit_double(r2), pow_))))];
  const auto [chi2, df] = chi_square(hits, pareto_pmf(n, 0.2), samples);
  CHECK(chi2 < critical(df));
  const auto [wrong, wdf] = chi_square(hits, pareto_pmf(n, 0.25), samples);
  CHECK(wrong > critical(wdf));
  // The slot counts are the rank counts moved by a bijection: same multiset.
  std::vector<std::uint64_t> rank_sorted = hits;
  std::sort(rank_sorted.rbegin(), rank_sorted.rend());
  CHECK(rank_sorted == sorted);
}

TEST_CASE("zipf slots are a bijection of zipf ranks", "[workload][distribution]") {
  const std::uint64_t n = 500, samples = 100000;
  RandomDistribution d;
  d.kind = RandomDist::kZipf;
  d.param = 1.2;
  Rng keys(5), rng(6);
  AccessDistribution dist(d, n, 4096, keys);
  std::vector<std::uint64_t> per_slot(n);
  for (std::uint64_t i = 0; i < samples; ++i) ++per_slot[dist.slot(rng)];
  ZipfSampler z(n, 1.2);
  Rng rng2(6);
  std::vector<std::uint64_t> per_rank(n);
  for (std::uint64_t i = 0; i < samples; ++i) ++per_rank[z.sample(rng2) - 1];
  std::sort(per_slot.begin(), per_slot.end());
  std::sort(per_rank.begin(), per_rank.end());
  CHECK(per_slot == per_rank);
}

TEST_CASE("zoned and zoned_abs put each zone's share of the accesses in it", "[workload][distribution]") {
  const std::uint64_t n = 1000, samples = 100000;
  RandomDistribution d;
  d.kind = RandomDist::kZoned;
  d.zones = {{60, 10, 0}, {30, 20, 0}, {8, 30, 0}, {2, 40, 0}};
  Rng keys(1), rng(2);
  AccessDistribution dist(d, n, 4096, keys);
  std::vector<std::uint64_t> zone_hits(4);
  for (std::uint64_t i = 0; i < samples; ++i) {
    const std::uint64_t s = dist.slot(rng);
    zone_hits[s < 100 ? 0 : s < 300 ? 1 : s < 600 ? 2 : 3]++;
  }
  auto [chi2, df] = chi_square(zone_hits, {0.6, 0.3, 0.08, 0.02}, samples);
  CHECK(chi2 < critical(df));
  const auto [wrong, wdf] = chi_square(zone_hits, {0.55, 0.35, 0.08, 0.02}, samples);
  CHECK(wrong > critical(wdf));

  d.kind = RandomDist::kZonedAbs;
  d.zones = {{90, 0, 100 * 4096}, {10, 0, 400 * 4096}};
  AccessDistribution abs(d, n, 4096, keys);
  std::vector<std::uint64_t> abs_hits(3);
  for (std::uint64_t i = 0; i < samples; ++i) {
    const std::uint64_t s = abs.slot(rng);
    abs_hits[s < 100 ? 0 : s < 500 ? 1 : 2]++;
  }
  CHECK(abs_hits[2] == 0);
  std::tie(chi2, df) = chi_square({abs_hits[0], abs_hits[1]}, {0.9, 0.1}, samples);
  CHECK(chi2 < critical(df));
  d.zones = {{90, 0, 600 * 4096}, {10, 0, 600 * 4096}};
  CHECK_THROWS_WITH(AccessDistribution(d, n, 4096, keys), Catch::Contains("exceed the job's region"));
}

TEST_CASE("normal draws centre on the region with the deviation asked for", "[workload][distribution]") {
  RandomDistribution d;
  d.kind = RandomDist::kNormal;
  d.param = 10;  // 10 % of the region
  d.center = 0.25;
  const std::uint64_t n = 100000, samples = 100000;
  Rng keys(1), rng(4);
  AccessDistribution dist(d, n, 4096, keys);
  double sum = 0, sq = 0;
  for (std::uint64_t i = 0; i < samples; ++i) {
    const double s = double(dist.slot(rng));
    sum += s;
    sq += s * s;
  }
  const double mean = sum / samples, sd = std::sqrt(sq / samples - mean * mean);
  CHECK(std::abs(mean - 0.25 * n) < 0.01 * n);
  CHECK(std::abs(sd - 0.10 * n) < 0.01 * n);
}
