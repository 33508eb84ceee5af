// Sweep plans (app/sweep): expansion (cartesian, zip, ranges, sets, seeds, derived keys), point
// ids, aging groups, and the errors with the plan's lines. The plans refer to the sweep tests'
// tiny drive and scenarios in test/sweep/.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>
#include "app/sweep/derive_expr.h"
#include "app/sweep/expand.h"
#include "app/sweep/plan.h"
#include "base/config/config_loader.h"

using namespace ssdlab;
using namespace ssdlab::sweep;

namespace {

// A plan file as if it were test/sweep/plan.yaml (its paths resolve against test/sweep/).
const std::string kPlanName = std::string(SSDLAB_SOURCE_DIR) + "/test/sweep/plan.yaml";

Expansion expand(const std::string& yaml) { return expand_plan(parse_plan(yaml, kPlanName)); }

std::string error_of(const std::string& yaml) {
  try {
    expand(yaml);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

std::string value_of(const Point& p, const std::string& key) {
  for (const std::string& o : p.overrides)
    if (o.compare(0, key.size() + 1, key + "=") == 0) return o.substr(key.size() + 1);
  return "";
}

}  // namespace

TEST_CASE("sweep plan: cartesian axes times seeds, first axis outermost and seeds innermost") {
  const Expansion ex = expand(
      "scenario: points.yaml\n"
      "seeds: [5, 9]\n"
      "axes:\n"
      "  - key: nand.channels\n"
      "    values: [1, 2]\n"
      "  - key: controller.op\n"
      "    values: [0.125, 0.2, 0.25]\n");
  REQUIRE(ex.points.size() == 12);
  CHECK(ex.groups.empty());
  const std::vector<std::string> channels{"1", "1", "1", "1", "1", "1", "2", "2", "2", "2", "2", "2"};
  const std::vector<std::string> op{"0.125", "0.125", "0.2", "0.2", "0.25", "0.25"};
  for (std::size_t i = 0; i < ex.points.size(); ++i) {
    const Point& p = ex.points[i];
    CHECK(p.index == i);
    CHECK(p.seed == (i % 2 ? 9u : 5u));
    CHECK(p.labels == std::vector<std::string>{channels[i], op[i % 6]});
    CHECK(p.overrides == std::vector<std::string>{"nand.channels=" + channels[i], "controller.op=" + op[i % 6]});
    CHECK(p.group == -1);
  }
}

TEST_CASE("sweep plan: zip takes value i of every axis together, and needs axes of one length") {
  const Expansion ex = expand(
      "scenario: points.yaml\n"
      "combine: zip\n"
      "axes:\n"
      "  - {key: nand.channels, values: [1, 2, 4]}\n"
      "  - {key: controller.op, values: [0.125, 0.2, 0.25]}\n");
  REQUIRE(ex.points.size() == 3);
  CHECK(ex.points[0].labels == std::vector<std::string>{"1", "0.125"});
  CHECK(ex.points[2].labels == std::vector<std::string>{"4", "0.25"});
  CHECK(ex.points[1].seed == 1);  // the scenario's own seed
  CHECK(error_of("scenario: points.yaml\n"
                 "combine: zip\n"
                 "axes:\n"
                 "  - {key: nand.channels, values: [1, 2, 4]}\n"
                 "  - {key: controller.op, values: [0.125, 0.2]}\n") ==
        kPlanName +
            ":5: axes[1]: combine: zip needs axes of one length: 'controller.op' has 2 values, "
            "'nand.channels' (line 4) has 3");
}

TEST_CASE("sweep plan: ranges by step and by factor, sizes with units") {
  const Expansion ex = expand(
      "scenario: points.yaml\n"
      "axes:\n"
      "  - key: controller.op\n"
      "    range: {from: 0.125, to: 0.3, step: 0.0575}\n"
      "  - key: controller.mapping_cache\n"
      "    range: {from: 16KiB, to: 64KiB, factor: 2}\n");
  REQUIRE(ex.points.size() == 4 * 3);
  std::vector<std::string> op, cache;
  for (std::size_t i = 0; i < ex.points.size(); i += 3) op.push_back(ex.points[i].labels[0]);
  for (std::size_t i = 0; i < 3; ++i) cache.push_back(ex.points[i].labels[1]);
  CHECK(op == std::vector<std::string>{"0.125", "0.1825", "0.24", "0.2975"});  // not 0.18250000000000002
  CHECK(cache == std::vector<std::string>{"16384", "32768", "65536"});
}

TEST_CASE("sweep plan: a bad range is refused at its line") {
  const std::string head = "scenario: points.yaml\naxes:\n  - key: controller.op\n";
  CHECK(error_of(head + "    range: {from: 0.3, to: 0.1, step: 0.05}\n") ==
        kPlanName + ":4: axes[0].range.to: must not be below from (0.3)");
  CHECK(error_of(head + "    range: {from: 0.1, to: 0.3, step: 0}\n") ==
        kPlanName + ":4: axes[0].range.step: must be > 0");
  CHECK(error_of(head + "    range: {from: 0.1, to: 0.3, step: 0.1, factor: 2}\n") ==
        kPlanName + ":4: axes[0].range: give either step (from, from+step, ...) or factor (from, from*factor, ...)");
  CHECK(error_of(head + "    range: {from: 0.1, to: 0.3, setp: 0.1}\n") ==
        kPlanName + ":4: axes[0].range.setp: unknown key (did you mean 'step'?)");
  CHECK(error_of(head + "    range: {from: 1, to: 100000, step: 1}\n") ==
        kPlanName + ":4: axes[0].range: gives 100000 values, more than an axis may hold (10000)");
}

TEST_CASE("sweep plan: sets apply whole override maps under their label") {
  const Expansion ex = expand(
      "scenario: points.yaml\n"
      "axes:\n"
      "  - name: gc\n"
      "    sets:\n"
      "      - {label: greedy, overrides: {controller.gc.policy: greedy}}\n"
      "      - label: fifo-shared\n"
      "        overrides: [controller.gc.policy=fifo, controller.gc.destination=shared]\n");
  REQUIRE(ex.points.size() == 2);
  CHECK(ex.points[1].labels == std::vector<std::string>{"fifo-shared"});
  CHECK(ex.points[1].overrides ==
        std::vector<std::string>{"controller.gc.policy=fifo", "controller.gc.destination=shared"});
  CHECK(error_of("scenario: points.yaml\naxes:\n  - name: gc\n    sets:\n"
                 "      - {label: a, overrides: {controller.gc.polcy: fifo}}\n") ==
        kPlanName +
            ":5: axes[0].sets[0].overrides.controller.gc.polcy: 'controller.gc.polcy' is not a drive config "
            "key (did you mean 'controller.gc.policy'?)");
}

TEST_CASE("sweep plan: repeats count seeds up from the scenario's") {
  const Expansion ex = expand("scenario: points.yaml\nrepeats: 3\n");
  REQUIRE(ex.points.size() == 3);
  CHECK(ex.points[0].seed == 1);  // points.yaml: seed 1
  CHECK(ex.points[2].seed == 3);
  CHECK(error_of("scenario: points.yaml\nrepeats: 3\nseeds: [1]\n") ==
        kPlanName + ":2: repeats: give seeds or repeats, not both");
}

TEST_CASE("sweep plan: a derived key holds the raw capacity while channels change") {
  const Expansion ex = expand(
      "scenario: points.yaml\n"
      "axes:\n"
      "  - {key: nand.channels, values: [1, 2]}\n"
      "  - {key: nand.dies_per_channel, values: [1, 2]}\n"
      "derive:\n"
      "  nand.blocks_per_plane: base(nand.blocks_per_plane) * base(nand.channels) / nand.channels\n"
      "    * base(nand.dies_per_channel) / nand.dies_per_channel\n");
  REQUIRE(ex.points.size() == 4);
  std::set<std::uint64_t> raw;
  const std::vector<std::string> blocks{"256", "128", "128", "64"};  // tiny-drive.yaml: 2 x 2 dies x 64 blocks
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(value_of(ex.points[i], "nand.blocks_per_plane") == blocks[i]);
    CHECK(ex.points[i].derived ==
          std::vector<std::pair<std::string, std::string>>{{"nand.blocks_per_plane", blocks[i]}});
    raw.insert(load_drive_config(ex.inputs.drive_path, ex.points[i].overrides).nand.raw_bytes());
  }
  CHECK(raw.size() == 1);
  // A derived value the drive refuses is blamed on the derive line: 8 dies of 32 blocks leave
  // too few spare blocks per die at 12.5 % OP.
  CHECK_THAT(error_of("scenario: points.yaml\n"
                      "axes:\n"
                      "  - {key: nand.channels, values: [2, 8]}\n"
                      "derive:\n"
                      "  nand.blocks_per_plane: base(nand.blocks_per_plane) * base(nand.channels) / nand.channels\n"),
             Catch::StartsWith(kPlanName + ":5: derive.nand.blocks_per_plane: point 1 (nand.channels=8, seed 1) is "
                                           "impossible: override 'nand.blocks_per_plane=16': controller.op: not enough "
                                           "spare blocks"));
}

TEST_CASE("sweep plan: derive expressions: arithmetic, units, and their errors") {
  const auto base = [](const std::string& key, bool from_base) {
    return key == "nand.channels" ? (from_base ? 2 : 4) : 64;
  };
  CHECK(evaluate_expression("1GiB / (nand.channels * 4KiB)", base) == Approx(65536.0));
  CHECK(evaluate_expression("-(2 + 3) * base(nand.channels) - 1", base) == Approx(-11.0));
  CHECK(expression_keys("base(nand.channels) * nand.pages_per_block / nand.channels") ==
        std::vector<std::string>{"nand.pages_per_block", "nand.channels"});
  CHECK_THROWS_WITH(check_expression("nand.chanels * 2"),
                    "at character 1 of 'nand.chanels * 2': 'nand.chanels' is not a drive config key "
                    "(did you mean 'nand.channels'?)");
  CHECK_THROWS_WITH(check_expression("nand.cell + 1"),
                    Catch::Contains("'nand.cell' is not a number (its kind: choice)"));
  CHECK_THROWS_WITH(check_expression("(1 + 2"), Catch::Contains("expected ')'"));
  CHECK_THROWS_WITH(check_expression("3 $ 4"), "at character 3 of '3 $ 4': unexpected '$'");
  CHECK_THROWS_WITH(evaluate_expression("8 / (nand.channels - 4)", base), Catch::Contains("division by zero"));
  // In a plan: the derive line, and the point the division by zero happened at.
  CHECK(error_of("scenario: points.yaml\n"
                 "axes:\n"
                 "  - {key: nand.channels, values: [1, 2]}\n"
                 "derive:\n"
                 "  nand.blocks_per_plane: 64 / (nand.channels - 1)\n") ==
        kPlanName +
            ":5: derive.nand.blocks_per_plane: at point 0 (nand.channels=1, seed 1): at character 6 of "
            "'64 / (nand.channels - 1)': division by zero");
  CHECK(error_of("scenario: points.yaml\n"
                 "axes:\n"
                 "  - {key: nand.channels, values: [1, 2]}\n"
                 "derive:\n"
                 "  nand.blocks_per_plane: 64 * (1 - nand.channels)\n") ==
        kPlanName +
            ":5: derive.nand.blocks_per_plane: at point 1 (nand.channels=2, seed 1): comes out negative "
            "(-64.000000)");
  CHECK(error_of("scenario: points.yaml\n"
                 "axes:\n"
                 "  - {key: nand.channels, values: [1, 2]}\n"
                 "derive:\n"
                 "  nand.channels: 2\n") ==
        kPlanName + ":5: derive.nand.channels: is also set by the axis 'nand.channels' (line 3)");
}

TEST_CASE("sweep plan: ids are stable, distinct, and follow config, scenario and seed") {
  const std::string yaml =
      "scenario: points.yaml\n"
      "seeds: [1, 2]\n"
      "axes:\n"
      "  - {key: controller.op, values: [0.125, 0.25]}\n";
  const Expansion a = expand(yaml), b = expand(yaml);
  std::set<std::string> ids;
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    CHECK(a.points[i].id == b.points[i].id);
    CHECK(a.points[i].id.size() == 12);
    CHECK(a.points[i].id.find_first_not_of("0123456789abcdef") == std::string::npos);
    ids.insert(a.points[i].id);
  }
  CHECK(ids.size() == 4);
  // The same point under another axis name, or in another plan, has the same id.
  const Expansion c =
      expand("scenario: points.yaml\nseeds: [2]\naxes:\n  - {name: op, key: controller.op, values: [0.25]}\n");
  CHECK(c.points[0].id == a.points[3].id);
  // The scenario's text is part of the id: an edited scenario makes new points.
  BaseInputs edited = a.inputs;
  edited.scenario_text += "\n# edited\n";
  const std::string config = point_config_yaml(a.inputs, a.points[0].overrides);
  CHECK(point_id(a.inputs, config, 1) == a.points[0].id);
  CHECK(point_id(edited, config, 1) != a.points[0].id);
  // Two values that give the same drive are the same run: refused.
  CHECK(error_of("scenario: points.yaml\naxes:\n  - key: controller.op\n    values: [0.125, 0.1250]\n") ==
        kPlanName +
            ":4: axes[0].values[1]: point 1 (controller.op=0.1250, seed 1) is the same run as point 0 "
            "(controller.op=0.125, seed 1): the same drive config, scenario and seed (id " +
            a.points[0].id + ")");
}

