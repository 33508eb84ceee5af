// `--latency-log FILE`: one line per completed host request, written by a Probe attached to
// the drive (`Ssd::add_probe`) from `Probe::command_done`. Formats:
// - fio: fio's latency log (write_lat_log with log_offset): "time, value, data direction,
//   block size, offset" with time the completion in milliseconds of simulated time, value the
//   latency in nanoseconds, direction 0 read, 1 write, 2 trim, 3 flush, sizes in bytes.
// - anatomy: CSV with a header; time_ms, latency_ns, direction, bytes, offset and one column
//   per anatomy part (base/core/anatomy.h), nanoseconds with three decimals (exact picoseconds,
//   so a row's parts sum to its latency).
// Only requests completed inside the window [t0, t1] (simulated seconds) are written. Output
// goes through one fixed buffer: no allocation per request.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "base/core/probe.h"
#include "base/core/types.h"

namespace ssdlab {

enum class LatencyLogFormat { kFio, kAnatomy };

class LatencyLog final : public Probe {
 public:
  // Opens (truncates) `path`; throws std::runtime_error naming it if that fails.
  LatencyLog(const std::string& path, LatencyLogFormat format, Picos window_start = 0, Picos window_end = ~Picos(0));
  ~LatencyLog() override;
  LatencyLog(const LatencyLog&) = delete;
  LatencyLog& operator=(const LatencyLog&) = delete;

  void command_done(const IoRequest& request) override;
  // Flushes and closes; throws std::runtime_error if anything could not be written.
  void close();
  std::uint64_t lines() const { return m_lines; }

 private:
  std::string m_path;
  LatencyLogFormat m_format;
  Picos m_start, m_end;
  std::FILE* m_file = nullptr;
  std::unique_ptr<char[]> m_buffer;
  std::uint64_t m_lines = 0;
  bool m_failed = false;
};

// "T0,T1" in simulated seconds (T0 < T1, both >= 0) into picoseconds; false if malformed.
bool parse_time_window(const std::string& text, Picos& start, Picos& end);

}  // namespace ssdlab
