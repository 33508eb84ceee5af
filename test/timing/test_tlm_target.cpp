// The TLM-2.0 target (model/tlm_target.h): an initiator's transactions take exactly the
// simulated time a host's commands take through `ssdlab run`'s host driver for the same access
// pattern (LT at queue depth 1, AT with eight in flight so NCQ reorders), data round-trips,
// TRIM and FLUSH arrive through the extension, and bad payloads get the base protocol's errors.
#include <catch2/catch.hpp>

#include <tlm_utils/simple_initiator_socket.h>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "base/stats/histogram.h"
#include "model/ssd.h"
#include "model/tlm_target.h"
#include "precondition_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

constexpr std::uint64_t kBs = 4096;
constexpr std::uint64_t kBytes = 3ull << 20;  // past the 1 MiB write buffer: flash programs are waited for

DriveConfig tlm_drive() { return drive_from_yaml(drive_yaml("2", "2", "48", "50us", "100MB/s", "3Gbps")); }

// A platform: the drive, its TLM target, and an initiator whose script runs in an SC_THREAD.
// Latency of each transaction: from its issue to its response, in simulated time.
struct Platform : sc_core::sc_module {
  SC_HAS_PROCESS(Platform);
  Ssd ssd;
  TlmTarget target;
  tlm_utils::simple_initiator_socket<Platform> socket;
  std::function<void(Platform&)> script;
  Histogram write_latency, read_latency;
  // AT bookkeeping: payloads in flight, their issue times, and the script's wake-up.
  struct Slot {
    tlm::tlm_generic_payload gp;
    Picos issued = 0;
  };
  std::vector<std::unique_ptr<Slot>> slots;
  std::vector<Slot*> idle;
  sc_core::sc_event response_ev;
  std::uint64_t next_offset = 0, end_offset = 0;
  tlm::tlm_command at_command = tlm::TLM_WRITE_COMMAND;
  std::uint32_t at_in_flight = 0;

  Platform(sc_core::sc_module_name n, const DriveConfig& config, std::function<void(Platform&)> f,
           bool keep_data = false)
      : sc_module(n), ssd("ssd", config, keep_data), target("tlm", ssd), socket("socket"), script(std::move(f)) {
    socket.bind(target.socket);
    socket.register_nb_transport_bw(this, &Platform::nb_transport_bw);
    SC_THREAD(run);
  }
  void run() { script(*this); }

  void record(tlm::tlm_command c, Picos latency) {
    (c == tlm::TLM_READ_COMMAND ? read_latency : write_latency).record(latency);
  }
  // LT, one at a time over [0, bytes).
  tlm::tlm_response_status lt(tlm::tlm_command c, std::uint64_t offset, std::uint64_t length,
                              std::uint8_t* data = nullptr, SsdCommandExtension* ext = nullptr) {
    std::vector<std::uint8_t> scratch;
    if (!data && length) {
      scratch.resize(length);
      data = scratch.data();
    }
    tlm::tlm_generic_payload gp;
    gp.set_command(c);
    gp.set_address(offset);
    gp.set_data_ptr(data);
    gp.set_data_length(static_cast<unsigned>(length));
    gp.set_streaming_width(static_cast<unsigned>(length));
    if (ext) gp.set_extension(ext);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const Picos t0 = sc_core::sc_time_stamp().value();
    socket->b_transport(gp, delay);
    if (ext) gp.clear_extension(ext);
    if (c != tlm::TLM_IGNORE_COMMAND) record(c, sc_core::sc_time_stamp().value() + delay.value() - t0);
    return gp.get_response_status();
  }
  void lt_pass(tlm::tlm_command c) {
    for (std::uint64_t off = 0; off < kBytes; off += kBs) REQUIRE(lt(c, off, kBs) == tlm::TLM_OK_RESPONSE);
  }

