// The drive's statistics tree on a simulated drive: the figures of different parts agree where
// the model makes them agree exactly, fractions and rates are in range, and summary.json carries
// the tree and a catalogue entry for every statistic in it.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "app/run/report.h"
#include "app/run/scenario_runner.h"
#include "base/stats/stats_tree.h"
#include "test/timing/timing_support.h"

using namespace ssdlab;
using namespace ssdlab::test;

namespace {

// 2 channels x 2 dies, one mapping unit per page (every read and program moves one page over
// the bus), a mapping cache of 2 translation pages (hits, misses and write-backs all happen).
DriveConfig small_drive() {
  DriveConfig c = drive_from_yaml(drive_yaml("2", "2", "32", "50us", "100MB/s", "3Gbps"));
  c.controller.mapping_cache_bytes = 2 * 4096;
  return c;
}

// Fill, overwrite at random (GC), read at random: no secure erase and no fast preconditioning,
// which change the FTL's counters without flash operations.
ScenarioSpec workload() {
  return scenario({job_phase("fill", RwMode::kWrite, 128 * 1024, 32, percent(100)),
                   job_phase("overwrite", RwMode::kRandWrite, 4096, 8, percent(60)),
                   job_phase("randread", RwMode::kRandRead, 4096, 4, percent(5))});
}

std::string die_path(std::uint32_t die, std::uint32_t channels, const std::string& stat) {
  return "drive.nand.channel[" + std::to_string(die % channels) + "].die[" + std::to_string(die / channels) + "]." +
         stat;
}

// Every leaf under `j` (JSON path with indices left out, as the catalogue names it).
void leaves(const nlohmann::json& j, const std::string& path, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      leaves(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
  } else if (j.is_array()) {
    for (const nlohmann::json& e : j) leaves(e, path + "[]", out);
  } else {
    out.push_back(path);
  }
}

}  // namespace

