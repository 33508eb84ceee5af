// The statistics tree (base/stats/stats_tree.h): naming, phase differences, busy fractions,
// ratios, levels, the JSON shape and the catalogue.
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "base/stats/stats_json.h"
#include "base/stats/stats_tree.h"

using namespace ssdlab;

namespace {

// A component with its own counters, registered the way the drive's parts do it.
struct Part {
  std::uint64_t hits = 0, misses = 0, ops = 0;
  Picos busy = 0;
  double fill = 0;
  void register_stats(const StatGroup& g) const {
    g.counter("hits", hits, "accesses", "accesses that hit");
    g.counter("misses", misses, "accesses", "accesses that missed");
    g.counter("ops", ops, "operations", "operations done");
    g.busy(
        "busy", [this] { return busy; }, "time in use");
    g.level(
        "fill", [this] { return fill; }, "units", "units held");
    g.ratio("hit_rate", {"hits"}, {"hits", "misses"}, "share of accesses that hit");
  }
};

}  // namespace

TEST_CASE("stats tree: groups nest by name with indices", "[stats]") {
  StatsTree tree;
  Part a, b;
  const StatGroup nand = tree.group("drive").group("nand");
  a.register_stats(nand.group("channel", 2).group("die", 3));
  b.register_stats(nand.group("channel", 0).group("die", 0));
  const StatCatalogue& c = *tree.catalogue();
  CHECK(c.find("drive.nand.channel[2].die[3].hits") >= 0);
  CHECK(c.find("drive.nand.channel[0].die[0].busy") >= 0);
  CHECK(c.find("drive.nand.channel[1].die[0].busy") < 0);
  CHECK(stat_pattern("drive.nand.channel[2].die[3].hits") == "drive.nand.channel[].die[].hits");
  // Matching keeps registration order.
  const std::vector<std::uint32_t> busy = c.matching("drive.nand.channel[].die[].busy");
  REQUIRE(busy.size() == 2);
  CHECK(c.defs()[busy[0]].name == "drive.nand.channel[2].die[3].busy");
  CHECK(c.defs()[busy[1]].name == "drive.nand.channel[0].die[0].busy");
}

TEST_CASE("stats tree: bad registrations are refused with the name", "[stats]") {
  StatsTree tree;
  Part a;
  const StatGroup g = tree.group("part");
  a.register_stats(g);
  CHECK_THROWS_WITH(a.register_stats(g), Catch::Contains("part.hits is registered twice"));
  std::uint64_t x = 0;
  CHECK_THROWS_WITH(g.counter("Bad.Name", x, "u", "d"), Catch::Contains("Bad.Name"));
  CHECK_THROWS_WITH(g.counter("no_unit", x, "", "d"), Catch::Contains("part.no_unit has no unit"));
  CHECK_THROWS_WITH(g.counter("no_text", x, "u", nullptr), Catch::Contains("part.no_text has no description"));
  CHECK_THROWS_WITH(g.ratio("r", {"fill"}, {"hits"}, "d"), Catch::Contains("part.fill is not a counter"));
  CHECK_THROWS_WITH(g.ratio("r", {"later"}, {"hits"}, "d"), Catch::Contains("part.later"));
  tree.snapshot(0);
  CHECK_THROWS_WITH(g.counter("late", x, "u", "d"), Catch::Contains("after the first snapshot"));
}

TEST_CASE("stats tree: a phase is the difference of two snapshots", "[stats]") {
  StatsTree tree;
  Part p;
  p.register_stats(tree.group("part"));
  p.hits = 10;
  p.misses = 5;
  p.ops = 7;
  p.busy = 1000;
  p.fill = 3;
  const StatsSnapshot begin = tree.snapshot(2000);
  p.hits += 30;
  p.misses += 10;
  p.ops += 1;
  p.busy += 2500;  // of a 10000 ps phase
  p.fill = 9;
  const StatsSnapshot end = tree.snapshot(12000);
  const StatsDelta d = tree.diff(begin, end);
  CHECK(d.span_ps() == 10000);
  CHECK(d.count("part.hits") == 30);
  CHECK(d.count("part.misses") == 10);
  CHECK(d.count("part.ops") == 1);
  CHECK(d.count("part.busy") == 2500);
  CHECK(d.busy_fraction("part.busy") == Approx(0.25));
  CHECK(d.busy_seconds("part.busy") == Approx(2500e-12));
  CHECK(d.level("part.fill") == 9);                 // a level is its value at the end
  CHECK(d.ratio("part.hit_rate") == Approx(0.75));  // 30 / (30 + 10): the phase's own, not 40 / 55
  CHECK(d.mean_busy_fraction("part.busy") == Approx(0.25));
  CHECK(d.value("part.hits") == 30);
  CHECK(d.value("part.busy") == Approx(0.25));
  CHECK(d.value("part.fill") == 9);
  CHECK(d.value("part.hit_rate") == Approx(0.75));
  CHECK_THROWS_WITH(d.count("part.nothing"), Catch::Contains("no statistic named part.nothing"));
  CHECK_THROWS_WITH(d.count("part.fill"), Catch::Contains("part.fill is a level"));
  // Snapshots out of order are refused.
  CHECK_THROWS(tree.diff(end, begin));
}