  // AT: `depth` transactions in flight over [0, kBytes), a new one sent as each response arrives.
  void at_send(Slot& s, sc_core::sc_time delay) {
    s.gp.set_command(at_command);
    s.gp.set_address(next_offset);
    next_offset += kBs;
    s.issued = sc_core::sc_time_stamp().value() + delay.value();
    ++at_in_flight;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    const tlm::tlm_sync_enum r = socket->nb_transport_fw(s.gp, phase, delay);
    REQUIRE(r == tlm::TLM_UPDATED);
    REQUIRE(phase == tlm::END_REQ);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    REQUIRE(phase == tlm::BEGIN_RESP);
    REQUIRE(gp.get_response_status() == tlm::TLM_OK_RESPONSE);
    Slot* s = nullptr;
    for (auto& p : slots)
      if (&p->gp == &gp) s = p.get();
    REQUIRE(s != nullptr);
    const Picos done = sc_core::sc_time_stamp().value() + delay.value();
    record(at_command, done - s->issued);
    --at_in_flight;
    if (next_offset < end_offset) {
      at_send(*s, delay);  // at the completion's time, as a host driver issues its next command
    } else if (at_in_flight == 0) {
      response_ev.notify(delay);
    }
    return tlm::TLM_COMPLETED;
  }
  void at_pass(tlm::tlm_command c, std::uint32_t depth) {
    at_command = c;
    next_offset = 0;
    end_offset = kBytes;
    while (slots.size() < depth) {
      slots.push_back(std::make_unique<Slot>());
      auto& gp = slots.back()->gp;
      static std::vector<std::uint8_t> buffer(kBs);
      gp.set_data_ptr(buffer.data());
      gp.set_data_length(kBs);
      gp.set_streaming_width(kBs);
    }
    for (std::uint32_t i = 0; i < depth; ++i) at_send(*slots[i], sc_core::SC_ZERO_TIME);
    sc_core::wait(response_ev);
  }
};

// The same pattern through `ssdlab run`'s path: a write pass and a read pass, each drained.
ScenarioRunner& reference(std::uint32_t depth) {
  static std::unique_ptr<ScenarioRunner> runner;
  runner = std::make_unique<ScenarioRunner>("reference",
                                            scenario({job_phase("write", RwMode::kWrite, kBs, depth, bytes(kBytes)),
                                                      job_phase("read", RwMode::kRead, kBs, depth, bytes(kBytes))}),
                                            tlm_drive());
  return *runner;
}

void require_same(const Histogram& tlm, const Histogram& run) {
  REQUIRE(tlm.count() == kBytes / kBs);
  CHECK(tlm.count() == run.count());
  CHECK(tlm.min() == run.min());
  CHECK(tlm.max() == run.max());
  CHECK(tlm.mean() == run.mean());
  CHECK(tlm.quantile(0.5) == run.quantile(0.5));
  CHECK(tlm.quantile(0.99) == run.quantile(0.99));
}

}  // namespace

TEST_CASE("tlm: LT transactions at queue depth 1 take the latency the host driver sees", "[tlm]") {
  ScenarioRunner& run = reference(1);
  Platform p("platform", tlm_drive(), [](Platform& p) {
    p.lt_pass(tlm::TLM_WRITE_COMMAND);
    p.ssd.control().drain();  // as the runner does after each phase
    p.lt_pass(tlm::TLM_READ_COMMAND);
  });
  run_to_end({&run});
  INFO("write: mean " << p.write_latency.mean() << " ps, max " << p.write_latency.max() << " ps");
  CHECK(p.write_latency.max() > 100'000'000);  // some writes waited for a flash program (> 100 us)
  require_same(p.write_latency, run.results()[0].io.write_latency_ps);
  require_same(p.read_latency, run.results()[1].io.read_latency_ps);
  CHECK(p.target.io_stats().writes == run.results()[0].io.writes);
}

TEST_CASE("tlm: AT transactions eight in flight take the latency the host driver sees at iodepth 8", "[tlm]") {
  ScenarioRunner& run = reference(8);
  Platform p("platform", tlm_drive(), [](Platform& p) {
    p.at_pass(tlm::TLM_WRITE_COMMAND, 8);
    p.ssd.control().drain();
    p.at_pass(tlm::TLM_READ_COMMAND, 8);
  });
  run_to_end({&run});
  // Eight in flight: a read waits behind others, so the latency spread is wider than at depth 1.
  CHECK(p.read_latency.max() > p.read_latency.min() * 2);
  require_same(p.write_latency, run.results()[0].io.write_latency_ps);
  require_same(p.read_latency, run.results()[1].io.read_latency_ps);
}

