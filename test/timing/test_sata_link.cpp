// The SATA link on the wire (host/sata/sata_wire.h, docs/sata-link.md): each FIS exchange timed
// as its frames, handshakes and ALIGN pairs, and the host adapter's per-command work.
#include <catch2/catch.hpp>

#include "app/run/scenario_runner.h"
#include "host/io_request.h"
#include "host/sata/sata_wire.h"
#include "precondition_support.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// Counted by hand from the SATA 2.6 frame and FIS formats: a frame is X_RDY ... R_RDY (one round
// trip), SOF, the FIS, CRC, EOF, WTRM ... R_OK (one round trip).
std::uint64_t frame(std::uint64_t fis_dwords, std::uint64_t round_trip) {
  const std::uint64_t sof = 1, crc = 1, eof = 1;
  return round_trip + sof + fis_dwords + crc + eof + round_trip;
}

// One queued 128 KiB read: Register H2D (5 Dwords), DMA Setup (7), 16 Data FISes of a header
// and 2048 data Dwords, Set Device Bits (2).
struct HandCount {
  std::uint64_t command, data, completion;
};
HandCount read_128k(std::uint64_t round_trip) {
  return {frame(5, round_trip), frame(7, round_trip) + 16 * frame(1 + 2048, round_trip), frame(2, round_trip)};
}

// Picoseconds of `dwords` at `line_bps`: 40 line bits a Dword, and 2 of every 256 Dwords on the
// wire are an ALIGN pair, so `dwords` take dwords * 256 / 254 Dword times. Rounded up.
Picos hand_picos(std::uint64_t dwords, std::uint64_t line_bps) {
  const unsigned __int128 bits = static_cast<unsigned __int128>(dwords) * 40 * 256;
  const unsigned __int128 den = static_cast<unsigned __int128>(line_bps) * 254;
  return static_cast<Picos>((bits * kPicosPerSec + den - 1) / den);
}

struct Completions : Probe {
  std::vector<Picos> done;
  std::uint64_t bad_anatomy = 0;
  void command_done(const IoRequest& r) override {
    done.push_back(r.completed_ps);
    if (r.anatomy.total() != r.completed_ps - r.issued_ps) ++bad_anatomy;
  }
};

// QD32 sequential 128 KiB reads of a secure-erased drive: no flash work, the firmware's 5 us far
// below a command's link time, so the wire is the ceiling.
struct LinkBoundRun {
  Completions done;
  std::unique_ptr<ScenarioRunner> runner;
  LinkBoundRun(const std::string& name, const std::string& sata, std::uint32_t round_trip) {
    std::string yaml = drive_yaml("2", "2", "32", "50us", "100MB/s", sata);
    yaml += "  link_round_trip: " + std::to_string(round_trip) + "\n";
    const DriveConfig config = drive_from_yaml(yaml);
    PhaseSpec reads = job_phase("seqread", RwMode::kRead, 128 * 1024, 32, percent(100));
    reads.job.io_size = bytes(std::uint64_t(400) * 128 * 1024);
    reads.job.io_size_set = true;
    runner = std::make_unique<ScenarioRunner>(name.c_str(), scenario({erase_phase(), reads}), config);
    runner->ssd.add_probe(done);
  }
};

}  // namespace

