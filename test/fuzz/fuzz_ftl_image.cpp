// libFuzzer target: the drive-image loader (load_ftl_image, controller/ftl/ftl_image.h) on a
// tiny drive, then writes and trims on whatever it accepted, with the invariant checker after
// each step. An image the loader accepts must be a consistent FTL: an invariant violation or a
// crash afterwards is a loader bug. A refused image must leave the drive as it was.
//
// Input: one byte F, then N = F & 0x7f operations of 3 bytes (byte 0 bit 0: 0 = write, 1 = trim;
// bytes 1-2: the LPN, modulo the drive's units), then the image bytes. F's bit 7 set: checksums
// are verified (mutations then mostly test the checksums); clear: they are not, so mutations
// reach the range checks behind them.
//
// Built with -DSSDLAB_IMAGE_SEED_GENERATOR this file is instead a program that writes seed
// inputs (images of a fresh and of an aged tiny drive) into the directory it is given.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "base/config/config_loader.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/ftl_image.h"
#include "controller/ftl/precondition.h"

namespace {

// 2 dies x 16 blocks x 8 pages x 8 KiB with 2 units a page: images of a few KiB.
const ssdlab::DriveConfig& tiny_drive() {
  static const ssdlab::DriveConfig config = ssdlab::parse_drive_config(
      "name: fuzz\n"
      "nand: {channels: 1, dies_per_channel: 2, blocks_per_plane: 16, pages_per_block: 8,\n"
      "       page_size: 8KiB, cell: MLC, t_read: 50us, t_prog: 500us, t_erase: 2ms, bus_rate: 100MB/s}\n"
      "controller: {write_buffer: 64KiB, op: 0.3, gc: {free_blocks_low: 1, free_blocks_high: 2}}\n",
      "fuzz-tiny.yaml");
  return config;
}

void check(const ssdlab::Ftl& ftl, const char* when) {
  const std::string violation = ftl.check_invariants();
  if (violation.empty()) return;
  std::fprintf(stderr, "invariant violated %s: %s\n", when, violation.c_str());
  std::abort();
}

// Applies `count` 3-byte operations; stops at the first the drive refuses (full of valid data).
void apply(ssdlab::Ftl& ftl, const std::uint8_t* ops, std::size_t count) {
  ssdlab::PageWriter writer(ftl);
  try {
    for (std::size_t i = 0; i < count; ++i, ops += 3) {
      const auto lpn = static_cast<ssdlab::Lpn>((ops[1] << 8 | ops[2]) % ftl.user_units());
      if (ops[0] & 1) {
        writer.flush();
        ftl.trim(lpn);
      } else {
        writer.write(lpn);
      }
    }
    writer.flush();
  } catch (const std::runtime_error&) {
    return;
  }
}

}  // namespace

#ifndef SSDLAB_IMAGE_SEED_GENERATOR

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t ops = std::min<std::size_t>(data[0] & 0x7f, (size - 1) / 3);
  const std::size_t image_at = 1 + 3 * ops;
  ssdlab::FtlLoadOptions options;
  options.verify_checksums = (data[0] & 0x80) != 0;
  ssdlab::Ftl ftl(tiny_drive());
  std::ostringstream before;
  ftl.save(before);
  try {
    ssdlab::load_ftl_image(ftl, data + image_at, size - image_at, options);
  } catch (const ssdlab::ImageFormatError&) {
    std::ostringstream after;
    ftl.save(after);
    if (after.str() != before.str()) {
      std::fprintf(stderr, "a refused image changed the drive\n");
      std::abort();
    }
    return 0;  // refused, drive untouched: fine
  }
  check(ftl, "after load");
  apply(ftl, data + 1, ops);
  check(ftl, "after writes and trims");
  return 0;
}

#else

// seed-generator DIR: writes DIR/fresh (an empty drive, a few operations) and DIR/aged (a
// drive written over twice with some trims, no operations), each also as NAME-unchecked (bit 7
// of the first byte clear: checksums not verified).
int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const auto write_seed = [&](const std::string& name, const ssdlab::Ftl& ftl, const std::string& ops, bool verify) {
    std::ostringstream image;
    ftl.save(image);
    std::ofstream out(std::string(argv[1]) + "/" + name, std::ios::binary);
    out << static_cast<char>(ops.size() / 3 | (verify ? 0x80 : 0)) << ops << image.str();
    return static_cast<bool>(out);
  };
  ssdlab::Ftl fresh(tiny_drive());
  const std::string some_ops("\x00\x00\x01\x00\x00\x02\x01\x00\x01", 9);  // write 1, write 2, trim 1
  ssdlab::Ftl aged(tiny_drive());
  std::string script;
  for (std::uint32_t i = 0; i < 2 * aged.user_units(); ++i) {
    const std::uint32_t lpn = (i * 7) % aged.user_units();
    script += std::string{'\0', char(lpn >> 8), char(lpn & 0xff)};
    if (i % 5 == 0) script += std::string{'\1', char(lpn >> 8), char(lpn & 0xff)};
  }
  apply(aged, reinterpret_cast<const std::uint8_t*>(script.data()), script.size() / 3);
  check(aged, "while making the seed");
  const bool ok = write_seed("fresh", fresh, some_ops, true) && write_seed("aged", aged, "", true) &&
                  write_seed("fresh-unchecked", fresh, some_ops, false) &&
                  write_seed("aged-unchecked", aged, "", false);
  return ok ? 0 : 1;
}

#endif
