// The bit-error model, ECC verdicts and the media state (controller/media), without SystemC.
#include <catch2/catch.hpp>
#include <cmath>
#include <utility>

#include "base/config/geometry.h"
#include "controller/media/media_health.h"
#include "test_support.h"

using namespace ssdlab;

namespace {

// P(Poisson(lambda) > t), each term from lgamma: an independent computation of tail_above.
double poisson_tail_reference(double lambda, std::uint32_t t) {
  long double sum = 0;
  for (std::uint32_t i = t + 1; i < t + 4000; ++i) {
    sum += std::exp((long double)i * std::log((long double)lambda) - lambda - std::lgamma((long double)i + 1));
  }
  return double(std::min<long double>(sum, 1.0L));
}

// P(Binomial(n, p) > t), exactly.
double binomial_tail(std::uint32_t n, double p, std::uint32_t t) {
  long double below = 0;
  for (std::uint32_t i = 0; i <= t; ++i) {
    below += std::exp(std::lgamma((long double)n + 1) - std::lgamma((long double)i + 1) -
                      std::lgamma((long double)n - i + 1) + i * std::log((long double)p) +
                      (n - i) * std::log1p(-(long double)p));
  }
  return double(1.0L - below);
}

DriveConfig small_drive() {
  DriveConfig c = ssdlab::test::small_drive(2, 2, 16, 8, 4096, 0.25);
  c.nand.errors.enabled = true;
  c.nand.errors.retry_levels = 4;
  return c;
}

}  // namespace

TEST_CASE("The Poisson tail matches an independent computation, and the binomial it stands for", "[bit_errors]") {
  for (const double lambda : {0.01, 0.5, 1.39, 4.0, 10.0, 15.0, 16.0, 30.0, 80.0}) {
    for (const std::uint32_t t : {0u, 1u, 8u, 15u, 40u}) {
      const double ours = EccModel::tail_above(lambda, t), ref = poisson_tail_reference(lambda, t);
      INFO("lambda " << lambda << " t " << t);
      CHECK(ours == Approx(ref).epsilon(1e-9).margin(1e-300));
    }
  }
  CHECK(EccModel::tail_above(0.0, 15) == 0.0);
  // Past e^-lambda's underflow (lambda > 745): still the tail, not 0 or 1.
  for (const auto& [lambda, t] : {std::pair<double, std::uint32_t>{900, 1000}, {900, 850}, {1500, 1600}}) {
    INFO("lambda " << lambda << " t " << t);
    const double ours = EccModel::tail_above(lambda, t);
    CHECK(ours > 0.0);
    CHECK(ours < 1.0);
    CHECK(ours == Approx(poisson_tail_reference(lambda, t)).epsilon(1e-6));
  }
  // A 512-byte codeword (4096 bits): the Poisson limit within 2 % of the binomial where failures
  // are frequent enough to matter, within 6 % in the far tail (1e-13 at BCH-15's design point).
  for (const double p : {1e-3, 2e-3, 3e-3, 5e-3}) {
    const double b = binomial_tail(4096, p, 15), q = EccModel::tail_above(4096 * p, 15);
    INFO("p " << p);
    CHECK(q == Approx(b).epsilon(0.02));
  }
  const double far = binomial_tail(4096, 3.4e-4, 15);
  CHECK(far > 1e-15);
  CHECK(far < 1e-11);
  CHECK(EccModel::tail_above(4096 * 3.4e-4, 15) == Approx(far).epsilon(0.06));
}

