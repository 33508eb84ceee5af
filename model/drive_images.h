// `ssdlab serve --image FILE`: the drive image (controller/ftl/drive_image.h) of a drive that
// carries data, taken from and put into its controller.
#pragma once

#include <atomic>
#include <string>

#include "controller/ftl/drive_image.h"
#include "controller/sc/device_controller.h"

namespace ssdlab {

// Loads `path` into a drive that has not run yet (else call controller.mapping_loaded() after).
// Throws ImageError, or ImageLoadInterrupted when `*interrupted` turns true meanwhile; the drive
// is then unchanged.
ImageInfo load_image(const std::string& path, const DriveConfig& config, DeviceController& controller,
                     const std::atomic<bool>* interrupted = nullptr);
// Writes the image of a drained drive. Throws std::runtime_error (I/O) or ImageError (not drained).
ImageInfo save_image(const std::string& path, const DriveConfig& config, const DeviceController& controller);

}  // namespace ssdlab
