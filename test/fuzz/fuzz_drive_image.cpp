// libFuzzer target: a whole drive-image file (controller/ftl/drive_image.h: preamble, CONF, the
// FTL state, the flash data, end marker) loaded into one of six tiny drive kinds: page mapping,
// cost-benefit GC with a mapping cache, hybrid FAST and BAST log blocks, striped GC relocation,
// virtual pages over two dies. The drive that takes the image has been written first.
//
// A refused image must leave that drive (FTL state and flash data) exactly as it was. An accepted
// one must be a drive that keeps working: its invariants hold; the same writes and trims are then
// applied with data, and every unit reads back as written (or as loaded, when not written since),
// through the GC, merges and relocations they cause; the invariants hold again; and the drive
// saved once more loads into a fresh one, unchanged.
//
// Input: byte 0 = K, byte 1 = N, then N operations of 3 bytes (byte 0 bit 0: 0 = write, 1 = trim;
// bytes 1-2: the LPN, modulo the drive's units), then the image file. The kind is (K & 0x7f) % 6;
// K's bit 7 set: checksums are verified, clear: not, so mutations reach the checks behind them.
//
// Built with -DSSDLAB_IMAGE_SEED_GENERATOR this file is instead the program that writes seed
// inputs (a fresh and an aged image of each kind) into the directory it is given.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/config/config_loader.h"
#include "controller/ftl/drive_image.h"
#include "controller/ftl/precondition.h"

namespace {

using ssdlab::Lpn;

// A tiny drive (1 channel x `dies` x 10 blocks x 4 pages) of each kind: images of a few KiB.
struct Kind {
  const char* name;
  int dies;
  const char* page_size;
  const char* controller;  // keys besides the buffer, the transfer size and the GC thresholds
  const char* gc;          // GC keys besides the thresholds
};
const Kind kKinds[] = {
    {"page", 2, "1KiB", "mapping_unit: 512B", ""},
    {"cost-benefit-cache", 2, "1KiB", "mapping_unit: 512B, mapping_cache: 1KiB", ", policy: cost_benefit"},
    {"hybrid-fast", 2, "512B", "mapping_unit: 512B, ftl: hybrid, hybrid: {scheme: fast, log_blocks: 4}", ""},
    {"hybrid-bast", 2, "512B", "mapping_unit: 512B, ftl: hybrid, hybrid: {scheme: bast, log_blocks: 4}", ""},
    {"striped", 2, "1KiB", "mapping_unit: 512B", ", relocation: striped"},
    {"virtual-page", 4, "512B", "mapping_unit: 1KiB", ""},
};
constexpr std::size_t kKindCount = sizeof kKinds / sizeof kKinds[0];

const ssdlab::DriveConfig& config_of(std::size_t kind) {
  static const std::vector<ssdlab::DriveConfig> configs = [] {
    std::vector<ssdlab::DriveConfig> v;
    for (const Kind& k : kKinds) {
      const std::string yaml = std::string("name: fuzz-") + k.name +
                               "\nnand: {channels: 1, dies_per_channel: " + std::to_string(k.dies) +
                               ", blocks_per_plane: 10, pages_per_block: 4, page_size: " + k.page_size +
                               ", cell: MLC, t_read: 50us, t_prog: 500us, t_erase: 2ms, bus_rate: 100MB/s}\n"
                               "controller: {write_buffer: 4KiB, max_transfer: 4KiB, op: 0.4, " +
                               k.controller + ", gc: {free_blocks_low: 1, free_blocks_high: 2" + k.gc + "}}\n";
      v.push_back(ssdlab::parse_drive_config(yaml, std::string("fuzz-") + k.name + ".yaml"));
    }
    return v;
  }();
  return configs[kind];
}

[[noreturn]] void finding(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "%s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
  std::abort();
}

// An FTL with its flash data, kept in step as the controller keeps them.
struct Drive : ssdlab::FtlListener {
  const ssdlab::DriveConfig& config;
  ssdlab::Ftl ftl;
  ssdlab::PageStore store;
  ssdlab::PageWriter writer;
  std::vector<std::uint8_t> unit;

  explicit Drive(const ssdlab::DriveConfig& c)
      : config(c), ftl(c), store(ftl.geometry()), writer(ftl), unit(ftl.geometry().unit_bytes) {
    ftl.set_listener(this);
  }
  Drive(const Drive&) = delete;
  void relocated(Lpn, ssdlab::Pua from, ssdlab::Pua to) override { store.move(from, to); }
  void erased(std::uint32_t block) override { store.erase(block); }