TEST_CASE("The MLC curve meets its anchors and grows with wear, age and reads", "[bit_errors]") {
  const BitErrorModel mlc(CellType::kMlc, 1.0);
  // Hetzler's anchors: 1.7e-8 fresh, 3.4e-4 (BCH-15's limit) at 3,000 P/E and a year.
  CHECK(mlc.rber(PageWear{0, 0, 0, 0}) == Approx(1.7e-8));
  CHECK(mlc.rber(PageWear{3000, 365 * 86400.0, 0, 0}) == Approx(3.4e-4).epsilon(0.01));
  CHECK(mlc.rber(PageWear{10000, 0, 0, 0}) == Approx(3.4e-4).epsilon(0.01));  // by cycling alone
  // The read-disturb rule of thumb: 1e-4 more after 100,000 reads at 3,000 P/E.
  CHECK(mlc.rber(PageWear{3000, 0, 100000, 0}) - mlc.rber(PageWear{3000, 0, 0, 0}) == Approx(1e-4).epsilon(0.02));
  double last = 0;
  for (std::uint32_t pe = 0; pe <= 20000; pe += 500) {
    const double r = mlc.rber(PageWear{pe, 30 * 86400.0, 1000, 1});
    CHECK(r >= last);
    last = r;
  }
  CHECK(mlc.rber(PageWear{3000, 86400.0, 0, 0}) < mlc.rber(PageWear{3000, 30 * 86400.0, 0, 0}));
  CHECK(mlc.rber(PageWear{3000, 0, 10, 0}) < mlc.rber(PageWear{3000, 0, 10000, 0}));
  // SLC at 30x the cycles errs as MLC; TLC at a tenth.
  const BitErrorModel slc(CellType::kSlc, 1.0), tlc(CellType::kTlc, 1.0);
  CHECK(slc.rber(PageWear{30000, 86400.0 * 100, 3000, 0}) ==
        Approx(mlc.rber(PageWear{1000, 86400.0 * 100, 3000, 0})).epsilon(1e-9));
  CHECK(tlc.rber(PageWear{300, 86400.0, 0, 0}) == Approx(mlc.rber(PageWear{3000, 86400.0, 0, 0})).epsilon(1e-9));
  // The scale multiplies; no rate beyond 0.5.
  CHECK(BitErrorModel(CellType::kMlc, 10.0).rber(PageWear{3000, 0, 0, 0}) ==
        Approx(10 * mlc.rber(PageWear{3000, 0, 0, 0})));
  CHECK(BitErrorModel(CellType::kMlc, 1e12).rber(PageWear{3000, 0, 0, 0}) == 0.5);
}

TEST_CASE("ECC verdicts: deterministic, never fewer retries in a worse state, uncorrectable past the last level",
          "[bit_errors]") {
  EccConfig ecc;  // BCH-15 per 512 B
  const EccModel m(ecc, 6, 0.5);
  CHECK(m.decide(1e-6, 4096, 0.001).retries == 0);
  const ReadVerdict hopeless = m.decide(0.45, 4096, 0.999);
  CHECK(hopeless.uncorrectable);
  CHECK(hopeless.retries == 6);
  for (const double u : {0.0, 1e-6, 0.01, 0.3, 0.7, 0.99}) {
    std::uint32_t last = 0;
    bool was_unc = false;
    for (double rber = 1e-5; rber < 0.05; rber *= 1.2) {
      const ReadVerdict v = m.decide(rber, 4096, u);
      CHECK((v.retries >= last || was_unc));
      CHECK((!was_unc || v.uncorrectable));
      last = v.retries;
      was_unc = v.uncorrectable;
      const ReadVerdict again = m.decide(rber, 4096, u);
      CHECK(again.retries == v.retries);
      CHECK(again.uncorrectable == v.uncorrectable);
    }
  }
  // Over many pages, the share that needs a retry is the first attempt's failure probability.
  const double rber = 3.0e-3;
  const double p = m.read_failure(rber, 4096);
  REQUIRE(p > 0.2);
  REQUIRE(p < 0.9);
  std::uint64_t retried = 0;
  constexpr std::uint32_t kPages = 40000;
  for (std::uint32_t i = 0; i < kPages; ++i)
    retried += m.decide(rber, 4096, page_quantile(7, i / 64, i % 64, 3)).retries > 0;
  CHECK(double(retried) / kPages == Approx(p).margin(0.01));
  // More codewords, more chances to fail: a 4 KiB read fails more often than a 512-byte one.
  CHECK(m.read_failure(rber, 4096) > m.read_failure(rber, 512));
  CHECK(m.read_failure(rber, 512) == Approx(EccModel::tail_above(4096 * rber, 15)));
}

