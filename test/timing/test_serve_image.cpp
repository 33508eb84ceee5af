// The drive image of `ssdlab serve --image` (controller/ftl/drive_image.cpp) on a small drive that
// carries data: damage of any kind is refused with a message naming the section, in bounded
// memory, and the drive that was to take the image is left exactly as it was.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "base/core/rng.h"
#include "controller/ftl/drive_image.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/page_store.h"
#include "test/unit/image_test_support.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using ssdlab::test::FtlDriver;
using ssdlab::test::small_drive;

namespace {

// An FTL with its flash data, kept in step the way the controller keeps them.
struct DataDrive : FtlListener {
  DriveConfig config;
  Ftl ftl;
  PageStore store;
  FtlDriver drv;
  std::vector<std::uint8_t> unit;

  explicit DataDrive(const DriveConfig& c)
      : config(c), ftl(c), store(ftl.geometry()), drv(ftl), unit(ftl.geometry().unit_bytes) {
    ftl.set_listener(this);
  }
  DataDrive(const DataDrive&) = delete;
  void relocated(Lpn, Pua from, Pua to) override { store.move(from, to); }
  void erased(std::uint32_t block) override { store.erase(block); }

  // `units` random unit writes; the data of each names its LPN and the write's number.
  void write_random(std::uint64_t seed, std::uint64_t units) {
    Rng rng(seed);
    for (std::uint64_t i = 0; i < units; ++i) {
      const auto lpn = static_cast<Lpn>(rng.below(ftl.user_units()));
      drv.write(lpn);
      for (std::size_t k = 0; k < unit.size(); k += 8) {
        const std::uint64_t word = (seed << 48) ^ (std::uint64_t(lpn) << 24) ^ (i << 4) ^ k;
        std::memcpy(&unit[k], &word, 8);
      }
      store.write(ftl.lookup(lpn), unit.data());
    }
  }
  // What the host reads back: every LPN's unit (zeros when unmapped).
  std::vector<std::uint8_t> contents() const {
    std::vector<std::uint8_t> all(std::size_t(ftl.user_units()) * unit.size(), 0);
    for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) {
      const std::uint32_t e = ftl.lookup(lpn);
      if (e != kUnmapped) store.read(e, &all[std::size_t(lpn) * unit.size()]);
    }
    return all;
  }
};

