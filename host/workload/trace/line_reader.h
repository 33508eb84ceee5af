// Lines of a text file, plain, gzip (zlib) or zstd (libzstd) compressed, read in fixed-size
// chunks: memory is bounded by the longest line allowed, whatever the file's length.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ssdlab {

// A source of bytes (a file, decompressed on the fly).
class ByteStream {
 public:
  virtual ~ByteStream() = default;
  // Up to `n` bytes into `out`; 0 at the end. Throws TraceError on a read or decode error.
  virtual std::size_t read(char* out, std::size_t n) = 0;
};

enum class Compression : std::uint8_t { kNone, kGzip, kZstd };
const char* to_string(Compression c);

// Opens `path`; the compression is found from the first bytes (gzip 1f 8b, zstd 28 b5 2f fd),
// not the name. TraceError when the file cannot be opened.
std::unique_ptr<ByteStream> open_byte_stream(const std::string& path, Compression* found = nullptr);
// Bytes held in memory (tests, the fuzz target): decompressed like a file.
std::unique_ptr<ByteStream> memory_byte_stream(std::string bytes);

class LineReader {
 public:
  static constexpr std::size_t kDefaultMaxLine = 64 * 1024;
  LineReader(std::unique_ptr<ByteStream> stream, std::string name, std::size_t max_line = kDefaultMaxLine);
  // The next line without its "\n" (and "\r"); valid until the next call. false at the end.
  // TraceError naming the file and line when a line is longer than max_line.
  bool next(std::string_view& line);
  std::uint64_t line_number() const { return m_line; }
  const std::string& name() const { return m_name; }

 private:
  bool fill();  // more bytes after m_end; false at the end of the stream

  std::unique_ptr<ByteStream> m_stream;
  std::string m_name;
  std::size_t m_max_line;
  std::vector<char> m_buf;
  std::size_t m_begin = 0, m_end = 0;
  std::uint64_t m_line = 0;
  bool m_eof = false;
};

}  // namespace ssdlab
