// Idle-time GC: the idle timer's arming and disarming, and one step per idle die.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "controller/ftl/ftl.h"
#include "controller/gc/background_gc.h"
#include "test/unit/test_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

TEST_CASE("background GC is off without idle_free_blocks", "[background_gc]") {
  GcConfig gc;
  gc.idle_free_blocks = 0;
  CHECK_FALSE(BackgroundGc(gc, 1).enabled());
  gc.idle_free_blocks = 3;
  gc.idle_delay_ps = 12345;
  const BackgroundGc bg(gc, 1);
  CHECK(bg.enabled());
  CHECK(bg.idle_delay() == gc.idle_delay_ps);
}

TEST_CASE("the idle timer is re-armed and stopped by a returning host", "[background_gc]") {
  GcConfig gc;
  gc.idle_free_blocks = 2;
  BackgroundGc bg(gc, 1);
  CHECK_FALSE(bg.arm());  // nothing pending before
  CHECK(bg.armed());
  CHECK(bg.arm());   // went idle again: the pending timer is replaced
  CHECK(bg.stop());  // a command: the timer must be cancelled
  CHECK_FALSE(bg.armed());
  CHECK_FALSE(bg.stop());  // nothing left to cancel
}

TEST_CASE("collection starts only if the host is still idle when the timer fires", "[background_gc]") {
  GcConfig gc;
  gc.idle_free_blocks = 2;
  BackgroundGc bg(gc, 1);
  bg.arm();
  CHECK_FALSE(bg.timer_fired(false));
  CHECK_FALSE(bg.running());
  CHECK_FALSE(bg.armed());
  bg.arm();
  CHECK(bg.timer_fired(true));
  CHECK(bg.running());
  CHECK_FALSE(bg.stop());  // stops collecting; no timer was pending
  CHECK_FALSE(bg.running());
}

TEST_CASE("a background step collects only below the free-block target", "[background_gc]") {
  GcConfig gc;
  OpList ops;
  {
    Ftl fresh{small_drive(1, 1, 32, 32)};
    gc.idle_free_blocks = fresh.free_blocks(0);  // reached: nothing to do
    CHECK_FALSE(BackgroundGc(gc, 1).step(fresh, 0, ops));
    CHECK(ops.empty());
  }
  Ftl ftl{small_drive(1, 1, 32, 32)};
  FtlDriver drv{ftl};
  // Fill the drive, then overwrite half of it: closed blocks with invalid data to collect.
  for (Lpn l = 0; l < ftl.user_units(); ++l) drv.write(l);
  for (Lpn l = 0; l < ftl.user_units(); l += 2) drv.write(l);
  gc.idle_free_blocks = ftl.geometry().blocks_per_die;
  CHECK(BackgroundGc(gc, 1).step(ftl, 0, ops));
  CHECK_FALSE(ops.empty());
  for (const NandOp& op : ops) CHECK(op.origin == OpOrigin::kGc);
}