DriveConfig tiny_drive() { return small_drive(1, 1, 24, 8, 4096, 0.25); }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
void spit(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

// A scratch directory of this process, removed at the end.
struct Scratch {
  std::filesystem::path dir;
  Scratch() : dir(std::filesystem::temp_directory_path() / ("ssdlab-image-test-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

using ssdlab::test::peek;
using ssdlab::test::poke;
using ssdlab::test::section_of;
using ssdlab::test::sections_of;

// ---- where things are in an image (controller/ftl/drive_image.h gives the layout) ----
std::size_t ftl_length_offset(const std::string& img) { return section_of(img, "FTL ").header + 4; }
// Offsets of the block numbers of the stored blocks.
std::vector<std::size_t> block_number_offsets(const std::string& img) {
  std::vector<std::size_t> offs;
  for (const auto& s : sections_of(img)) {
    if (s.tag == "BLCK") offs.push_back(s.payload);
  }
  return offs;
}

std::uint64_t max_rss_bytes() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return std::uint64_t(u.ru_maxrss) * 1024;
}

// A drive that must be left alone by a refused load: its state before, to compare with after.
struct Bystander {
  DataDrive drive;
  std::string ftl_image;
  std::vector<std::uint8_t> data;
  explicit Bystander(const DriveConfig& c, std::uint64_t seed) : drive(c) {
    drive.write_random(seed, 2 * std::uint64_t(drive.ftl.user_units()));
    ftl_image = ssdlab::test::image_of(drive.ftl);
    data = drive.contents();
  }
  void require_untouched() {
    REQUIRE(ssdlab::test::image_of(drive.ftl) == ftl_image);
    REQUIRE(drive.contents() == data);
  }
};

// A randomly written drive saved as an image in a scratch directory.
struct Saved {
  Scratch scratch;
  DataDrive drive;
  std::string path;
  std::string bytes;
  Saved(std::uint64_t seed, std::uint64_t capacities) : drive(tiny_drive()), path(scratch.file("drive.img")) {
    drive.write_random(seed, capacities * std::uint64_t(drive.ftl.user_units()));
    save_image(path, drive.config, drive.ftl, drive.store);
    bytes = slurp(path);
  }
};

}  // namespace

TEST_CASE("serve image: a saved drive loads into a fresh one with the same data", "[image]") {
  Saved saved(1, 3);
  DataDrive& a = saved.drive;
  const std::string& path = saved.path;
  REQUIRE(a.ftl.stats().gc_erases > 0);
  DataDrive b(tiny_drive());
  load_image(path, b.config, b.ftl, b.store);
  CHECK(b.contents() == a.contents());
  CHECK(ssdlab::test::image_of(b.ftl) == ssdlab::test::image_of(a.ftl));
}

TEST_CASE("serve image: a huge section length is refused at once in bounded memory", "[image]") {
  Saved saved(2, 2);
  const std::string& path = saved.path;
  const std::string& good = saved.bytes;
  const int bit = GENERATE(31, 36, 40, 63);
  CAPTURE(bit);
  std::string bad = good;
  const std::size_t len = ftl_length_offset(bad);
  poke<std::uint64_t>(bad, len, peek<std::uint64_t>(bad, len) ^ (std::uint64_t(1) << bit));
  spit(path, bad);
  Bystander by(tiny_drive(), 7);
  const std::uint64_t rss = max_rss_bytes();
  CHECK_THROWS_MATCHES(
      load_image(path, by.drive.config, by.drive.ftl, by.drive.store), ImageError,
      Catch::Matchers::Predicate<ImageError>(
          [](const ImageError& e) { return std::string(e.what()).find("section 'FTL state'") != std::string::npos; },
          "names the FTL section"));
  CHECK(max_rss_bytes() < rss + (std::uint64_t(64) << 20));
  by.require_untouched();
}

TEST_CASE("serve image: a stored block under another block number is refused", "[image]") {
  Saved saved(3, 2);
  DataDrive& a = saved.drive;
  const std::string& path = saved.path;
  const std::string& good = saved.bytes;
  const auto offs = block_number_offsets(good);
  REQUIRE(offs.size() >= 4);
  const std::uint32_t blocks = a.ftl.geometry().blocks;
  Bystander by(tiny_drive(), 8);
  int refused = 0, tried = 0;
  for (std::size_t i = 0; i < offs.size(); ++i) {
    const auto b = peek<std::uint32_t>(good, offs[i]);
    for (std::uint32_t other :
         {(b + 1) % blocks, (b + blocks - 1) % blocks, peek<std::uint32_t>(good, offs[(i + 1) % offs.size()])}) {
      if (other == b) continue;
      std::string bad = good;
      poke<std::uint32_t>(bad, offs[i], other);
      spit(path, bad);
      ++tried;
      try {
        load_image(path, by.drive.config, by.drive.ftl, by.drive.store);
      } catch (const ImageError& e) {
        refused += std::string(e.what()).find("section 'stored block #") != std::string::npos;
      }
      by.require_untouched();
    }
  }
  CAPTURE(tried);
  CHECK(refused == tried);
  WARN("renamed block numbers: " << refused << " of " << tried << " refused");
}

TEST_CASE("serve image: every flipped bit is refused naming a section and the drive is untouched", "[image]") {
  Saved saved(4, 2);
  DataDrive& a = saved.drive;
  const std::string& path = saved.path;
  const std::string& good = saved.bytes;
  auto fresh = std::make_unique<DataDrive>(tiny_drive());
  const std::string fresh_ftl = ssdlab::test::image_of(fresh->ftl);
  Rng rng(2026);
  int refused = 0, identical = 0;
  const int kFlips = 2000;
  for (int i = 0; i < kFlips; ++i) {
    const std::uint64_t bit = rng.below(good.size() * 8);
    std::string bad = good;
    bad[bit / 8] = static_cast<char>(bad[bit / 8] ^ (1 << (bit % 8)));
    spit(path, bad);
    try {
      load_image(path, fresh->config, fresh->ftl, fresh->store);
    } catch (const ImageError& e) {
      // The preamble and the end marker are compared byte for byte; all else is in sections.
      const std::string why = e.what();
      const bool named = why.find("section '") != std::string::npos || bit < 16 * 8 ||
                         (bit >= (good.size() - 8) * 8 && why.find("end marker") != std::string::npos);
      if (!named) FAIL_CHECK("bit " << bit << ": " << e.what());
      refused += named;
      REQUIRE(fresh->store.allocated_blocks() == 0);
      REQUIRE(ssdlab::test::image_of(fresh->ftl) == fresh_ftl);
      continue;
    }
    // Loaded: only acceptable if nothing the host or the FTL sees changed.
    if (fresh->contents() == a.contents() && ssdlab::test::image_of(fresh->ftl) == ssdlab::test::image_of(a.ftl)) {
      ++identical;
    } else {
      FAIL_CHECK("bit " << bit << " (byte " << bit / 8 << " of " << good.size() << ") loaded a different drive");
    }
    fresh = std::make_unique<DataDrive>(tiny_drive());
  }
  CAPTURE(refused, identical);
  CHECK(refused + identical == kFlips);
  WARN("flipped bits: " << refused << " of " << kFlips << " refused, " << identical << " loaded identically");
}

TEST_CASE("serve image: a truncated image is refused naming a section and the drive is untouched", "[image]") {
  Saved saved(5, 2);
  const std::string& path = saved.path;
  const std::string& good = saved.bytes;
  Bystander by(tiny_drive(), 9);
  Rng rng(11);
  std::vector<std::size_t> cuts = {0, 1, 7, 8, 15, 16, 23, 24, good.size() - 1, good.size() - 8};
  for (int i = 0; i < 200; ++i) cuts.push_back(rng.below(good.size()));
  for (std::size_t n : cuts) {
    CAPTURE(n);
    spit(path, good.substr(0, n));
    std::string why;
    try {
      load_image(path, by.drive.config, by.drive.ftl, by.drive.store);
    } catch (const ImageError& e) {
      why = e.what();
    }
    CAPTURE(why);
    CHECK_FALSE(why.empty());
    // Past the 16-byte preamble every cut falls into a section or the end marker.
    if (n >= 16) CHECK((why.find("section '") != std::string::npos || why.find("end marker") != std::string::npos));
    by.require_untouched();
  }
}

TEST_CASE("serve image: a refused load leaves an existing drive's data readable and unchanged", "[image]") {
  Saved saved(6, 2);  // the image of another drive
  const std::string& path = saved.path;
  std::string bad = saved.bytes;
  // Damage the last stored block: everything before it (the FTL state too) is sound.
  const std::size_t last = block_number_offsets(bad).back();
  bad[last + 100] = static_cast<char>(bad[last + 100] ^ 0x10);
  spit(path, bad);
  Bystander by(tiny_drive(), 10);
  CHECK_THROWS_WITH(load_image(path, by.drive.config, by.drive.ftl, by.drive.store),
                    Catch::Contains("section 'stored block #") && Catch::Contains("checksum mismatch"));
  by.require_untouched();
  CHECK(by.drive.ftl.check_invariants().empty());
}

TEST_CASE("serve image: stale temporary files of dead savers are removed and live ones kept", "[image]") {
  Scratch s;
  DataDrive a(tiny_drive());
  a.write_random(12, std::uint64_t(a.ftl.user_units()));
  const std::string path = s.file("drive.img");
  // A PID that is certainly dead: a child that has exited and been reaped.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  ::waitpid(child, nullptr, 0);
  REQUIRE(::kill(child, 0) != 0);
  const std::string dead = path + ".tmp." + std::to_string(child);
  const std::string live = path + ".tmp.1";  // init: alive as long as the system is
  const std::string unrelated = s.file("other.img.tmp." + std::to_string(child));
  SECTION("on save") {
    for (const auto& f : {dead, live, unrelated}) spit(f, "partial image");
    save_image(path, a.config, a.ftl, a.store);
  }
  SECTION("on load") {
    save_image(path, a.config, a.ftl, a.store);
    for (const auto& f : {dead, live, unrelated}) spit(f, "partial image");
    DataDrive b(tiny_drive());
    load_image(path, b.config, b.ftl, b.store);
  }
  CHECK_FALSE(std::filesystem::exists(dead));
  CHECK(std::filesystem::exists(live));
  CHECK(std::filesystem::exists(unrelated));
  CHECK_FALSE(std::filesystem::exists(path + ".tmp." + std::to_string(::getpid())));
}

TEST_CASE("serve image: with striped GC relocation the data read back is the data written, and so after a load",
          "[image][striped]") {
  // Four dies, relocation across them: the bytes move with every relocation (PageStore::move).
  DriveConfig c = small_drive(2, 2, 24, 8, 4096, 0.25);
  c.controller.gc.relocation = GcRelocation::kStriped;
  Scratch scratch;
  DataDrive a(c);
  const std::uint64_t seed = 6, units = 6 * std::uint64_t(a.ftl.user_units());
  a.write_random(seed, units);
  REQUIRE(a.ftl.relocation().cross_die_units > 0);
  // What the host wrote last to each LPN, computed apart from the drive (write_random's pattern).
  std::vector<std::uint8_t> expected(std::size_t(a.ftl.user_units()) * a.unit.size(), 0);
  Rng rng(seed);
  for (std::uint64_t i = 0; i < units; ++i) {
    const auto lpn = static_cast<Lpn>(rng.below(a.ftl.user_units()));
    for (std::size_t k = 0; k < a.unit.size(); k += 8) {
      const std::uint64_t word = (seed << 48) ^ (std::uint64_t(lpn) << 24) ^ (i << 4) ^ k;
      std::memcpy(&expected[std::size_t(lpn) * a.unit.size() + k], &word, 8);
    }
  }
  CHECK(a.contents() == expected);
  const std::string path = scratch.file("striped.img");
  save_image(path, c, a.ftl, a.store);
  DataDrive b(c);
  load_image(path, b.config, b.ftl, b.store);
  CHECK(b.contents() == expected);
  CHECK(b.ftl.relocation().cursor == a.ftl.relocation().cursor);
  CHECK(ssdlab::test::image_of(b.ftl) == ssdlab::test::image_of(a.ftl));
}
