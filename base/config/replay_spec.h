// A trace-replay phase as the scenario file or `ssdlab replay` gives it (plain struct; the
// values are checked where the trace is opened: host/workload/trace/replay_setup.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssdlab {

struct ReplaySpec {
  std::string trace;                 // path of the trace (.gz, .zst read directly)
  std::string format;                // msr, spc, blkparse, fio2, fio3, disksim; "" = guessed
  std::string events = "Q";          // blkparse: Q (queued) or D (issued) events
  std::string timing = "closed";     // closed: at iodepth, timestamps ignored; trace: open loop
  std::uint32_t iodepth = 32;        // closed loop: requests in flight (open loop: at most)
  double speed = 1.0;                // timing trace: 2.0 = twice as fast
  std::string lba = "wrap";          // wrap, reject, scale: offsets past the drive's end
  std::vector<std::string> volumes;  // devices to replay: numbers, or MAJ,MIN for blkparse; empty = all
  bool skip_bad = false;             // malformed lines counted and skipped
  bool split = true;                 // requests above max transfer split (else an error)
};

}  // namespace ssdlab
