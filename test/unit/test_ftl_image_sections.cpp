// FTL images (ftl_image.h) under systematic damage: flipped bits, cut-off streams, huge section
// lengths, an old format version. Every damaged image is refused with a message naming a
// section or field, in bounded memory, and the FTL that was to take it is left as it was.
#include <catch2/catch.hpp>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/core/rng.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/ftl_image.h"
#include "test/unit/image_test_support.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// A two-die drive of the given policy after random writes (GC has run, FIFO order is long).
struct Aged {
  DriveConfig config;
  Ftl ftl;
  std::string image;
  explicit Aged(GcPolicyKind policy) : config(small_drive(1, 2, 24, 16, 4096, 0.25, policy)), ftl(config) {
    FtlDriver drv(ftl);
    Rng rng(17);
    for (std::uint64_t i = 0; i < 3 * std::uint64_t(ftl.user_units()); ++i)
      drv.write(static_cast<Lpn>(rng.below(ftl.user_units())));
    REQUIRE(ftl.stats().gc_erases > 0);
    image = image_of(ftl);
  }
};

// Loads `img` into `target`; returns the error message, or "" when it loaded.
std::string try_load(Ftl& target, const std::string& img, bool verify = true) {
  FtlLoadOptions options;
  options.verify_checksums = verify;
  try {
    load_ftl_image(target, reinterpret_cast<const std::uint8_t*>(img.data()), img.size(), options);
  } catch (const ImageFormatError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("FTL image: the byte-buffer entry point loads an image and refuses another drive's", "[ftl][image]") {
  Aged a(GcPolicyKind::kGreedy);
  Ftl b(a.config);
  CHECK(try_load(b, a.image).empty());
  CHECK(image_of(b) == a.image);
  Ftl other(small_drive(1, 2, 32, 16, 4096, 0.25));
  CHECK_THAT(try_load(other, a.image), Catch::Contains("blocks per die"));
}

TEST_CASE("FTL image: every flipped bit is refused naming a section and the FTL is untouched", "[ftl][image]") {
  const auto policy = GENERATE(GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo);
  CAPTURE(to_string(policy));
  Aged a(policy);
  Ftl target(a.config);
  const std::string fresh = image_of(target);
  Rng rng(4242);
  const int kFlips = 2000;
  int refused = 0;
  for (int i = 0; i < kFlips; ++i) {
    const std::uint64_t bit = rng.below(a.image.size() * 8);
    std::string bad = a.image;
    bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
    const std::string why = try_load(target, bad);
    CAPTURE(bit, why);
    // The preamble and the end marker are compared byte for byte; all else is in checksummed
    // sections.
    const bool named = why.find("section '") != std::string::npos ||
                       (why.find("end marker") != std::string::npos && bit >= (a.image.size() - 8) * 8) ||
                       (bit < 16 * 8 && !why.empty());
    CHECK(named);
    refused += named;
    REQUIRE(image_of(target) == fresh);
  }
  CHECK(refused == kFlips);
}

TEST_CASE("FTL image: flipped bits behind correct checksums are caught by the range checks", "[ftl][image]") {
  // What a crafted image (or a fuzzer) gets past the checksums: every load is refused or gives
  // a consistent FTL that goes on working. (Out-of-range reads show up under ASan.)
  const auto policy = GENERATE(GcPolicyKind::kGreedy, GcPolicyKind::kCostBenefit, GcPolicyKind::kFifo);
  CAPTURE(to_string(policy));
  Aged a(policy);
  Rng rng(777);
  int loaded = 0;
  for (int i = 0; i < 1500; ++i) {
    const std::uint64_t bit = rng.below(a.image.size() * 8);
    std::string bad = a.image;
    bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
    Ftl target(a.config);
    const std::string before = image_of(target);
    const std::string why = try_load(target, bad, false);
    CAPTURE(bit, why);
    if (!why.empty()) {
      REQUIRE(image_of(target) == before);
      continue;
    }
    ++loaded;
    REQUIRE(target.check_invariants().empty());
    FtlDriver drv(target);
    for (Lpn lpn = 0; lpn < target.user_units(); lpn += 3) drv.write(lpn);
    REQUIRE(target.check_invariants().empty());
  }
  WARN(to_string(policy) << ": " << loaded << " of 1500 flips behind the checksums loaded a consistent FTL");
}

TEST_CASE("FTL image: a stream cut off anywhere is refused and the FTL is untouched", "[ftl][image]") {
  Aged a(GcPolicyKind::kFifo);
  Ftl target(a.config);
  const std::string fresh = image_of(target);
  for (std::size_t n = 0; n < a.image.size(); n += 1 + n / 64) {
    CAPTURE(n);
    const std::string why = try_load(target, a.image.substr(0, n));
    CHECK_FALSE(why.empty());
    REQUIRE(image_of(target) == fresh);
  }
  // Through Ftl::load on a std::istream as well: a cut in the middle of the P2L table.
  std::istringstream in(a.image.substr(0, section_of(a.image, "P2L ").payload + 100));
  CHECK_THROWS_WITH(target.load(in), Catch::Contains("section 'P2L table'"));
}

TEST_CASE("FTL image: a huge section length is refused before anything is allocated", "[ftl][image]") {
  Aged a(GcPolicyKind::kGreedy);
  Ftl target(a.config);
  const std::string fresh = image_of(target);
  const int bit = GENERATE(31, 36, 40, 63);
  CAPTURE(bit);
  for (const ImageSection& s : sections_of(a.image)) {
    CAPTURE(s.tag);
    std::string bad = a.image;
    poke<std::uint64_t>(bad, s.header + 4, s.length ^ (std::uint64_t(1) << bit));
    const std::string why = try_load(target, bad);
    CHECK_THAT(why, Catch::Contains("section '") && Catch::Contains("claims"));
    REQUIRE(image_of(target) == fresh);
  }
}

TEST_CASE("FTL image: an image of format version 1 gets a clear error", "[ftl][image]") {
  Aged a(GcPolicyKind::kGreedy);
  std::string old = a.image;
  poke<std::uint32_t>(old, 12, 1);
  Ftl target(a.config);
  CHECK_THAT(try_load(target, old), Catch::Contains("format version 1 is not supported") &&
                                        Catch::Contains("reads version 2") && Catch::Contains("no checksums"));
}
