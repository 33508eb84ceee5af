#include "host/workload/trace/line_reader.h"

#include <zlib.h>
#include <zstd.h>

#include <cstdio>
#include <cstring>

#include "host/workload/trace/trace_record.h"

namespace ssdlab {

namespace {

constexpr std::size_t kChunk = 64 * 1024;

class FileStream : public ByteStream {
 public:
  FileStream(std::FILE* f, std::string path) : m_file(f), m_path(std::move(path)) {}
  ~FileStream() override { std::fclose(m_file); }
  std::size_t read(char* out, std::size_t n) override {
    const std::size_t got = std::fread(out, 1, n, m_file);
    if (got == 0 && std::ferror(m_file)) throw TraceError(m_path + ": read error");
    return got;
  }

 private:
  std::FILE* m_file;
  std::string m_path;
};

class MemoryStream : public ByteStream {
 public:
  explicit MemoryStream(std::string bytes) : m_bytes(std::move(bytes)) {}
  std::size_t read(char* out, std::size_t n) override {
    const std::size_t got = std::min(n, m_bytes.size() - m_pos);
    std::memcpy(out, m_bytes.data() + m_pos, got);
    m_pos += got;
    return got;
  }

 private:
  std::string m_bytes;
  std::size_t m_pos = 0;
};

// Replays the bytes looked at to find the compression, then the rest of the stream.
class PrefixedStream : public ByteStream {
 public:
  PrefixedStream(std::string prefix, std::unique_ptr<ByteStream> rest)
      : m_prefix(std::move(prefix)), m_rest(std::move(rest)) {}
  std::size_t read(char* out, std::size_t n) override {
    if (m_pos < m_prefix.size()) {
      const std::size_t got = std::min(n, m_prefix.size() - m_pos);
      std::memcpy(out, m_prefix.data() + m_pos, got);
      m_pos += got;
      return got;
    }
    return m_rest->read(out, n);
  }

 private:
  std::string m_prefix;
  std::size_t m_pos = 0;
  std::unique_ptr<ByteStream> m_rest;
};

// gzip members one after another (as `cat a.gz b.gz` and pigz write them) through zlib.
class GzipStream : public ByteStream {
 public:
  GzipStream(std::unique_ptr<ByteStream> in, std::string name) : m_in(std::move(in)), m_name(std::move(name)) {
    if (inflateInit2(&m_z, 15 + 16) != Z_OK) throw TraceError(m_name + ": zlib: cannot start");
    m_buf.resize(kChunk);
  }
  ~GzipStream() override { inflateEnd(&m_z); }
  std::size_t read(char* out, std::size_t n) override {
    m_z.next_out = reinterpret_cast<Bytef*>(out);
    m_z.avail_out = static_cast<uInt>(n);
    while (m_z.avail_out == n) {
      if (m_z.avail_in == 0) {
        m_z.avail_in = static_cast<uInt>(m_in->read(m_buf.data(), m_buf.size()));
        m_z.next_in = reinterpret_cast<Bytef*>(m_buf.data());
        if (m_z.avail_in == 0) {
          if (m_in_member) throw TraceError(m_name + ": gzip data ends early (truncated file)");
          break;
        }
      }
      m_in_member = true;
      const int rc = inflate(&m_z, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        m_in_member = false;
        inflateReset(&m_z);
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw TraceError(m_name + ": gzip data is corrupt (" + (m_z.msg ? m_z.msg : "zlib error") + ")");
      }
    }
    return n - m_z.avail_out;
  }

 private:
  std::unique_ptr<ByteStream> m_in;
  std::string m_name;
  z_stream m_z{};
  std::vector<char> m_buf;
  bool m_in_member = false;
};

class ZstdStream : public ByteStream {
 public:
  ZstdStream(std::unique_ptr<ByteStream> in, std::string name)
      : m_in(std::move(in)), m_name(std::move(name)), m_z(ZSTD_createDStream()) {
    if (m_z == nullptr) throw TraceError(m_name + ": zstd: cannot start");
    // A window larger than 128 MiB would be allocated for a crafted frame: refuse it.
    ZSTD_DCtx_setParameter(m_z, ZSTD_d_windowLogMax, 27);
    m_buf.resize(ZSTD_DStreamInSize());
  }
  ~ZstdStream() override { ZSTD_freeDStream(m_z); }
  std::size_t read(char* out, std::size_t n) override {
    ZSTD_outBuffer o{out, n, 0};
    while (o.pos == 0) {
      if (m_inb.pos == m_inb.size) {
        m_inb.size = m_in->read(m_buf.data(), m_buf.size());
        m_inb.src = m_buf.data();
        m_inb.pos = 0;
        if (m_inb.size == 0) {
          if (m_in_frame) throw TraceError(m_name + ": zstd data ends early (truncated file)");
          break;
        }
      }
      const std::size_t rc = ZSTD_decompressStream(m_z, &o, &m_inb);
      if (ZSTD_isError(rc)) throw TraceError(m_name + ": zstd data is corrupt (" + ZSTD_getErrorName(rc) + ")");
      m_in_frame = rc != 0;
    }
    return o.pos;
  }

