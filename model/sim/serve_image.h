// The drive image of `ssdlab serve --image FILE`: the data in the flash array and the FTL
// state, so that an aged drive can be stopped and served again. Saved only when the drive is
// drained (nothing in the write buffer), written atomically (temporary file, fsync, rename).
//
// Layout (native-endian fixed-width fields):
//   "SSDLIMG1"  u32 byte-order mark  u32 version
//   u64 n, n bytes: the effective drive config (YAML) it belongs to
//   u64 n, n bytes: Ftl::save()
//   u32 blocks  u64 bytes per block  u64 k, then k times: u32 block, its bytes
//   "SSDLEND1"
// Only blocks holding data since their last erase are stored.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "controller/sc/device_controller.h"
#include "model/core/config.h"

namespace ssdlab {

// An image that cannot be used with this drive: another config, damage. what() is complete.
class ImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ImageInfo {
  std::uint64_t data_blocks = 0;  // blocks of flash that hold data
  std::uint64_t file_bytes = 0;
};

// Loads `path` into a drive that has not run yet. Throws ImageError.
ImageInfo load_image(const std::string& path, const DriveConfig& config, DeviceController& controller);
// Writes the image of a drained drive. Throws std::runtime_error (I/O) or ImageError (not drained).
ImageInfo save_image(const std::string& path, const DriveConfig& config, const DeviceController& controller);

}  // namespace ssdlab
