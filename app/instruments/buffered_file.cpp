#include "app/instruments/buffered_file.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace ssdlab {

BufferedFile::BufferedFile(const std::string& path) : m_path(path), m_file(std::fopen(path.c_str(), "wb")) {
  if (!m_file) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  m_buf.reserve(kLimit + 4096);
}

BufferedFile::~BufferedFile() {
  if (m_file) std::fclose(m_file);
}

void BufferedFile::put_uint(std::uint64_t v) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) m_buf.push_back(digits[--n]);
  if (m_buf.size() >= kLimit) drain();
}

void BufferedFile::put_micros(std::uint64_t picos) {
  put_uint(picos / 1000000);
  char frac[7] = {'.', '0', '0', '0', '0', '0', '0'};
  std::uint64_t rest = picos % 1000000;
  for (int i = 6; i >= 1; --i, rest /= 10) frac[i] = static_cast<char>('0' + rest % 10);
  put(frac, 7);
}

void BufferedFile::drain() {
  if (!m_file || m_buf.empty()) return;
  if (std::fwrite(m_buf.data(), 1, m_buf.size(), m_file) != m_buf.size()) {
    throw std::runtime_error("cannot write " + m_path + ": " + std::strerror(errno));
  }
  m_written += m_buf.size();
  m_buf.clear();
}

void BufferedFile::close() {
  if (!m_file) return;
  drain();
  const bool failed = std::fclose(m_file) != 0;
  m_file = nullptr;
  if (failed) throw std::runtime_error("cannot write " + m_path + ": " + std::strerror(errno));
}

}  // namespace ssdlab