TEST_CASE("A page's quantile is uniform, seeded, and new after each erase", "[bit_errors]") {
  double sum = 0;
  std::uint32_t low = 0;
  for (std::uint32_t i = 0; i < 100000; ++i) {
    const double u = page_quantile(1, i, i % 256, 0);
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum += u;
    low += u < 0.1;
  }
  CHECK(sum / 100000 == Approx(0.5).margin(0.005));
  CHECK(double(low) / 100000 == Approx(0.1).margin(0.005));
  CHECK(page_quantile(1, 5, 6, 7) == page_quantile(1, 5, 6, 7));
  CHECK(page_quantile(1, 5, 6, 7) != page_quantile(2, 5, 6, 7));
  CHECK(page_quantile(1, 5, 6, 7) != page_quantile(1, 5, 6, 8));
  CHECK(page_quantile(1, 5, 6, 7) != page_quantile(1, 6, 5, 7));
}

TEST_CASE("Media state: reads counted per block until its erase, data age from its last program, aging",
          "[bit_errors]") {
  const DriveConfig config = small_drive();
  const Geometry g = Geometry::from(config);
  MediaHealth media(config, g);
  NandOp program(NandOpKind::kProgram, OpOrigin::kHost, 0, 3, 0, 4096, 0);
  media.submit(program, 10, 100.0);
  for (int i = 0; i < 5; ++i) {
    NandOp read(NandOpKind::kRead, OpOrigin::kHost, 0, 3, 1, 4096, 0);
    media.submit(read, 10, 160.0);
    CHECK(read.retries == 0);
    CHECK(read.status == kOpDecoded);
  }
  PageWear w = media.wear_of(3, 1, 10, 400.0);
  CHECK(w.reads == 5);
  CHECK(w.age_s == 300.0);
  CHECK(w.pe == 10);
  CHECK(w.page_type == 1);
  CHECK(media.stats().reads == 5);
  CHECK(media.stats().by_retries[0] == 5);
  CHECK(media.stats().rber_sum_e12 > 0);
  media.age(86400.0);
  CHECK(media.wear_of(3, 1, 10, 400.0).age_s == 300.0 + 86400.0);
  NandOp erase(NandOpKind::kErase, OpOrigin::kGc, 0, 3, 0, 0, 0);
  media.submit(erase, 11, 500.0);
  CHECK(media.wear_of(3, 0, 11, 500.0).reads == 0);
  media.rewritten(600.0);
  CHECK(media.wear_of(3, 0, 11, 700.0).age_s == 100.0);
  CHECK(media.wear_of(4, 0, 0, 700.0).age_s == 100.0);
}

TEST_CASE("Media state: an uncorrectable read is marked on its op and counted by origin", "[bit_errors]") {
  DriveConfig config = small_drive();
  config.nand.errors.scale = 1e7;  // every read far beyond BCH-15
  MediaHealth media(config, Geometry::from(config));
  NandOp host(NandOpKind::kRead, OpOrigin::kHost, 0, 1, 0, 4096, 0);
  NandOp gc(NandOpKind::kRead, OpOrigin::kGc, 0, 2, 0, 4096, 0);
  NandOp map(NandOpKind::kRead, OpOrigin::kMap, 0, 2, 1, 4096, 0);
  for (NandOp* op : {&host, &gc, &map}) media.submit(*op, 0, 1.0);
  for (const NandOp* op : {&host, &gc, &map}) {
    CHECK(op->status == (kOpDecoded | kOpUncorrectable));
    CHECK(op->retries == 4);
  }
  CHECK(media.stats().uncorrectable[0] == 1);
  CHECK(media.stats().uncorrectable[1] == 1);
  CHECK(media.stats().uncorrectable[2] == 1);
  CHECK(media.stats().retries == 12);
  CHECK(media.stats().retried_reads == 3);
  CHECK(media.stats().by_retries[4] == 3);
}
