// The drive image of `ssdlab serve --image FILE`: the data in the flash array and the FTL
// state, so that an aged drive can be stopped and served again. Plain C++ (the FTL and its page
// store; the drive's control face takes them from its controller: controller/sc/drive_control.h).
// Saved only when the drive is drained (nothing in the write buffer), written crash-safe
// (FILE.tmp.PID, fsync, rename, fsync of the directory); temporaries that killed savers left
// behind are removed on load and save.
//
// Layout (native-endian fixed-width fields; sections of tag, length, payload and XXH3-64
// checksum as in controller/ftl/ftl_image.h):
//   "SSDLIMG1"  u32 byte-order mark  u32 version (2; 1 had no checksums)
//   CONF  the effective drive config (YAML) it belongs to
//   FTL   Ftl::save() (itself sectioned and checksummed)
//   DHDR  u32 blocks  u64 bytes per block  u64 k
//   k x BLCK  u32 block, its bytes
//   "SSDLEND1"
// Only blocks holding data since their last erase are stored. Every section is bounded by the
// config before it is read and checked before it is used; a load goes into a fresh FTL state and
// flash store that replace the drive's only once the whole image has been checked.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/config/config.h"
#include "controller/ftl/ftl.h"
#include "controller/ftl/page_store.h"

namespace ssdlab {

// An image that cannot be used with this drive: another config, damage. what() is complete.
class ImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A load stopped by its caller (a signal during `serve --image`'s restore): nothing changed.
class ImageLoadInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ImageInfo {
  std::uint64_t data_blocks = 0;  // blocks of flash that hold data
  std::uint64_t file_bytes = 0;
  std::vector<std::string> removed_temporaries;  // stale FILE.tmp.PID of savers no longer alive
};

// Removes PATH.tmp.PID files left by savers that are no longer running (killed during a save);
// returns their names. load_image and save_image call it; so does `serve` when PATH is new.
std::vector<std::string> remove_stale_temporaries(const std::string& path);

// Loads an image into an FTL and its flash data (a drive that has not run, or whose mapping
// cache is told with DeviceController::mapping_loaded()). Throws ImageError; `ftl` and `store`
// are then unchanged. When `*interrupted` turns true during the load it stops, throwing
// ImageLoadInterrupted, and changes nothing either.
ImageInfo load_image(const std::string& path, const DriveConfig& config, Ftl& ftl, PageStore& store,
                     const std::atomic<bool>* interrupted = nullptr);
// Writes the image of a drained drive (no write-buffer entry in the mapping) crash-safe.
// Throws std::runtime_error (I/O) or ImageError (not drained).
ImageInfo save_image(const std::string& path, const DriveConfig& config, const Ftl& ftl, const PageStore& store);
// Loads an image from a stream (`name` in messages): what load_image(path) does after opening
// the file, and the entry point for fuzzers. `verify_checksums` false only for fuzzing the
// checks behind the checksums.
ImageInfo load_image(std::istream& in, const std::string& name, const DriveConfig& config, Ftl& ftl, PageStore& store,
                     bool verify_checksums = true, const std::atomic<bool>* interrupted = nullptr);
// The image's bytes, as save_image writes them into its temporary file; returns the number of
// flash blocks stored. Throws ImageError when the drive is not drained.
std::uint64_t write_image(std::ostream& out, const DriveConfig& config, const Ftl& ftl, const PageStore& store);

}  // namespace ssdlab