TEST_CASE("sweep plan: unknown keys, with the closest name") {
  CHECK(error_of("scenario: points.yaml\naxs: []\n") == kPlanName + ":2: axs: unknown key (did you mean 'axes'?)");
  CHECK(error_of("scenario: points.yaml\naxes:\n  - {key: nand.chanels, values: [1]}\n") ==
        kPlanName + ":3: axes[0].key: 'nand.chanels' is not a drive config key (did you mean 'nand.channels'?)");
  CHECK(error_of("scenario: points.yaml\naxes:\n  - {key: nand.channels, valeus: [1]}\n") ==
        kPlanName + ":3: axes[0].valeus: unknown key (did you mean 'values'?)");
  CHECK(error_of("scenario: points.yaml\ncombine: cartesain\n") ==
        kPlanName + ":2: combine: expected cartesian or zip, got 'cartesain' (did you mean 'cartesian'?)");
  CHECK(error_of("seeds: [1]\n") == kPlanName + ":1: scenario: required key missing");
  CHECK(error_of("scenario: points.yaml\naxes:\n  - {name: seed, key: nand.channels, values: [1]}\n") ==
        kPlanName + ":3: axes[0].name: 'seed' names a column of the results: choose another name");
}

TEST_CASE("sweep plan: an impossible point is refused before anything runs, at its value's line") {
  // 1 % OP leaves the tiny drive too few spare blocks for GC: the loader blames the override.
  const std::string e = error_of(
      "scenario: points.yaml\n"
      "axes:\n"
      "  - key: nand.channels\n"
      "    values: [1, 2]\n"
      "  - key: controller.op\n"
      "    values:\n"
      "      - 0.125\n"
      "      - 0.01\n");
  CHECK_THAT(e, Catch::StartsWith(kPlanName + ":8: axes[1].values[1]: point 1 (nand.channels=1, controller.op=0.01, "
                                              "seed 1) is impossible: override 'controller.op=0.01': controller.op: "
                                              "not enough spare blocks for garbage collection"));
  CHECK_THAT(e,
             Catch::Contains("\n" + kPlanName + ":8: axes[1].values[1]: point 3 (nand.channels=2, controller.op=0.01"));
  // A value of the wrong kind, at its line.
  CHECK_THAT(
      error_of("scenario: points.yaml\naxes:\n  - key: nand.page_size\n    values: [4KiB, 3KiB]\n"),
      Catch::StartsWith(kPlanName + ":4: axes[0].values[1]: point 1 (nand.page_size=3KiB, seed 1) is impossible: "
                                    "override 'nand.page_size=3KiB': "));
  // A scenario that does not load is named through the plan's scenario line.
  CHECK_THAT(error_of("name: x\nscenario: no-such.yaml\n"),
             Catch::StartsWith(kPlanName + ":2: scenario: " + std::string(SSDLAB_SOURCE_DIR) +
                               "/test/sweep/no-such.yaml: cannot open"));
}

