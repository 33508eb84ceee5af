// `ssdlab run --trace FILE`: a Chrome trace event file (the JSON Object format of the Trace
// Event Format) that ui.perfetto.dev and chrome://tracing load. One process, the drive; a
// track (thread) for the SATA link, the firmware CPU, each NCQ tag, each channel and each die.
// Slices ("ph":"X"): every host command on its tag's track (LBA, sectors, latency, its anatomy
// parts), every FIS on the link, every firmware run, every channel booking, every flash
// operation on its die (block, page, origin); GC and mapping-table work is named, categorised
// ("gc", "map") and coloured apart ("cname"). Flow arrows ("ph":"s" -> "ph":"f") go from a host
// command to each flash operation it caused (the drive's command serial joins them). A GC
// victim choice is an instant event on its die.
//
// The file is streamed (a bounded buffer, BufferedFile); a window [t0, t1] keeps only the
// events overlapping it, and the flows whose both ends are kept.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/instruments/buffered_file.h"
#include "base/core/probe.h"

namespace ssdlab {

class Ssd;

struct TraceWindow {
  bool on = false;
  Picos start = 0, end = 0;  // inclusive
  bool keeps(Picos from, Picos to) const { return !on || (to >= start && from <= end); }
};

class ChromeTrace final : public Probe {
 public:
  // Writes the header and the track names of `ssd`.
  ChromeTrace(const std::string& path, Ssd& ssd, TraceWindow window = {});
  void attach();  // registers as a probe of the drive (before the simulation starts)
  void close();   // ends the JSON and closes the file

  void nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t* serials, std::uint32_t count) override;
  void bus(std::uint32_t channel, std::uint32_t die, Picos start, Picos end) override;
  void fis(const Fis& fis, Picos start, Picos end) override;
  void firmware(std::uint64_t serial, std::uint8_t tag, AtaCommand command, Picos start, Picos end) override;
  void gc_victim(std::uint32_t die, std::uint32_t block, std::uint32_t valid_units) override;
  void command_done(const IoRequest& request) override;

  std::uint64_t events() const { return m_events; }
  std::uint64_t bytes_written() const { return m_out.bytes_written(); }

  // Track ids (the trace's "tid").
  static constexpr std::uint32_t kLinkTid = 1, kFirmwareTid = 2, kTagTid0 = 10, kChannelTid0 = 100, kDieTid0 = 1000;

 private:
  // What a flow arrow needs of a command: its tag's track and a time inside its slice.
  struct Command {
    std::uint64_t serial = 0;
    std::uint8_t tag = 0;
    Picos firmware_start = 0;
    Picos completed = 0;  // 0 while in flight
  };
  static constexpr std::size_t kCommands = 1 << 16;  // commands remembered for flows

  void begin_event(const char* ph, const char* name, const char* cat, std::uint32_t tid, Picos ts);
  void slice(const char* name, const char* cat, std::uint32_t tid, Picos start, Picos end, const char* cname);
  void arg(const char* key, std::uint64_t v);
  void arg_us(const char* key, Picos v);
  void end_event();
  void metadata(const char* what, std::uint32_t tid, const std::string& key, const std::string& value);
  void thread(std::uint32_t tid, const std::string& name, std::uint32_t sort);
  void flow(const Command& from, std::uint32_t die, Picos at);

  BufferedFile m_out;
  Ssd& m_ssd;
  TraceWindow m_window;
  std::vector<Command> m_commands;  // by serial modulo kCommands
  std::uint64_t m_events = 0, m_flows = 0;
  bool m_first_arg = true;
  bool m_attached = false, m_closed = false;
};

}  // namespace ssdlab
