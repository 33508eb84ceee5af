#include "app/run/latency_log.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "host/io_request.h"

namespace ssdlab {

namespace {

constexpr std::size_t kBufferBytes = 1 << 20;

unsigned direction(AtaCommand c) {
  switch (c) {
    case AtaCommand::kReadFpdma:
      return 0;
    case AtaCommand::kWriteFpdma:
      return 1;
    case AtaCommand::kDataSetManagement:
      return 2;
    case AtaCommand::kFlushCache:
      return 3;
  }
  return 0;
}

// Picoseconds as nanoseconds with three decimals: "<ns>.<ps>".
int put_ns(char* out, std::size_t size, Picos ps) {
  return std::snprintf(out, size, ",%llu.%03llu", static_cast<unsigned long long>(ps / 1000),
                       static_cast<unsigned long long>(ps % 1000));
}

}  // namespace

LatencyLog::LatencyLog(const std::string& path, LatencyLogFormat format, Picos window_start, Picos window_end)
    : m_path(path), m_format(format), m_start(window_start), m_end(window_end) {
  m_file = std::fopen(path.c_str(), "w");
  if (m_file == nullptr) throw std::runtime_error("cannot write latency log " + path + ": " + std::strerror(errno));
  m_buffer.reset(new char[kBufferBytes]);
  std::setvbuf(m_file, m_buffer.get(), _IOFBF, kBufferBytes);
  if (m_format == LatencyLogFormat::kAnatomy) {
    std::fputs("time_ms,latency_ns,direction,bytes,offset", m_file);
    for (std::size_t p = 0; p < kParts; ++p) std::fprintf(m_file, ",%s_ns", part_name(static_cast<Part>(p)));
    std::fputc('\n', m_file);
  }
}

LatencyLog::~LatencyLog() {
  if (m_file) std::fclose(m_file);
}

void LatencyLog::command_done(const IoRequest& r) {
  if (r.completed_ps < m_start || r.completed_ps > m_end || m_failed) return;
  const Picos latency = r.completed_ps - r.issued_ps;
  const auto bytes = static_cast<unsigned long long>(r.sectors) * kSectorBytes;
  const auto offset = static_cast<unsigned long long>(r.lba) * kSectorBytes;
  char line[640];
  int n = 0;
  if (m_format == LatencyLogFormat::kFio) {
    n = std::snprintf(line, sizeof line, "%llu, %llu, %u, %llu, %llu\n",
                      static_cast<unsigned long long>(r.completed_ps / kPicosPerMs),
                      static_cast<unsigned long long>(latency / 1000), direction(r.command), bytes, offset);
  } else {
    n = std::snprintf(line, sizeof line, "%.6f", double(r.completed_ps) / double(kPicosPerMs));
    n += put_ns(line + n, sizeof line - n, latency);
    n += std::snprintf(line + n, sizeof line - n, ",%u,%llu,%llu", direction(r.command), bytes, offset);
    for (std::size_t p = 0; p < kParts; ++p) n += put_ns(line + n, sizeof line - n, r.anatomy.part[p]);
    line[n++] = '\n';
  }
  if (std::fwrite(line, 1, std::size_t(n), m_file) != std::size_t(n)) m_failed = true;
  ++m_lines;
}

void LatencyLog::close() {
  if (m_file == nullptr) return;
  const bool flushed = std::fflush(m_file) == 0;
  const bool closed = std::fclose(m_file) == 0;
  m_file = nullptr;
  if (m_failed || !flushed || !closed) throw std::runtime_error("cannot write latency log " + m_path);
}

bool parse_time_window(const std::string& text, Picos& start, Picos& end) {
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) return false;
  const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
  char* stop = nullptr;
  const double t0 = std::strtod(a.c_str(), &stop);
  if (a.empty() || *stop != '\0') return false;
  const double t1 = std::strtod(b.c_str(), &stop);
  if (b.empty() || *stop != '\0') return false;
  if (!std::isfinite(t0) || !std::isfinite(t1) || t0 < 0 || t1 <= t0 || t1 > 1e6) return false;
  start = static_cast<Picos>(std::llround(t0 * double(kPicosPerSec)));
  end = static_cast<Picos>(std::llround(t1 * double(kPicosPerSec)));
  return true;
}

}  // namespace ssdlab
