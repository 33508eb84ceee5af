// Helpers for firmware unit tests: small drive configs built in code, and a host-less
// driver that pushes writes through the FTL the way the controller does.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "base/config/config.h"
#include "base/core/rng.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/precondition.h"

namespace ssdlab::test {

inline DriveConfig small_drive(std::uint32_t channels = 2, std::uint32_t dies_per_channel = 2,
                               std::uint32_t blocks = 32, std::uint32_t pages = 32, std::uint32_t page_bytes = 4096,
                               double op = 0.25, GcPolicyKind policy = GcPolicyKind::kGreedy) {
  DriveConfig c;
  c.name = "unit";
  c.nand.channels = channels;
  c.nand.dies_per_channel = dies_per_channel;
  c.nand.blocks_per_plane = blocks;
  c.nand.pages_per_block = pages;
  c.nand.page_size_bytes = page_bytes;
  c.nand.cell = CellType::kMlc;
  c.nand.t_read_ps = {50 * kPicosPerUs, 50 * kPicosPerUs, 0};
  c.nand.t_prog_ps = {250 * kPicosPerUs, 900 * kPicosPerUs, 0};
  c.nand.t_erase_ps = 2 * kPicosPerMs;
  c.nand.bus_bytes_per_s = 100000000;
  c.controller.op = op;
  c.controller.mapping_unit_bytes = 4096;
  c.controller.write_buffer_bytes = 1 << 20;
  c.controller.gc.policy = policy;
  const std::uint64_t raw = c.nand.raw_bytes();
  c.controller.user_bytes = static_cast<std::uint64_t>(double(raw) * (1.0 - op)) / 4096 * 4096;
  return c;
}

// Writes LPNs through the FTL as the controller would (see PageWriter), one page at a time.
class FtlDriver {
 public:
  explicit FtlDriver(Ftl& ftl) : m_writer(ftl) {}
  void write_page(const Lpn* lpns, std::uint32_t count) { m_writer.write_page(lpns, count); }
  void write(Lpn lpn) { write_page(&lpn, 1); }
  // The NAND operations the last page asked for.
  const OpList& ops() const { return m_writer.last_ops(); }

 private:
  PageWriter m_writer;
};

// Every LPN once, in order, units_per_page LPNs to a page (the last page part-filled).
inline void fill_sequentially(Ftl& ftl, FtlDriver& driver) {
  const std::uint32_t upp = ftl.geometry().units_per_page;
  std::vector<Lpn> page(upp);
  for (Lpn lpn = 0; lpn < ftl.user_units(); lpn += upp) {
    std::uint32_t n = 0;
    for (; n < upp && lpn + n < ftl.user_units(); ++n) page[n] = lpn + n;
    driver.write_page(page.data(), n);
  }
}

// The FTL's image as Ftl::save writes it.
inline std::string image_of(const Ftl& ftl) {
  std::ostringstream out;
  ftl.save(out);
  return out.str();
}

}  // namespace ssdlab::test