TEST_CASE("tlm: data written reads back, trimmed data reads as zeros, flush and errors answer", "[tlm]") {
  bool finished = false;
  Platform p(
      "platform", tlm_drive(),
      [&finished](Platform& p) {
        std::vector<std::uint8_t> out(64 * 1024), in(out.size());
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(i * 7 + 3);
        REQUIRE(p.lt(tlm::TLM_WRITE_COMMAND, 1 << 20, out.size(), out.data()) == tlm::TLM_OK_RESPONSE);
        SsdCommandExtension flush(SsdCommandExtension::Op::kFlush);
        REQUIRE(p.lt(tlm::TLM_IGNORE_COMMAND, 0, 0, nullptr, &flush) == tlm::TLM_OK_RESPONSE);
        REQUIRE(p.lt(tlm::TLM_READ_COMMAND, 1 << 20, in.size(), in.data()) == tlm::TLM_OK_RESPONSE);
        CHECK(in == out);
        // Trim the second half: zeros there, the first half unchanged.
        SsdCommandExtension trim(SsdCommandExtension::Op::kTrim);
        const std::uint64_t trims = p.target.io_stats().trims;
        REQUIRE(p.lt(tlm::TLM_IGNORE_COMMAND, (1 << 20) + 32 * 1024, 32 * 1024, nullptr, &trim) ==
                tlm::TLM_OK_RESPONSE);
        CHECK(p.target.io_stats().trims == trims + 1);
        std::fill(in.begin(), in.end(), 0xff);
        REQUIRE(p.lt(tlm::TLM_READ_COMMAND, 1 << 20, in.size(), in.data()) == tlm::TLM_OK_RESPONSE);
        CHECK(std::memcmp(in.data(), out.data(), 32 * 1024) == 0);
        CHECK(std::all_of(in.begin() + 32 * 1024, in.end(), [](std::uint8_t b) { return b == 0; }));
        // The base protocol's ignore (no extension) does nothing; bad payloads get their errors
        // without reaching the drive.
        const std::uint64_t commands = p.target.io_stats().reads + p.target.io_stats().writes;
        CHECK(p.lt(tlm::TLM_IGNORE_COMMAND, 0, 4096) == tlm::TLM_OK_RESPONSE);
        CHECK(p.lt(tlm::TLM_READ_COMMAND, 100, 4096) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
        CHECK(p.lt(tlm::TLM_READ_COMMAND, p.target.capacity_bytes(), 4096) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
        std::vector<std::uint8_t> buf(4096);
        tlm::tlm_generic_payload gp;
        gp.set_command(tlm::TLM_WRITE_COMMAND);
        gp.set_data_ptr(buf.data());
        gp.set_data_length(4096);
        gp.set_streaming_width(512);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        p.socket->b_transport(gp, delay);
        CHECK(gp.get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);
        gp.set_streaming_width(4096);
        std::vector<std::uint8_t> enables(4096, 0xff);
        gp.set_byte_enable_ptr(enables.data());
        gp.set_byte_enable_length(4096);
        p.socket->b_transport(gp, delay);
        CHECK(gp.get_response_status() == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        CHECK(p.target.io_stats().reads + p.target.io_stats().writes == commands);
        // An annotated delay issues the request that much later.
        const Picos t0 = sc_core::sc_time_stamp().value();
        const Picos quiet = p.read_latency.min();
        sc_core::sc_time later = sc_core::sc_time(1, sc_core::SC_MS);
        tlm::tlm_generic_payload rd;
        rd.set_command(tlm::TLM_READ_COMMAND);
        rd.set_data_ptr(buf.data());
        rd.set_data_length(4096);
        rd.set_streaming_width(4096);
        p.socket->b_transport(rd, later);
        CHECK(rd.get_response_status() == tlm::TLM_OK_RESPONSE);
        CHECK(sc_core::sc_time_stamp().value() + later.value() - t0 >= 1'000'000'000 + quiet / 2);
        finished = true;
      },
      true);
  sc_core::sc_start();
  CHECK(finished);
}