 private:
  std::unique_ptr<ByteStream> m_in;
  std::string m_name;
  ZSTD_DStream* m_z;
  std::vector<char> m_buf;
  ZSTD_inBuffer m_inb{nullptr, 0, 0};
  bool m_in_frame = false;
};

std::unique_ptr<ByteStream> decompressing(std::unique_ptr<ByteStream> raw, const std::string& name,
                                          Compression* found) {
  char head[4];
  std::size_t got = 0;
  while (got < sizeof head) {
    const std::size_t n = raw->read(head + got, sizeof head - got);
    if (n == 0) break;
    got += n;
  }
  auto in = std::make_unique<PrefixedStream>(std::string(head, got), std::move(raw));
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(head[i]); };
  Compression c = Compression::kNone;
  if (got >= 2 && byte(0) == 0x1f && byte(1) == 0x8b) c = Compression::kGzip;
  if (got >= 4 && byte(0) == 0x28 && byte(1) == 0xb5 && byte(2) == 0x2f && byte(3) == 0xfd) c = Compression::kZstd;
  if (found) *found = c;
  if (c == Compression::kGzip) return std::make_unique<GzipStream>(std::move(in), name);
  if (c == Compression::kZstd) return std::make_unique<ZstdStream>(std::move(in), name);
  return in;
}

}  // namespace

const char* to_string(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "none";
    case Compression::kGzip:
      return "gzip";
    case Compression::kZstd:
      return "zstd";
  }
  return "?";
}

std::unique_ptr<ByteStream> open_byte_stream(const std::string& path, Compression* found) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw TraceError(path + ": cannot open (" + std::strerror(errno) + ")");
  return decompressing(std::make_unique<FileStream>(f, path), path, found);
}

std::unique_ptr<ByteStream> memory_byte_stream(std::string bytes) {
  return decompressing(std::make_unique<MemoryStream>(std::move(bytes)), "memory", nullptr);
}

LineReader::LineReader(std::unique_ptr<ByteStream> stream, std::string name, std::size_t max_line)
    : m_stream(std::move(stream)), m_name(std::move(name)), m_max_line(max_line) {
  m_buf.resize(max_line + kChunk);
}

bool LineReader::fill() {
  if (m_eof) return false;
  if (m_begin > 0) {  // keep the partial line at the front
    std::memmove(m_buf.data(), m_buf.data() + m_begin, m_end - m_begin);
    m_end -= m_begin;
    m_begin = 0;
  }
  const std::size_t got = m_stream->read(m_buf.data() + m_end, m_buf.size() - m_end);
  if (got == 0) m_eof = true;
  m_end += got;
  return got > 0;
}

bool LineReader::next(std::string_view& line) {
  std::size_t scanned = m_begin;
  for (;;) {
    const void* nl = std::memchr(m_buf.data() + scanned, '\n', m_end - scanned);
    if (nl != nullptr) {
      const std::size_t at = static_cast<const char*>(nl) - m_buf.data();
      std::size_t len = at - m_begin;
      if (len > m_max_line) break;
      if (len > 0 && m_buf[m_begin + len - 1] == '\r') --len;
      line = std::string_view(m_buf.data() + m_begin, len);
      m_begin = at + 1;
      ++m_line;
      return true;
    }
    if (m_end - m_begin > m_max_line) break;
    const std::size_t done = m_end - m_begin;
    if (!fill()) {
      if (m_begin == m_end) return false;
      std::size_t len = m_end - m_begin;  // the last line has no "\n"
      if (m_buf[m_begin + len - 1] == '\r') --len;
      line = std::string_view(m_buf.data() + m_begin, len);
      m_begin = m_end;
      ++m_line;
      return true;
    }
    scanned = m_begin + done;
  }
  throw TraceError(m_name + ":" + std::to_string(m_line + 1) + ": line longer than " + std::to_string(m_max_line) +
                   " bytes (not a text trace, or a missing newline)");
}

}  // namespace ssdlab