TEST_CASE("the statistics tree agrees with itself over a simulated run", "[timing][stats]") {
  const DriveConfig config = small_drive();
  ScenarioRunner run("run", workload(), config);
  const StatsSnapshot start = run.ssd.stats.snapshot(0);
  sc_core::sc_start();
  INFO(run.error());
  REQUIRE(run.finished());
  // After the simulation nothing is in flight: counters planned by the firmware and executed by
  // the flash meet.
  const StatsDelta all = run.ssd.stats.diff(start, run.ssd.stats.snapshot(now_picos()));
  const std::uint32_t channels = config.nand.channels, dies = config.nand.dies();
  std::uint64_t reads = 0, programs = 0, erases = 0;
  std::vector<Picos> channel_expected(channels, 0);
  const Picos page_bus = transfer_picos(config.nand.page_size_bytes, config.nand.bus_bytes_per_s * 8);
  for (std::uint32_t d = 0; d < dies; ++d) {
    const std::uint64_t r = all.count(die_path(d, channels, "reads"));
    const std::uint64_t p = all.count(die_path(d, channels, "programs"));
    const std::uint64_t e = all.count(die_path(d, channels, "erases"));
    reads += r;
    programs += p;
    erases += e;
    // Every operation holds the bus for its command cycles, every read and program for a page.
    channel_expected[d % channels] += (r + p + e) * config.nand.t_cmd_ps + (r + p) * page_bus;
  }
  const std::string ftl = "drive.controller.ftl.", ctl = "drive.controller.";
  REQUIRE(all.count(ftl + "gc_erases") > 0);   // GC ran
  REQUIRE(all.count(ctl + "map_writes") > 0);  // so did the mapping cache
  CHECK(programs == all.count(ftl + "pages_programmed") + all.count(ctl + "map_writes"));
  CHECK(erases == all.count(ftl + "erases"));
  CHECK(reads >= all.count(ctl + "map_reads") + all.count(ctl + "rmw_reads"));
  for (std::uint32_t c = 0; c < channels; ++c) {
    CAPTURE(c);
    CHECK(all.count("drive.nand.channel[" + std::to_string(c) + "].busy") == channel_expected[c]);
  }
  CHECK(all.count(ctl + "map_writes") == all.count(ctl + "mapping_cache.write_backs"));
  CHECK(all.count(ctl + "map_reads") <= all.count(ctl + "mapping_cache.misses"));
  CHECK(all.count(ftl + "nand_units_programmed") ==
        all.count(ftl + "host_units_programmed") + all.count(ftl + "gc_units_copied") + all.count(ftl + "pad_units"));
  CHECK(all.count(ftl + "host_units_written") == all.count("host.write_bytes") / config.controller.mapping_unit_bytes);

  // Per phase: fractions and rates in range, the legacy figures equal to the tree's.
  REQUIRE(run.results().size() == 3);
  for (const PhaseResult& r : run.results()) {
    CAPTURE(r.name);
    const StatsDelta& s = r.stats;
    REQUIRE(!s.empty());
    double die_sum = 0;
    for (std::uint32_t d = 0; d < dies; ++d) {
      const double f = s.busy_fraction(die_path(d, channels, "busy"));
      CHECK(f >= 0.0);
      CHECK(f <= 1.0);
      die_sum += f;
    }
    CHECK(r.die_utilisation() == Approx(die_sum / dies));
    for (std::uint32_t c = 0; c < channels; ++c) {
      const double f = s.busy_fraction("drive.nand.channel[" + std::to_string(c) + "].busy");
      CHECK(f >= 0.0);
      CHECK(f <= 1.0);
    }
    CHECK(s.busy_fraction("drive.link.busy") <= 1.0);
    CHECK(r.link_utilisation() == s.busy_fraction("drive.link.busy"));
    CHECK(s.count("drive.link.fises") > 0);
    CHECK(4 * s.count("drive.link.wire_dwords") > s.count("host.write_bytes") + s.count("host.read_bytes"));
    const std::uint64_t hits = s.count(ctl + "mapping_cache.hits"), misses = s.count(ctl + "mapping_cache.misses");
    REQUIRE(hits + misses > 0);
    const double rate = s.ratio(ctl + "mapping_cache.hit_rate");  // a limited cache: a ratio
    CHECK(rate >= 0.0);
    CHECK(rate <= 1.0);
    CHECK(rate == Approx(double(hits) / double(hits + misses)));
    CHECK(r.gc_erases() == s.count(ftl + "gc_erases"));
    CHECK(double(r.free_blocks_end()) == s.level(ftl + "free_blocks"));
  }
  CHECK(run.results()[2].stats.count(ctl + "read_units.from_nand") > 0);
  // The time series' added columns, from interval snapshots of the same tree.
  REQUIRE(!run.samples().empty());
  std::uint64_t sampled_gc = 0;
  for (const Sample& s : run.samples()) {
    sampled_gc += s.gc_erases;
    CHECK(s.die_busy >= 0.0);
    CHECK(s.die_busy <= 1.0);
    CHECK(s.map_hit_rate <= 1.0);
  }
  CHECK(sampled_gc <= all.count(ftl + "gc_erases"));
  CHECK(sampled_gc > 0);

  // summary.json: the tree per phase, and a catalogue entry (unit, description) for each leaf.
  const nlohmann::json j = nlohmann::json::parse(summary_json(workload(), config, run.results()));
  const nlohmann::json& catalogue = j["stats"]["catalogue"];
  REQUIRE(catalogue.is_object());
  const nlohmann::json& steady = j["phases"][1]["stats"];
  const nlohmann::json& ch1 = steady["drive"]["nand"]["channel"][1];
  CHECK(ch1["busy_fraction"].is_number());
  CHECK(ch1["busy_s"].get<double>() > 0);
  CHECK(ch1["die"][1]["busy_fraction"].is_number());
  CHECK(ch1["die"][1]["programs"].get<std::uint64_t>() > 0);
  CHECK(steady["drive"]["controller"]["mapping_cache"]["hit_rate"].is_number());
  CHECK(steady["drive"]["controller"]["ftl"]["gc_erases"] == j["phases"][1]["gc_erases"]);
  for (const nlohmann::json& phase : j["phases"]) {
    std::vector<std::string> names;
    leaves(phase["stats"], "", names);
    CHECK(names.size() > 40);
    for (const std::string& name : names) {
      CAPTURE(name);
      REQUIRE(catalogue.contains(name));
      CHECK(!catalogue[name]["unit"].get<std::string>().empty());
      CHECK(!catalogue[name]["description"].get<std::string>().empty());
    }
  }
}
