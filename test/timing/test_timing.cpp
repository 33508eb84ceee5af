#include <catch2/catch.hpp>

#include "app/run/drive_info.h"
#include "app/run/scenario_runner.h"
#include "timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// Wire time of `dwords` on a SATA link: 40 line bits a Dword (8b/10b), stretched by the ALIGN pair
// in every 256 Dwords (256/254), rounded up to 1 ps.
Picos sata_ps(std::uint64_t dwords, double gbps) {
  const double ps = double(dwords) * 40.0 * 256.0 / 254.0 / (gbps * 1e9) * 1e12;
  return static_cast<Picos>(std::ceil(ps - 1e-6));
}

// A frame: X_RDY/R_RDY and WTRM/R_OK round trips of 20 Dwords (host.link_round_trip's default),
// SOF, CRC and EOF around the FIS.
std::uint64_t frame(std::uint64_t fis_dwords) { return 20 + 3 + fis_dwords + 20; }

}  // namespace

TEST_CASE("one 4 KiB read on an idle drive takes link + firmware + tR + bus transfer", "[timing]") {
  const DriveConfig config = drive_from_yaml(drive_yaml("2", "2", "32", "{lsb: 40us, msb: 70us}", "100MB/s", "3Gbps"));
  const auto outcome = simulate(scenario({erase_phase(), job_phase("write", RwMode::kWrite, 4096, 1, bytes(4096)),
                                          job_phase("read", RwMode::kRead, 4096, 1, bytes(4096))}),
                                config);
  const PhaseResult& write = outcome.results[1];
  const PhaseResult& read = outcome.results[2];
  REQUIRE(read.io.reads == 1);
  // FISes in Dwords: Register H2D 5, DMA Setup 7, DMA Activate 1, Data 1 + 1024, Set Device Bits 2.
  const Picos command_fis = sata_ps(frame(5), 3);
  const Picos data_in = sata_ps(frame(7) + frame(1 + 1024), 3);              // DMA Setup + one Data FIS
  const Picos data_out = sata_ps(frame(7) + frame(1) + frame(1 + 1024), 3);  // ... and a DMA Activate
  const Picos completion = sata_ps(frame(2), 3);                             // Set Device Bits
  const Picos adapter = 3 * kPicosPerUs;  // AHCI command fetch 1 us, completion report 2 us (defaults)
  const Picos firmware = 5 * kPicosPerUs;
  const Picos nand_cmd = 200 * kPicosPerNs;
  const Picos t_read_lsb = 40 * kPicosPerUs;                // page 0 of a block is an LSB page
  const Picos bus = 4096ull * kPicosPerSec / 100000000ull;  // 4 KiB at 100 MB/s = 40.96 us
  const Picos expected = adapter + command_fis + firmware + nand_cmd + t_read_lsb + bus + data_in + completion;
  CHECK(read.io.latency()->max() == expected);
  CHECK(read.io.latency()->min() == expected);
  // The write was acknowledged from the buffer: no flash time in its latency.
  CHECK(write.io.latency()->max() == adapter + command_fis + firmware + data_out + completion);
  CHECK(write.nand_units_programmed() == 1);  // ...but it reached flash when the host went idle
}

TEST_CASE("QD32 random reads beat QD1 by about the number of dies when dies are the limit", "[timing]") {
  // 8 dies with a slow array read; fast bus and link so that neither limits.
  const DriveConfig config = drive_from_yaml(drive_yaml("2", "4", "64", "200us", "400MB/s", "6Gbps"));
  const std::uint32_t dies = config.nand.dies();
  const auto outcome =
      simulate(scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                         job_phase("qd1", RwMode::kRandRead, 4096, 1, percent(100), kPicosPerSec / 5),
                         job_phase("qd32", RwMode::kRandRead, 4096, 32, percent(100), kPicosPerSec / 5)}),
               config);
  const double qd1 = outcome.results[2].iops();
  const double qd32 = outcome.results[3].iops();
  const double ratio = qd32 / qd1;
  CAPTURE(qd1, qd32, ratio, dies);
  CHECK(ratio > 0.8 * dies);
  CHECK(ratio < 1.15 * dies);
  CHECK(outcome.results[3].die_utilisation() > 0.85);
  CHECK(outcome.results[3].link_utilisation() < 0.5);
  CHECK(outcome.results[3].io.reordered > 0);  // NCQ: completions overtake each other
  CHECK(outcome.results[2].io.reordered == 0);
}

