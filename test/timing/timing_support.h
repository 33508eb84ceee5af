// Helpers for timing tests: drives and scenarios written inline, run in this process.
#pragma once

#include <string>
#include <vector>

#include "app/run/run_scenario.h"
#include "base/config/config_loader.h"
#include "base/core/probe.h"
#include "host/io_request.h"

namespace ssdlab::test {

// A probe keeping every completed read command's record, in completion order.
struct ReadLog : Probe {
  std::vector<IoRequest> done;
  void command_done(const IoRequest& r) override {
    if (r.command == AtaCommand::kReadFpdma) done.push_back(r);
  }
};

// A probe keeping every flash op with its timing, in completion order.
struct OpLog : Probe {
  struct Entry {
    NandOp op;
    OpTiming t;
  };
  std::vector<Entry> ops;
  void nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t*, std::uint32_t) override {
    ops.push_back({op, t});
  }
};

// A probe keeping every completed command (its latency and anatomy), in completion order.
struct CommandLog : Probe {
  std::vector<IoRequest> done;
  void command_done(const IoRequest& r) override { done.push_back(r); }
};

// A drive YAML with the given body lines substituted into a compact default.
inline DriveConfig drive_from_yaml(const std::string& yaml) { return parse_drive_config(yaml, "test-drive.yaml"); }

inline std::string drive_yaml(const std::string& channels, const std::string& dies, const std::string& blocks,
                              const std::string& t_read, const std::string& bus, const std::string& sata,
                              const std::string& op = "0.25", const std::string& extra_controller = "") {
  return "name: timing\n"
         "nand:\n"
         "  channels: " +
         channels +
         "\n"
         "  dies_per_channel: " +
         dies +
         "\n"
         "  blocks_per_plane: " +
         blocks +
         "\n"
         "  pages_per_block: 64\n"
         "  page_size: 4KiB\n"
         "  cell: MLC\n"
         "  t_read: " +
         t_read +
         "\n"
         "  t_prog: {lsb: 250us, msb: 900us}\n"
         "  t_erase: 2ms\n"
         "  bus_rate: " +
         bus +
         "\n"
         "  t_cmd: 200ns\n"
         "controller:\n"
         "  firmware_cost: 5us\n"
         "  write_buffer: 1MiB\n"
         "  max_transfer: 1MiB\n"
         "  op: " +
         op + "\n" + extra_controller +
         "host:\n"
         "  sata: " +
         sata + "\n";
}

inline PhaseSpec job_phase(const std::string& name, RwMode rw, std::uint64_t bs, std::uint32_t iodepth, Amount size,
                           Picos runtime_ps = 0) {
  PhaseSpec p = make_job_phase(name, rw, bs, iodepth);
  p.job.size = size;
  if (runtime_ps) {
    p.job.runtime_ps = runtime_ps;
    p.job.time_based = true;
  }
  return p;
}

inline PhaseSpec erase_phase() {
  PhaseSpec p;
  p.name = "secure_erase";
  p.kind = PhaseKind::kSecureErase;
  return p;
}

inline PhaseSpec idle_phase(Picos ps) {
  PhaseSpec p;
  p.name = "idle";
  p.kind = PhaseKind::kIdle;
  p.idle_ps = ps;
  return p;
}

inline Amount bytes(std::uint64_t n) { return Amount{false, 0.0, n}; }
inline Amount percent(double p) { return Amount{true, p, 0}; }

inline ScenarioSpec scenario(std::vector<PhaseSpec> phases) {
  ScenarioSpec s;
  s.name = "timing";
  s.path = "timing-test";
  s.phases = std::move(phases);
  return s;
}

}  // namespace ssdlab::test