  std::string image() const {
    std::ostringstream out;
    ssdlab::write_image(out, config, ftl, store);
    return out.str();
  }
  // What the host reads at `lpn` (zeros when unmapped).
  void read(Lpn lpn, std::uint8_t* out) const {
    const std::uint32_t e = ftl.lookup(lpn);
    if (e == ssdlab::kUnmapped) {
      std::memset(out, 0, unit.size());
    } else {
      store.read(e, out);
    }
  }
  std::vector<std::uint8_t> contents() const {
    std::vector<std::uint8_t> all(std::size_t(ftl.user_units()) * unit.size());
    for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) read(lpn, &all[std::size_t(lpn) * unit.size()]);
    return all;
  }
  // Applies `count` 3-byte operations, writing data that names the LPN and the operation, and
  // keeps `expect` (one unit per LPN) in step. Stops at the first the drive refuses (full).
  void apply(const std::uint8_t* ops, std::size_t count, std::vector<std::uint8_t>* expect) {
    try {
      for (std::size_t i = 0; i < count; ++i, ops += 3) {
        const auto lpn = static_cast<Lpn>((ops[1] << 8 | ops[2]) % ftl.user_units());
        std::uint8_t* want = expect ? &(*expect)[std::size_t(lpn) * unit.size()] : nullptr;
        if (ops[0] & 1) {
          ftl.trim(lpn);
          if (want) std::memset(want, 0, unit.size());
          continue;
        }
        for (std::size_t k = 0; k < unit.size(); ++k) unit[k] = static_cast<std::uint8_t>(lpn * 31 + i * 7 + k);
        writer.write_page(&lpn, 1);
        store.write(ftl.lookup(lpn), unit.data());
        if (want) std::memcpy(want, unit.data(), unit.size());
      }
    } catch (const std::runtime_error&) {
      // the drive is full of valid data: no die takes a page
    }
  }
};

void check(const ssdlab::Ftl& ftl, const char* when) {
  const std::string violation = ftl.check_invariants();
  if (!violation.empty()) finding(when, violation);
}

}  // namespace

#ifndef SSDLAB_IMAGE_SEED_GENERATOR

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t kind = (data[0] & 0x7f) % kKindCount;
  const bool verify = (data[0] & 0x80) != 0;
  const std::size_t ops = std::min<std::size_t>(data[1], (size - 2) / 3);
  const std::uint8_t* op_bytes = data + 2;
  const std::size_t image_at = 2 + 3 * ops;
  Drive drive(config_of(kind));
  drive.apply(op_bytes, ops, nullptr);  // a drive with something to lose
  const std::string before = drive.image();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + image_at), size - image_at));
  try {
    ssdlab::load_image(in, "fuzz.img", drive.config, drive.ftl, drive.store, verify);
  } catch (const ssdlab::ImageError&) {
    if (drive.image() != before) finding("a refused image changed the drive");
    return 0;
  }
  check(drive.ftl, "invariant violated after load");
  std::vector<std::uint8_t> expect = drive.contents();
  drive.apply(op_bytes, ops, &expect);
  check(drive.ftl, "invariant violated after writes and trims");
  if (drive.contents() != expect) finding("data lost or changed by writes, trims and GC after the load");
  // What the drive is now saves and loads back as it is.
  const std::string again = drive.image();
  Drive fresh(config_of(kind));
  std::istringstream in2(again);
  try {
    ssdlab::load_image(in2, "fuzz-again.img", fresh.config, fresh.ftl, fresh.store);
  } catch (const ssdlab::ImageError& e) {
    finding("a drive that loaded and ran saves an image that does not load", e.what());
  }
  if (fresh.image() != again || fresh.contents() != expect) finding("the image saved again loads differently");
  return 0;
}

#else

// seed-generator DIR: for every kind, DIR/<kind>-fresh (an empty drive, a few operations) and
// DIR/<kind>-aged (a drive written over twice with trims, no operations), checksums verified.
int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  bool ok = true;
  for (std::size_t kind = 0; kind < kKindCount; ++kind) {
    const auto write_seed = [&](const char* age, const Drive& drive, const std::string& ops) {
      std::ofstream out(std::string(argv[1]) + "/" + kKinds[kind].name + "-" + age, std::ios::binary);
      out << static_cast<char>(kind | 0x80) << static_cast<char>(ops.size() / 3) << ops << drive.image();
      ok = ok && static_cast<bool>(out);
    };
    Drive fresh(config_of(kind));
    write_seed("fresh", fresh, std::string("\x00\x00\x01\x00\x00\x02\x01\x00\x01\x00\x00\x05", 12));
    Drive aged(config_of(kind));
    std::string script;
    for (std::uint32_t i = 0; i < 2 * aged.ftl.user_units(); ++i) {
      const std::uint32_t lpn = (i * 7) % aged.ftl.user_units();
      script += std::string{'\0', char(lpn >> 8), char(lpn & 0xff)};
      if (i % 5 == 0) script += std::string{'\1', char(lpn >> 8), char(lpn & 0xff)};
    }
    aged.apply(reinterpret_cast<const std::uint8_t*>(script.data()), script.size() / 3, nullptr);
    check(aged.ftl, "while making the seed");
    write_seed("aged", aged, "");
  }
  return ok ? 0 : 1;
}

#endif
