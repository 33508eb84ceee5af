// Controller regressions found in a review, each with a small host that
// submits commands one after another:
// - a write-back write's buffer slots, programmed after its command completed, were counted
//   against the next command that reused its NCQ tag (a FUA write then completed early and
//   its data was lost);
// - with several units per page, a write needing the whole buffer waited for ever behind a
//   part-filled page that only its own data could fill;
// - a write of max_transfer bytes (= the buffer) starting inside a mapping unit touches one
//   unit more than the buffer holds, and was refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "data_host.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

TEST_CASE("a FUA write reusing the tag of a write-back write still in the buffer keeps its data", "[controller][fua]") {
  // One die, so that the RMW read waits behind the earlier write's program.
  const DriveConfig config = drive_from_yaml(drive_yaml("1", "1", "64", "50us", "100MB/s", "3Gbps"));
  Ssd ssd("ssd", config, /*keep_data=*/true);
  std::vector<std::uint8_t> old_data(4096, 0xAA), w1(4096, 0x11), w2(512, 0x22), back(4096, 0);
  bool w2_error = true;
  std::uint8_t w2_tag = 99, w1_tag = 98;
  Host host("host", ssd, [&](Host& h) {
    IoRequest a = req(AtaCommand::kWriteFpdma, 0, 8, old_data.data());  // LPN 0
    h.submit(a);
    h.wait_for(a);
    IoRequest f = req(AtaCommand::kFlushCache, 0, 0, nullptr);
    h.submit(f);
    h.wait_for(f);                                                 // LPN 0 on flash
    IoRequest b = req(AtaCommand::kWriteFpdma, 80, 8, w1.data());  // LPN 10, write-back
    h.submit(b);
    h.wait_for(b);  // done; its slot is still programming
    w1_tag = b.tag;
    IoRequest c = req(AtaCommand::kWriteFpdma, 1, 1, w2.data(), /*fua=*/true);  // 512 B inside LPN 0: RMW
    h.submit(c);
    h.wait_for(c);
    w2_tag = c.tag;
    w2_error = c.error;
    sc_core::wait(sc_core::sc_time(20, sc_core::SC_MS));
    IoRequest r = req(AtaCommand::kReadFpdma, 0, 8, back.data());
    h.submit(r);
    h.wait_for(r);
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  CHECK(w1_tag == w2_tag);
  CHECK_FALSE(w2_error);
  // The FUA write completed without error: its 512 bytes must be there.
  CAPTURE(int(back[512]));
  CHECK(back[512] == 0x22);
  CHECK(back[0] == 0xAA);
  CHECK(ssd.controller.ftl().check_invariants().empty());
}

TEST_CASE("a buffer-sized write does not wait for ever behind a part-filled page", "[controller][buffer]") {
  std::string yaml = drive_yaml("1", "2", "64", "50us", "100MB/s", "3Gbps");
  yaml.replace(yaml.find("page_size: 4KiB"), 15, "page_size: 16KiB");
  const DriveConfig config = drive_from_yaml(yaml);
  Ssd ssd("ssd", config, true);
  const std::uint32_t small_bytes = 4096;  // a quarter page: it stays staged
  std::vector<std::uint8_t> small(small_bytes, 1), big(config.controller.max_transfer_bytes, 2);
  std::vector<std::uint8_t> back(big.size(), 0);
  bool big_done = false, big_error = true, read_error = true;
  Host host("host", ssd, [&](Host& h) {
    IoRequest a = req(AtaCommand::kWriteFpdma, 0, small_bytes / 512, small.data());
    h.submit(a);
    h.wait_for(a);
    IoRequest b = req(AtaCommand::kWriteFpdma, 1024, static_cast<std::uint32_t>(big.size() / 512), big.data());
    h.submit(b);
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_SEC));
    big_done = std::find(h.done.begin(), h.done.end(), &b) != h.done.end();
    if (big_done) {
      big_error = b.error;
      IoRequest r = req(AtaCommand::kReadFpdma, 1024, static_cast<std::uint32_t>(back.size() / 512), back.data());
      h.submit(r);
      h.wait_for(r);
      read_error = r.error;
    }
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  REQUIRE(big_done);       // one second of simulated time for a 1 MiB write
  CHECK_FALSE(big_error);  // completed because it was done, not because it was refused
  CHECK(ssd.controller.stats().rejected == 0);
  CHECK_FALSE(read_error);
  CHECK(back == big);
}

TEST_CASE("a write of max_transfer bytes that starts inside a mapping unit is accepted", "[controller][buffer]") {
  const DriveConfig config = drive_from_yaml(drive_yaml("1", "2", "64", "50us", "100MB/s", "3Gbps"));
  REQUIRE(config.controller.max_transfer_bytes == config.controller.write_buffer_bytes);
  Ssd ssd("ssd", config, true);
  std::vector<std::uint8_t> data(config.controller.max_transfer_bytes, 0x5A);
  bool error = false;
  Host host("host", ssd, [&](Host& h) {
    IoRequest w = req(AtaCommand::kWriteFpdma, 1, static_cast<std::uint32_t>(data.size() / 512), data.data());
    h.submit(w);
    h.wait_for(w);
    error = w.error;
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  CHECK_FALSE(error);  // a legal command: within max_transfer and the drive
  CHECK(ssd.controller.stats().rejected == 0);
}
