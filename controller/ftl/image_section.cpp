// The section framing of drive images (ftl_image.h): header, bounded payload, XXH3-64.
#include <xxhash.h>

#include <cstring>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>

#include "controller/ftl/ftl_image.h"

namespace ssdlab::image {

namespace {

Hash new_hash() {
  Hash h(XXH3_createState());
  if (!h) throw std::bad_alloc();
  XXH3_64bits_reset(h.get());
  return h;
}

std::string tag_text(const char* tag) {
  std::string t;
  for (int i = 0; i < 4; ++i) {
    const auto c = static_cast<unsigned char>(tag[i]);
    t += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return t;
}

}  // namespace

void HashDeleter::operator()(XXH3_state_s* state) const { XXH3_freeState(state); }

std::uint64_t bytes_left(std::istream& in) {
  const std::istream::pos_type here = in.tellg();
  if (here == std::istream::pos_type(-1)) {
    in.clear();
    return kUnknownSize;
  }
  in.seekg(0, std::ios::end);
  const std::istream::pos_type end = in.tellg();
  in.clear();
  in.seekg(here);
  if (end == std::istream::pos_type(-1) || end < here) return kUnknownSize;
  return static_cast<std::uint64_t>(end - here);
}

void expect_bytes(std::istream& in, const char* bytes, std::size_t n, const std::string& what) {
  std::string got(n, '\0');
  if (!in.read(&got[0], std::streamsize(n))) throw ImageFormatError("the image ends inside its " + what);
  if (std::memcmp(got.data(), bytes, n) != 0) throw ImageFormatError("missing " + what);
}

// ---- SectionWriter -------------------------------------------------------------------------

SectionWriter::SectionWriter(std::ostream& out, const char (&tag)[5], std::uint64_t length)
    : m_out(out), m_hash(new_hash()), m_left(length) {
  m_out.write(tag, 4);
  m_out.write(reinterpret_cast<const char*>(&length), sizeof length);
  XXH3_64bits_update(m_hash.get(), tag, 4);
  XXH3_64bits_update(m_hash.get(), &length, sizeof length);
}

void SectionWriter::write(const void* data, std::size_t n) {
  if (n > m_left) throw std::logic_error("image section written past its length");
  m_left -= n;
  m_out.write(static_cast<const char*>(data), std::streamsize(n));
  XXH3_64bits_update(m_hash.get(), data, n);
}

void SectionWriter::finish() {
  if (m_left != 0) throw std::logic_error("image section ended " + std::to_string(m_left) + " bytes short");
  const std::uint64_t sum = XXH3_64bits_digest(m_hash.get());
  m_out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
  if (!m_out) throw std::runtime_error("image write failed");
}

// ---- SectionReader -------------------------------------------------------------------------

SectionReader::SectionReader(std::istream& in, const char (&tag)[5], std::string name, std::uint64_t min_len,
                             std::uint64_t max_len, bool verify_checksum, std::int64_t index)
    : m_in(in), m_name(std::move(name)), m_verify(verify_checksum), m_hash(new_hash()) {
  if (index >= 0) m_name += " #" + std::to_string(index);
  const std::istream::pos_type here = in.tellg();
  m_offset = here == std::istream::pos_type(-1) ? 0 : static_cast<std::uint64_t>(here);
  if (here == std::istream::pos_type(-1)) in.clear();
  char got[4];
  std::uint64_t length = 0;
  if (!in.read(got, 4) || !in.read(reinterpret_cast<char*>(&length), sizeof length)) fail("the image ends before it");
  if (std::memcmp(got, tag, 4) != 0) fail("expected tag '" + tag_text(tag) + "', found '" + tag_text(got) + "'");
  // Bounds first: nothing is allocated or read for a length the drive cannot have.
  if (length < min_len || length > max_len) {
    fail("claims " + std::to_string(length) + " bytes, a section of this drive has " +
         (min_len == max_len ? std::to_string(min_len) : std::to_string(min_len) + " to " + std::to_string(max_len)));
  }
  const std::uint64_t left = bytes_left(in);
  if (left != kUnknownSize && length + sizeof(std::uint64_t) > left) {
    fail("claims " + std::to_string(length) + " bytes and its checksum, only " + std::to_string(left) +
         " are left in the image (truncated)");
  }
  m_length = m_left = length;
  XXH3_64bits_update(m_hash.get(), got, 4);
  XXH3_64bits_update(m_hash.get(), &length, sizeof length);
}

void SectionReader::read(void* data, std::size_t n) {
  if (n > m_left) fail("holds fewer bytes than its fields need");
  if (m_buffered) {
    if (n) std::memcpy(data, m_buf.data() + m_pos, n);
    m_pos += n;
    m_left -= n;
    return;
  }
  if (n && !m_in.read(static_cast<char*>(data), std::streamsize(n))) fail("the image ends inside it (truncated)");
  m_left -= n;
  XXH3_64bits_update(m_hash.get(), data, n);
}

const std::uint8_t* SectionReader::skip_in_place(const std::uint8_t* base) {
  const std::istream::pos_type here = m_in.tellg();
  if (here == std::istream::pos_type(-1) || m_buffered) fail("cannot be read in place");
  const std::uint8_t* data = base + static_cast<std::uint64_t>(here);
  XXH3_64bits_update(m_hash.get(), data, m_left);
  m_in.seekg(static_cast<std::streamoff>(m_left), std::ios_base::cur);  // the length fits: checked at the header
  if (!m_in) fail("the image ends inside it (truncated)");
  m_left = 0;
  return data;
}

void SectionReader::verify_first() {
  m_buf.resize(m_left);  // bounded: the length passed its checks
  read(&m_buf[0], m_buf.size());
  check_sum();
  m_buffered = true;
  m_left = m_length;
  m_pos = 0;
}

void SectionReader::finish() {
  if (m_left != 0) fail(std::to_string(m_left) + " bytes of it are left over after its fields");
  if (!m_buffered) check_sum();
}

void SectionReader::check_sum() {
  std::uint64_t sum = 0;
  if (!m_in.read(reinterpret_cast<char*>(&sum), sizeof sum)) fail("the image ends inside its checksum (truncated)");
  if (m_verify && sum != XXH3_64bits_digest(m_hash.get())) fail("checksum mismatch: the image is damaged");
}

void SectionReader::fail(const std::string& what) const {
  throw ImageFormatError("section '" + m_name + "' at byte " + std::to_string(m_offset) + ": " + what);
}

}  // namespace ssdlab::image