TEST_CASE("sweep plan: aging groups: one per drive with a fixed seed, per drive and seed without") {
  const std::string axes =
      "seeds: [1, 2]\n"
      "axes:\n"
      "  - {key: controller.op, values: [0.125, 0.25]}\n";
  const Expansion fixed = expand("scenario: points.yaml\n" + axes + "age: {scenario: age.yaml, seed: 7}\n");
  REQUIRE(fixed.points.size() == 4);
  REQUIRE(fixed.groups.size() == 2);
  CHECK(fixed.points[0].group == 0);
  CHECK(fixed.points[1].group == 0);  // the same drive, another seed: the same aged drive
  CHECK(fixed.points[2].group == 1);
  CHECK(fixed.groups[0].seed == 7);
  CHECK(fixed.groups[0].points == 2);
  CHECK(fixed.groups[1].overrides == std::vector<std::string>{"controller.op=0.25"});
  const Expansion seeded = expand("scenario: points.yaml\n" + axes + "age: age.yaml\n");
  REQUIRE(seeded.groups.size() == 4);
  CHECK(seeded.groups[1].seed == 2);
  // The aging is part of a point's id.
  CHECK(seeded.points[0].id != fixed.points[0].id);
  CHECK(expand("scenario: points.yaml\n" + axes).points[0].id != fixed.points[0].id);
  // An aging scenario may not change the drive.
  CHECK_THAT(error_of("scenario: points.yaml\nage: points-with-overrides.yaml\n"),
             Catch::Contains("overrides: an aging scenario may not change the drive ('controller.op=0.2')"));
}

TEST_CASE("sweep plan: every shipped plan (scenarios/) expands, each point's drive loaded") {
  // The plans and their point counts (docs/sweep.md): a plan added without a line here fails.
  const std::map<std::string, std::size_t> expected{
      {"channels-op", 24}, {"mapping-cache", 20}, {"op-steady", 15}, {"parallelism-link", 24}};
  std::map<std::string, std::size_t> found;
  for (const auto& item :
       std::filesystem::recursive_directory_iterator(std::string(SSDLAB_SOURCE_DIR) + "/scenarios")) {
    if (!item.is_regular_file() || item.path().extension() != ".yaml") continue;
    const YAML::Node top = YAML::LoadFile(item.path().string());
    if (!top.IsMap() || !top["axes"]) continue;  // a scenario
    INFO(item.path().string());
    const Expansion ex = expand_plan(load_plan(item.path().string()));
    found[ex.plan.name] = ex.points.size();
  }
  CHECK(found == expected);
}