TEST_CASE("SATA wire: a FIS exchange's Dwords are its frames and handshakes as the SATA formats count them",
          "[timing][sata]") {
  const SataWire wire(3000000000ULL, 20);
  const HandCount h = read_128k(20);
  Fis cmd{FisKind::kCommand};
  Fis data{FisKind::kDataToHost, 0, AtaCommand::kReadFpdma, 0, 256, 128 * 1024};
  Fis sdb{FisKind::kSetDeviceBits};
  CHECK(wire.dwords(cmd) == h.command);
  CHECK(wire.dwords(data) == h.data);
  CHECK(wire.dwords(sdb) == h.completion);
  // A write's data: the device's DMA Activate (1 Dword) before each of the 16 Data FISes.
  Fis write{FisKind::kDataToDevice, 0, AtaCommand::kWriteFpdma, 0, 256, 128 * 1024};
  CHECK(wire.dwords(write) == h.data + 16 * frame(1, 20));
  // A non-queued command (DATA SET MANAGEMENT): no DMA Setup, a Register FIS to complete.
  Fis ranges{FisKind::kDataToDevice, 0, AtaCommand::kDataSetManagement, 0, 8, 512};
  CHECK(wire.dwords(ranges) == frame(1, 20) + frame(1 + 128, 20));
  Fis d2h{FisKind::kSetDeviceBits, 0, AtaCommand::kDataSetManagement};
  CHECK(wire.dwords(d2h) == frame(5, 20));
  // A piece of a transfer whose DMA context is already set up: its Data FIS alone.
  Fis piece{FisKind::kDataToHost, 0, AtaCommand::kReadFpdma, 0, 8, 4096};
  CHECK(wire.dwords(piece, false) == frame(1 + 1024, 20));
  CHECK(wire.dwords(piece) == frame(7, 20) + frame(1 + 1024, 20));
  // An odd byte count still moves whole Dwords; 8 KiB + 4 bytes needs a second Data FIS.
  Fis odd{FisKind::kDataToHost, 0, AtaCommand::kReadFpdma, 0, 17, 8192 + 4};
  CHECK(wire.dwords(odd) == frame(7, 20) + frame(1 + 2048, 20) + frame(1 + 1, 20));
  // Without handshakes and ALIGNs the old 8b/10b arithmetic: 4 bytes = 40 bits; the ALIGN pairs
  // stretch everything by 256/254.
  const SataWire bare(1500000000ULL, 0);
  CHECK(bare.picos(254) == transfer_picos(256 * 4, 1500000000ULL, 10));
  CHECK(bare.picos(1) == hand_picos(1, 1500000000ULL));
}

TEST_CASE("SATA wire: link-bound 128 KiB reads complete one per hand-counted command time at 1.5, 3 and 6 Gb/s",
          "[timing][sata]") {
  const struct {
    const char* sata;
    std::uint64_t bps;
    std::uint32_t round_trip;
  } kLinks[] = {{"1.5Gbps", 1500000000ULL, 20},
                {"3Gbps", 3000000000ULL, 20},
                {"6Gbps", 6000000000ULL, 20},
                {"1.5Gbps", 1500000000ULL, 0},
                {"6Gbps", 6000000000ULL, 64}};
  std::vector<std::unique_ptr<LinkBoundRun>> runs;
  for (const auto& link : kLinks) {
    runs.push_back(std::make_unique<LinkBoundRun>("link" + std::to_string(runs.size()), link.sata, link.round_trip));
  }
  sc_core::sc_start();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& link = kLinks[i];
    INFO(link.sata << ", " << link.round_trip << "-Dword round trips");
    REQUIRE(runs[i]->runner->finished());
    const Completions& c = runs[i]->done;
    const HandCount h = read_128k(link.round_trip);
    const Picos per_command =
        hand_picos(h.command, link.bps) + hand_picos(h.data, link.bps) + hand_picos(h.completion, link.bps);
    REQUIRE(c.done.size() == 400);
    CHECK(c.bad_anatomy == 0);
    // Past the first queue-full the wire never idles: 288 commands take exactly 288 command times.
    // (The link grants in request order, so the 32 commands the host sends as tags free go out
    // together after the data already booked: completions come in groups of 32, whole groups
    // counted here. The 31 command FISes behind a group's first outlast its 5 us of firmware,
    // which is why the round-trip-free link is taken at 1.5 Gb/s.)
    const std::size_t first = 64, last = first + 9 * 32;
    CHECK(c.done[last] - c.done[first] == (last - first) * per_command);
    // The ceiling these give, against the old 8b/10b arithmetic of 10 line bits a payload byte.
    const double mbps = 128.0 * 1024 / (double(per_command) / 1e12) / 1e6;
    const double payload_mbps = double(link.bps) / 10 / 1e6;
    CHECK(mbps < payload_mbps);
    if (link.round_trip == 20) CHECK(mbps > 0.96 * payload_mbps);
    if (link.round_trip == 0) CHECK(mbps > 0.98 * payload_mbps);
  }
}

