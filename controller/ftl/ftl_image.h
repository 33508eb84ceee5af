// Drive images (Ftl::save / Ftl::load, and `ssdlab serve --image` around them) are made of
// sections, each checked on its own before anything in it is used:
//
//   4-byte tag  u64 length  length bytes of payload  u64 XXH3-64 of (tag, length, payload)
//
// A reader names the section it expects (tag and a human name for messages) and the bounds its
// length must lie in, computed from the drive's geometry: a length outside them, or beyond the
// bytes left in the file, is refused before anything is allocated. The checksum is xxHash's
// XXH3-64 (Debian's libxxhash): fast enough that a multi-GiB image costs little to check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

#include "base/core/huge_pages.h"
#include "controller/ftl/ftl.h"

struct XXH3_state_s;

namespace ssdlab {

// An image that cannot be used: what() names the section and says what is wrong with it.
class ImageFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads an FTL image held in memory into `ftl` (the entry point for fuzzers: build an Ftl of a
// small config, then call this on the input bytes). Throws ImageFormatError (a damaged or
// foreign image; `ftl` is then unchanged). With options.verify_checksums false a fuzzer reaches
// the range checks behind the checksums.
void load_ftl_image(Ftl& ftl, const std::uint8_t* data, std::size_t size, const FtlLoadOptions& options = {});

// Upper bound of the size of an image Ftl::save writes for `ftl`'s geometry.
std::uint64_t ftl_image_max_bytes(const Ftl& ftl);

namespace image {

constexpr std::uint64_t kUnknownSize = ~std::uint64_t(0);
struct HashDeleter {
  void operator()(XXH3_state_s* state) const;
};
using Hash = std::unique_ptr<XXH3_state_s, HashDeleter>;
// Bytes from `in`'s position to its end, or kUnknownSize when it cannot seek (a pipe).
std::uint64_t bytes_left(std::istream& in);

class SectionWriter {
 public:
  // Writes the header of a section of exactly `length` payload bytes.
  SectionWriter(std::ostream& out, const char (&tag)[5], std::uint64_t length);
  SectionWriter(const SectionWriter&) = delete;
  SectionWriter& operator=(const SectionWriter&) = delete;

  void write(const void* data, std::size_t n);
  template <class T>
  void put(const T& v) {
    write(&v, sizeof v);
  }
  template <class T>
  void put_all(const std::vector<T>& v) {
    if (!v.empty()) write(v.data(), v.size() * sizeof(T));
  }
  // Writes the checksum. Throws std::logic_error if the payload was not `length` bytes.
  void finish();

 private:
  std::ostream& m_out;
  Hash m_hash;
  std::uint64_t m_left;
};

// A read-only, seekable stream buffer over bytes in memory (no copy): an image file mapped into
// memory, or an FTL section inside one.
struct MemoryView : std::streambuf {
  MemoryView(const std::uint8_t* p, std::size_t n) {
    char* b = const_cast<char*>(reinterpret_cast<const char*>(p));
    setg(b, b, b + n);
  }
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
    const off_type base = dir == std::ios_base::beg   ? 0
                          : dir == std::ios_base::cur ? gptr() - eback()
                                                      : egptr() - eback();
    if (base + off < 0 || base + off > egptr() - eback()) return pos_type(off_type(-1));
    setg(eback(), eback() + base + off, egptr());
    return pos_type(base + off);
  }
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    return seekoff(off_type(pos), std::ios_base::beg, which);
  }
};

class SectionReader {
 public:
  // Reads the header of the next section, which must be `tag` (`name` in messages, `index` >= 0
  // adds " #index"), and checks its length against [min_len, max_len] and the bytes left.
  SectionReader(std::istream& in, const char (&tag)[5], std::string name, std::uint64_t min_len, std::uint64_t max_len,
                bool verify_checksum = true, std::int64_t index = -1);
  SectionReader(const SectionReader&) = delete;
  SectionReader& operator=(const SectionReader&) = delete;

  std::uint64_t length() const { return m_length; }
  std::uint64_t left() const { return m_left; }
  // Payload bytes; a read past the section's end is refused.
  void read(void* data, std::size_t n);
  template <class T>
  T get() {
    T v;
    read(&v, sizeof v);
    return v;
  }
  // `n` entries (n * sizeof(T) must fit in what is left of the section).
  template <class T>
  std::vector<T> get_all(std::uint64_t n) {
    if (n > m_left / sizeof(T)) fail("holds fewer entries than it claims");
    std::vector<T> v;
    v.reserve(n);
    advise_huge_pages(v.data(), n * sizeof(T));  // a 512 GiB drive's tables: 2 MiB faults, not 4 KiB
    v.resize(n);
    if (n) read(v.data(), n * sizeof(T));
    return v;
  }
  // The payload in place, without a copy: `base` is the first byte of the memory the stream
  // reads (a MemoryView's). Hashes it, moves the stream past it; finish() checks the checksum.
  const std::uint8_t* skip_in_place(const std::uint8_t* base);
  // Reads the whole payload and checks its checksum now: later reads come from memory. For a
  // section whose fields decide how the rest of it is read, so that damage is reported as such.
  void verify_first();
  // Checks that the payload was read to its end, then the checksum.
  void finish();
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::istream& m_in;
  std::string m_name;
  std::uint64_t m_offset;  // of the section's header in the stream
  std::uint64_t m_length = 0, m_left = 0;
  bool m_verify;
  Hash m_hash;
  bool m_buffered = false;  // after verify_first()
  std::string m_buf;
  std::size_t m_pos = 0;
  void check_sum();
};

// Reads and checks a fixed marker (magic) of `n` bytes.
void expect_bytes(std::istream& in, const char* bytes, std::size_t n, const std::string& what);
// Throws ImageFormatError("FTL image: " + what).
[[noreturn]] void corrupt(const std::string& what);
// A geometry field of the image (`got`) must be this drive's (`want`), else corrupt() naming it.
void expect_field(std::uint64_t got, std::uint64_t want, const char* name);

}  // namespace image
}  // namespace ssdlab
