// Every drive `ssdlab run` accepts carries data for `ssdlab serve`, with its image: on each kind
// of firmware (page mapping with greedy GC, cost-benefit with a mapping cache, striped GC
// relocation, hybrid FAST and BAST log blocks, virtual pages over two dies), random writes of
// every size over twice the capacity (GC, merges, read-modify-writes) read back as written; the
// drive saved as an image and loaded into a second drive reads back the same, and both go on
// alike. (Hybrid and virtual-page drives were refused: "carries no data and has no drive image".)
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "base/core/rng.h"
#include "data_host.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

constexpr std::uint32_t kSector = 512;

// What the host wrote, mirrored in memory, and the requests that write and check it.
struct Shadow {
  std::vector<std::uint8_t> bytes;
  Rng rng;
  Shadow(std::uint64_t size, std::uint64_t seed) : bytes(size, 0), rng(seed) {}

  // Random writes (0.5 to 64 KiB, sector-aligned) until `total` bytes are written, then FLUSH.
  bool write_random(Host& h, std::uint64_t total) {
    const std::uint64_t sectors = bytes.size() / kSector;
    std::vector<std::uint8_t> data;
    bool ok = true;
    for (std::uint64_t written = 0; written < total && ok;) {
      const auto n = static_cast<std::uint32_t>(1 + rng.below(128));
      const Lba lba = rng.below(sectors - n + 1);
      data.resize(std::size_t(n) * kSector);
      for (auto& b : data) b = static_cast<std::uint8_t>(rng.next());
      IoRequest w = req(AtaCommand::kWriteFpdma, lba, n, data.data(), rng.below(8) == 0);
      ok = !h.run_one(w);
      std::memcpy(&bytes[lba * kSector], data.data(), data.size());
      written += data.size();
    }
    IoRequest f = req(AtaCommand::kFlushCache, 0, 0, nullptr);
    return ok && !h.run_one(f);
  }
  // Reads the whole drive in 256 KiB pieces; true when every byte is what was written.
  bool reads_back(Host& h) const {
    constexpr std::uint32_t kPiece = 256 * 1024;
    std::vector<std::uint8_t> got(kPiece);
    for (std::uint64_t at = 0; at < bytes.size(); at += kPiece) {
      const auto n = static_cast<std::uint32_t>(std::min<std::uint64_t>(kPiece, bytes.size() - at));
      IoRequest r = req(AtaCommand::kReadFpdma, at / kSector, n / kSector, got.data());
      if (h.run_one(r) || std::memcmp(got.data(), &bytes[at], n) != 0) return false;
    }
    return true;
  }
};

// 4 dies x 32 blocks x 64 pages of 4 KiB, 25 % spare, plus the kind's controller keys.
void carries_data_across_an_image(const std::string& controller_keys) {
  const DriveConfig config =
      drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps", "0.25", controller_keys));
  const std::string path =
      (std::filesystem::temp_directory_path() / ("ssdlab-kinds-" + std::to_string(::getpid()) + ".img")).string();
  Ssd a("a", config, /*keep_data=*/true);
  Ssd b("b", config, true);
  Shadow shadow(config.controller.user_bytes, 11);
  bool a_written = false, a_read = false, b_read = false, b_rewritten = false, b_reread = false;
  std::string load_error;
  sc_core::sc_event saved;
  Host ha("host_a", a, [&](Host& h) {
    a_written = shadow.write_random(h, 2 * config.controller.user_bytes);
    a_read = shadow.reads_back(h);
    a.control().save_image(path);
    Timeline::notify(saved);
  });
  Host hb("host_b", b, [&](Host& h) {
    sc_core::wait(saved);
    try {
      b.control().load_image(path);
    } catch (const std::exception& e) {
      load_error = e.what();
      return;
    }
    b_read = shadow.reads_back(h);
    b_rewritten = shadow.write_random(h, config.controller.user_bytes / 2);
    b_reread = shadow.reads_back(h);
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  std::filesystem::remove(path);
  CHECK(a_written);
  CHECK(a_read);
  CHECK(load_error.empty());
  CHECK(b_read);
  CHECK(b_rewritten);
  CHECK(b_reread);
  CHECK(a.controller.ftl().check_invariants().empty());
  CHECK(b.controller.ftl().check_invariants().empty());
  // The drive did relocate data (GC or merges), so the data moved with it.
  CHECK(a.controller.ftl().stats().gc_erases > 0);
}

}  // namespace

TEST_CASE("serve data: a page-mapped drive (greedy GC) keeps its data across an image", "[timing][serve][image]") {
  carries_data_across_an_image("");
}

TEST_CASE("serve data: cost-benefit GC with a mapping cache keeps its data across an image", "[timing][serve][image]") {
  carries_data_across_an_image("  mapping_cache: 8KiB\n  gc: {policy: cost_benefit}\n");
}

TEST_CASE("serve data: striped GC relocation keeps its data across an image", "[timing][serve][image]") {
  carries_data_across_an_image("  gc: {relocation: striped}\n");
}

TEST_CASE("serve data: a hybrid FAST drive keeps its data across an image", "[timing][serve][image][hybrid]") {
  carries_data_across_an_image("  ftl: hybrid\n  hybrid: {scheme: fast, log_blocks: 16}\n");
}

TEST_CASE("serve data: a hybrid BAST drive keeps its data across an image", "[timing][serve][image][hybrid]") {
  carries_data_across_an_image("  ftl: hybrid\n  hybrid: {scheme: bast, log_blocks: 16}\n");
}

TEST_CASE("serve data: a drive of virtual pages over two dies keeps its data across an image",
          "[timing][serve][image][vpage]") {
  carries_data_across_an_image("  mapping_unit: 8KiB\n");
}
