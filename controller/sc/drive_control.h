// The drive's control face: what a runner, a bridge, a platform or a test asks of the drive
// besides ATA commands, named in one place (as gem5 names its drain protocol `Drainable`):
// drain and quiesce, holding background work, secure erase, fast preconditioning, drive images,
// and the mapping state changed without simulated time. The controller implements it privately
// (controller/sc/device_controller.h), so these calls and the FTL's writable state are reachable
// only through DeviceController::control() (the assembled drive: Ssd::control(), model/ssd.h).
//
// Control calls only: none is on a per-request path, so the virtual calls cost nothing that
// matters, and the controller's own hot paths never go through them.
#pragma once

#include <atomic>
#include <string>
#include <systemc>

#include "controller/ftl/drive_image.h"
#include "controller/ftl/precondition.h"

namespace ssdlab {

class Ftl;

class DriveControl {
 public:
  // ---- drain and quiesce ----
  // No command in flight and no flash operation outstanding.
  virtual bool quiescent() const = 0;
  // No command in flight and the write buffer on flash (idle-time GC may still run: it stops by
  // itself when a command arrives).
  virtual bool drained() const = 0;
  // Notified when quiescent() or drained() turns true (through Timeline::notify, so a process
  // waiting on it wakes at that simulated time).
  virtual const sc_core::sc_event& state_event() const = 0;
  // The host went idle: program whatever the buffer holds, partial pages included; drained()
  // turns true once all of it is on flash.
  virtual void request_drain() = 0;
  // Stop idle-time GC from issuing more work (before a secure erase, an image save, ...). It
  // starts again after the next command, once the host is idle for gc.idle_delay.
  virtual void hold_background() = 0;
  // From an SC_THREAD: request_drain() and wait until drained().
  void drain() {
    request_drain();
    while (!drained()) sc_core::wait(state_event());
  }
  // From an SC_THREAD: hold_background() and wait until quiescent().
  void quiesce() {
    hold_background();
    while (!quiescent()) sc_core::wait(state_event());
  }

  // ---- work done without simulated time (each leaves the drive as the timed path would) ----
  // ATA SECURITY ERASE on a quiescent drive: buffer dropped, every block erased, every LBA
  // unmapped, the mapping cache empty. Throws std::logic_error on a busy drive.
  virtual void secure_erase() = 0;
  // Fast preconditioning of a quiescent drive with an empty buffer (controller/ftl/
  // precondition.h): the mapping cache goes through the same accesses as when the controller
  // writes those pages; afterwards the host counts as just gone idle (idle-time GC may start).
  virtual PreconditionResult precondition(const PreconditionSpec& spec) = 0;

  // ---- drive images (controller/ftl/drive_image.h; a drive built with keep_data) ----
  // Writes the image of a drained drive. Throws std::runtime_error (I/O) or ImageError (no
  // data kept, not drained).
  virtual ImageInfo save_image(const std::string& path) const = 0;
  // Loads `path` into the drive, before the simulation starts or on a quiescent drive. Throws
  // ImageError, or ImageLoadInterrupted when `*interrupted` turns true meanwhile; the drive is
  // then unchanged. The mapping cache then holds nothing and knows every translation page that
  // maps anything to be on flash (mapping_loaded()).
  virtual ImageInfo load_image(const std::string& path, const std::atomic<bool>* interrupted = nullptr) = 0;

  // ---- mapping state ----
  // The FTL, to change without simulated time: before the simulation starts (a drive aged
  // directly, a benchmark's starting state), or on a quiescent drive followed by
  // mapping_loaded(). Its NAND operations are not executed. Read-only access needs none of
  // this: DeviceController::ftl() const.
  virtual Ftl& untimed_ftl() = 0;
  // The FTL's mapping was replaced through untimed_ftl(): every translation page that maps
  // anything to flash is marked as on flash, none cached. Runs at start_of_simulation too.
  virtual void mapping_loaded() = 0;

 protected:
  ~DriveControl() = default;
};

}  // namespace ssdlab