TEST_CASE("Host adapter: a QD1 read waits for its command fetch before its command FIS and its completion report after",
          "[timing][sata]") {
  const char* kCosts[] = {"  ahci: {command: 1us, completion: 2us}\n", "  ahci: {command: 7us, completion: 0us}\n",
                          "  ahci: {command: 0us, completion: 0us}\n"};
  struct Run : Probe {
    DriveConfig config;
    std::vector<IoRequest> done;
    std::unique_ptr<ScenarioRunner> runner;
    void command_done(const IoRequest& r) override { done.push_back(r); }
  };
  std::vector<std::unique_ptr<Run>> runs;
  for (const char* costs : kCosts) {
    auto run = std::make_unique<Run>();
    run->config = drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps") + costs);
    PhaseSpec reads = job_phase("qd1", RwMode::kRandRead, 4096, 1, percent(100));
    reads.job.io_size = bytes(32 * 4096);
    reads.job.io_size_set = true;
    run->runner = std::make_unique<ScenarioRunner>(("ahci" + std::to_string(runs.size())).c_str(),
                                                   scenario({erase_phase(), reads}), run->config);
    run->runner->ssd.add_probe(*run);
    runs.push_back(std::move(run));
  }
  sc_core::sc_start();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    INFO(kCosts[i]);
    const Run& run = *runs[i];
    const DriveConfig& config = run.config;
    REQUIRE(run.runner->finished());
    REQUIRE(run.done.size() == 32);
    const SataWire wire(config.host.sata_line_bps, config.host.link_round_trip_dwords);
    const Picos link = wire.time(Fis{FisKind::kCommand}) +
                       wire.time(Fis{FisKind::kDataToHost, 0, AtaCommand::kReadFpdma, 0, 8, 4096}) +
                       wire.time(Fis{FisKind::kSetDeviceBits});
    const Picos adapter = config.host.ahci_command_ps + config.host.ahci_completion_ps;
    for (const IoRequest& r : run.done) {  // unmapped: the firmware answers without the flash
      CHECK(r.anatomy[Part::kHostAdapter] == adapter);
      CHECK(r.anatomy[Part::kLinkTransfer] == link);
      CHECK(r.completed_ps - r.issued_ps == adapter + link + config.controller.firmware_cost_ps);
    }
  }
}

TEST_CASE(
    "SATA wire: a read sent in pieces as its pages come sets its DMA context up once, unless another tag's data came "
    "between",
    "[timing][sata]") {
  // 4 KiB pages: a 128 KiB read is 32 page reads on as many dies, each piece sent as it lands.
  const DriveConfig config = drive_from_yaml(drive_yaml("4", "8", "32", "50us", "100MB/s", "3Gbps"));
  const auto read_phase = [](const char* name, RwMode rw, std::uint64_t bs, std::uint32_t qd) {
    PhaseSpec p = job_phase(name, rw, bs, qd, percent(100));
    p.job.io_size = bytes(64 * bs);
    p.job.io_size_set = true;
    return p;
  };
  ScenarioRunner qd1(
      "pieces1", scenario({erase_phase(), fast_precondition(100, 0, 1), read_phase("qd1", RwMode::kRead, 131072, 1)}),
      config);
  // Random reads of 4 to 64 KiB at QD8: commands of 1 to 16 pages, the pieces of short ones
  // landing between those of long ones.
  PhaseSpec mixed = read_phase("qd8", RwMode::kRandRead, 4096, 8);
  mixed.job.bs_max_bytes = 65536;
  mixed.job.io_size = bytes(4 << 20);
  ScenarioRunner qd8("pieces8", scenario({erase_phase(), fast_precondition(100, 0, 1), mixed}), config);
  run_to_end({&qd1, &qd8});
  const SataWire wire(config.host.sata_line_bps, config.host.link_round_trip_dwords);
  const std::uint64_t command = wire.dwords(Fis{FisKind::kCommand}) + wire.dwords(Fis{FisKind::kSetDeviceBits});
  const std::uint64_t setup = wire.frame_dwords(7);
  const std::uint64_t pieces = 32 * wire.frame_dwords(1 + 1024);
  // QD1: nothing comes between a command's pieces (the untimed precondition used no link).
  CHECK(qd1.ssd.link.stats().wire_dwords == 64 * (command + setup + pieces));
  // QD8: pieces of several commands interleave, each switch back sets the context up again: more
  // than one DMA Setup per command on the whole, fewer than one per piece.
  const IoStats& io = qd8.results().back().io;
  REQUIRE(io.reads > 100);
  const std::uint64_t frames = io.read_bytes / 4096;  // one Data FIS per 4 KiB page
  const std::uint64_t fixed = io.reads * command + frames * wire.frame_dwords(1) + io.read_bytes / 4;
  const std::uint64_t dwords = qd8.ssd.link.stats().wire_dwords;
  CHECK(dwords > fixed + io.reads * setup);
  CHECK(dwords < fixed + frames * setup);
}
