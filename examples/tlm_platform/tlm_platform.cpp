// A small SystemC platform: a DMA stand-in initiator on the TLM-2.0 socket of an ssdlab drive.
// It writes 64 KiB, reads it back, trims it, reads zeros, and prints each transaction's latency
// in simulated time. Usage: tlm_platform [drive.yaml] (default: the installed default preset).
#include <tlm_utils/simple_initiator_socket.h>
#include <cstdio>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "base/config/config_loader.h"
#include "model/ssd.h"
#include "model/tlm_target.h"

struct Dma : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Dma> socket{"socket"};
  int failures = 0;
  SC_HAS_PROCESS(Dma);
  explicit Dma(sc_core::sc_module_name name) : sc_module(name) { SC_THREAD(run); }

  // One blocking transaction; prints its latency; true when the drive answered OK.
  bool transact(const char* what, tlm::tlm_command cmd, std::uint64_t addr, std::vector<unsigned char>& buf,
                ssdlab::SsdCommandExtension* ext = nullptr) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(addr);
    gp.set_data_ptr(buf.data());
    gp.set_data_length(static_cast<unsigned>(buf.size()));
    gp.set_streaming_width(static_cast<unsigned>(buf.size()));
    if (ext) gp.set_extension(ext);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    socket->b_transport(gp, delay);
    if (ext) gp.clear_extension(ext);
    const double us = (sc_core::sc_time_stamp() + delay - start).to_seconds() * 1e6;
    std::printf("%-6s %7zu bytes at %8llu: %10.3f us %s\n", what, buf.size(), static_cast<unsigned long long>(addr), us,
                gp.is_response_ok() ? "ok" : gp.get_response_string().c_str());
    return gp.is_response_ok();
  }

  void run() {
    std::vector<unsigned char> out(64 * 1024), in(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<unsigned char>(i * 13 + 1);
    ssdlab::SsdCommandExtension trim(ssdlab::SsdCommandExtension::Op::kTrim);
    failures += !transact("write", tlm::TLM_WRITE_COMMAND, 1 << 20, out);
    failures += !transact("read", tlm::TLM_READ_COMMAND, 1 << 20, in);
    std::printf("read back %s\n", in == out ? "matches" : "DIFFERS");
    failures += in != out;
    failures += !transact("trim", tlm::TLM_IGNORE_COMMAND, 1 << 20, in, &trim);
    failures += !transact("read", tlm::TLM_READ_COMMAND, 1 << 20, in);
    bool zeros = true;
    for (unsigned char b : in) zeros &= b == 0;
    std::printf("after trim %s\n", zeros ? "zeros" : "NOT ZEROS");
    failures += !zeros;
  }
};

int sc_main(int argc, char* argv[]) {
  const std::string path = argc > 1 ? argv[1] : std::string(SSDLAB_CONFIG_DIR) + "/default.yaml";
  const ssdlab::DriveConfig config = ssdlab::load_drive_config(path);
  ssdlab::Ssd ssd("ssd", config, /*keep_data=*/true);
  ssdlab::TlmTarget target("tlm", ssd);
  Dma dma("dma");
  dma.socket.bind(target.socket);
  sc_core::sc_start();
  std::printf("%s: %d failures\n", config.name.c_str(), dma.failures);
  return dma.failures == 0 ? 0 : 1;
}
