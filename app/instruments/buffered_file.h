// An output file written through a bounded buffer (the instruments stream: a trace never sits
// in memory whole). Errors name the file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace ssdlab {

class BufferedFile {
 public:
  explicit BufferedFile(const std::string& path);
  ~BufferedFile();
  BufferedFile(const BufferedFile&) = delete;
  BufferedFile& operator=(const BufferedFile&) = delete;

  void put(char c) {
    m_buf.push_back(c);
    if (m_buf.size() >= kLimit) drain();
  }
  void put(const char* text, std::size_t n) {
    m_buf.append(text, n);
    if (m_buf.size() >= kLimit) drain();
  }
  void put(const std::string& text) { put(text.data(), text.size()); }
  void put_uint(std::uint64_t v);
  // Picoseconds as microseconds with six decimals ("12.000345"), exact.
  void put_micros(std::uint64_t picos);
  // Writes what is buffered and closes the file (throws naming the file on a write error).
  void close();
  const std::string& path() const { return m_path; }
  std::uint64_t bytes_written() const { return m_written + m_buf.size(); }

 private:
  static constexpr std::size_t kLimit = 1 << 20;
  void drain();

  std::string m_path;
  std::FILE* m_file = nullptr;
  std::string m_buf;
  std::uint64_t m_written = 0;
};

}  // namespace ssdlab
