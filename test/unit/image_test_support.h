// Finding one's way in a drive image (controller/ftl/ftl_image.h): its sections, for tests that
// damage one field on purpose.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "controller/ftl/ftl.h"

namespace ssdlab::test {

struct ImageSection {
  std::string tag;
  std::size_t header = 0;   // offset of the tag
  std::size_t payload = 0;  // offset of the first payload byte
  std::uint64_t length = 0;
};

// The sections from `start` on (16: after an FTL image's or a drive image's preamble), up to
// the first thing that is not one (the end marker).
inline std::vector<ImageSection> sections_of(const std::string& img, std::size_t start = 16) {
  std::vector<ImageSection> out;
  for (std::size_t off = start; off + 12 <= img.size();) {
    ImageSection s;
    s.tag = img.substr(off, 4);
    std::memcpy(&s.length, &img[off + 4], 8);
    if (s.length > img.size() - off - 12 || img.size() - off - 12 - s.length < 8) break;
    s.header = off;
    s.payload = off + 12;
    out.push_back(s);
    off = s.payload + s.length + 8;
  }
  return out;
}

// The `index`-th section tagged `tag` (a 4-character tag, e.g. "DIE ").
inline ImageSection section_of(const std::string& img, const std::string& tag, std::size_t index = 0,
                               std::size_t start = 16) {
  for (const ImageSection& s : sections_of(img, start)) {
    if (s.tag == tag && index-- == 0) return s;
  }
  return ImageSection{};
}

template <class T>
void poke(std::string& s, std::size_t off, T v) {
  std::memcpy(&s[off], &v, sizeof v);
}
template <class T>
T peek(const std::string& s, std::size_t off) {
  T v;
  std::memcpy(&v, &s[off], sizeof v);
  return v;
}

// Loads `img` into a fresh FTL of `config`: it must be refused, and the FTL left untouched. The
// damage is made without fixing the section's checksum: with checksums it is refused as damage,
// without them (as a crafted image would be) by the range check named `what`.
inline void require_refused(const DriveConfig& config, const std::string& img, const char* what) {
  Ftl ftl(config);
  std::ostringstream before;
  ftl.save(before);
  {
    std::istringstream in(img);
    CHECK_THROWS_WITH(ftl.load(in), Catch::Contains("checksum mismatch"));
  }
  FtlLoadOptions unchecked;
  unchecked.verify_checksums = false;
  std::istringstream in(img);
  CHECK_THROWS_WITH(ftl.load(in, unchecked), Catch::Contains(what));
  CHECK(ftl.check_invariants().empty());
  std::ostringstream after;
  ftl.save(after);
  CHECK(after.str() == before.str());
}

}  // namespace ssdlab::test