TEST_CASE("stats tree: a ratio over nothing is NaN and JSON null", "[stats]") {
  StatsTree tree;
  Part p;
  p.register_stats(tree.group("part"));
  p.hits = 4;
  const StatsSnapshot a = tree.snapshot(0);
  const StatsDelta d = tree.diff(a, tree.snapshot(0));
  CHECK(std::isnan(d.ratio("part.hit_rate")));
  CHECK(d.busy_fraction("part.busy") == 0);  // an empty span: no fraction, no division by zero
  CHECK(d.mean_busy_fraction("part.busy") == 0);
  const nlohmann::json j = stats_tree_json(d);
  CHECK(j["part"]["hit_rate"].is_null());
  CHECK(j["part"]["hits"] == 0);
}

TEST_CASE("stats tree: an empty delta reads zero everywhere", "[stats]") {
  const StatsDelta none;
  CHECK(none.empty());
  CHECK(none.count("drive.anything") == 0);
  CHECK(none.level("drive.anything") == 0);
  CHECK(none.mean_busy_fraction("drive.anything") == 0);
  CHECK(stats_tree_json(none) == nlohmann::json::object());
}

TEST_CASE("stats tree: JSON mirrors the names with arrays for indexed groups", "[stats]") {
  StatsTree tree;
  Part dies[4];
  const StatGroup nand = tree.group("drive").group("nand");
  for (std::uint32_t d = 0; d < 4; ++d) dies[d].register_stats(nand.group("channel", d % 2).group("die", d / 2));
  const StatsSnapshot a = tree.snapshot(0);
  dies[3].busy = 500;
  dies[3].ops = 2;
  dies[3].fill = 1.5;
  const nlohmann::json j = stats_tree_json(tree.diff(a, tree.snapshot(1000)));
  const nlohmann::json& channels = j["drive"]["nand"]["channel"];
  REQUIRE(channels.is_array());
  REQUIRE(channels.size() == 2);
  REQUIRE(channels[1]["die"].is_array());
  REQUIRE(channels[1]["die"].size() == 2);
  const nlohmann::json& die = channels[1]["die"][1];  // die 3
  CHECK(die["ops"] == 2);
  CHECK(die["busy_fraction"].get<double>() == Approx(0.5));
  CHECK(die["busy_s"].get<double>() == Approx(500e-12));
  CHECK(die["fill"].get<double>() == Approx(1.5));
  CHECK(channels[0]["die"][0]["ops"] == 0);
}

TEST_CASE("stats tree: the catalogue names every leaf of the JSON tree with unit and description", "[stats]") {
  StatsTree tree;
  Part p[3];
  for (std::uint32_t i = 0; i < 3; ++i) p[i].register_stats(tree.group("drive").group("part", i));
  const nlohmann::json cat = stats_catalogue_json(*tree.catalogue());
  const StatsSnapshot a = tree.snapshot(0);
  const nlohmann::json j = stats_tree_json(tree.diff(a, tree.snapshot(1)));
  std::size_t leaves = 0;
  for (const auto& part : j["drive"]["part"]) {
    for (auto it = part.begin(); it != part.end(); ++it) {
      const std::string name = "drive.part[]." + it.key();
      CAPTURE(name);
      REQUIRE(cat.contains(name));
      CHECK(!cat[name]["unit"].get<std::string>().empty());
      CHECK(!cat[name]["description"].get<std::string>().empty());
      CHECK(!cat[name]["kind"].get<std::string>().empty());
      ++leaves;
    }
  }
  CHECK(leaves == 3 * 7);  // 3 counters, busy_s, busy_fraction, a level, a ratio
  CHECK(cat.size() == 7);  // one entry per statistic, not per index
  CHECK(cat["drive.part[].hit_rate"]["of"] == "hits / (hits + misses)");
}