TEST_CASE("sequential reads stop at the link ceiling when dies are plentiful", "[timing]") {
  const DriveConfig config = drive_from_yaml(drive_yaml("8", "4", "32", "50us", "200MB/s", "3Gbps"));
  const DriveCeilings ceilings = drive_ceilings(config);
  REQUIRE(ceilings.die_read_mbps > 2 * ceilings.link_read_mbps);
  REQUIRE(ceilings.bus_read_mbps > 2 * ceilings.link_read_mbps);
  const auto outcome =
      simulate(scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                         job_phase("read", RwMode::kRead, 128 * 1024, 32, percent(100))}),
               config);
  const double mbps = outcome.results[2].read_mbps();
  CAPTURE(mbps, ceilings.link_read_mbps);
  CHECK(mbps <= ceilings.link_read_mbps * 1.001);
  CHECK(mbps > ceilings.link_read_mbps * 0.97);
  CHECK(outcome.results[2].link_utilisation() > 0.97);
}

TEST_CASE("a faster SATA generation lifts the sequential read ceiling", "[timing]") {
  const DriveConfig config = drive_from_yaml(drive_yaml("8", "4", "32", "50us", "200MB/s", "6Gbps"));
  const auto outcome =
      simulate(scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                         job_phase("read", RwMode::kRead, 128 * 1024, 32, percent(100))}),
               config);
  const double mbps = outcome.results[2].read_mbps();
  CAPTURE(mbps);
  CHECK(mbps > 400);  // well past the 3 Gb/s ceiling (~298 MB/s)
  CHECK(mbps <= drive_ceilings(config).link_read_mbps * 1.001);
}

TEST_CASE("a mapping cache smaller than the table makes random reads pay translation-page reads", "[timing][mapping]") {
  // Same drive twice (48 MiB user = 12 translation pages of 1024 entries): the whole table in
  // DRAM, or 2 translation pages.
  const std::string yaml = drive_yaml("2", "2", "64", "50us", "100MB/s", "3Gbps");
  const DriveConfig whole = drive_from_yaml(yaml);
  DriveConfig cached = drive_from_yaml(yaml);
  cached.controller.mapping_cache_bytes = 2 * 4096;
  const ScenarioSpec s = scenario({erase_phase(), job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                                   job_phase("randread", RwMode::kRandRead, 4096, 1, percent(100), kPicosPerSec / 10),
                                   job_phase("seqread", RwMode::kRead, 4096, 1, percent(10))});
  ScenarioRunner a("whole", s, whole);
  ScenarioRunner b("cached", s, cached);
  sc_core::sc_start();
  REQUIRE(a.finished());
  REQUIRE(b.finished());
  const PhaseResult& rand_whole = a.results()[2];
  const PhaseResult& rand_cached = b.results()[2];
  const PhaseResult& seq_cached = b.results()[3];
  CAPTURE(rand_whole.io.latency()->mean(), rand_cached.io.latency()->mean(), rand_cached.map_reads());
  CHECK(rand_whole.map_reads() == 0);
  CHECK(rand_cached.map_reads() > rand_cached.io.reads / 2);  // most random reads miss
  // A miss costs one more flash read (tR + transfer) before the data read.
  CHECK(rand_cached.io.latency()->mean() > 1.5 * rand_whole.io.latency()->mean());
  // Sequential reads touch a new translation page only every 1024 units.
  CHECK(seq_cached.map_reads() <= seq_cached.io.reads / 1024 + 2);
  CHECK(b.results()[1].map_writes() > 0);  // the fill wrote translation pages back
}
