// The parameter table (base/config/params.h): every key documented, every key the shipped
// configs and scenarios use declared, struct defaults equal to the table's, and the listing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/config/config_loader.h"
#include "base/config/params.h"
#include "base/config/params_yaml.h"
#include "base/core/units.h"

using namespace ssdlab;

namespace {

namespace fs = std::filesystem;
const fs::path kSource(SSDLAB_SOURCE_DIR);

bool is_numeric(ParamKind kind) {
  switch (kind) {
    case ParamKind::kCount:
    case ParamKind::kNumber:
    case ParamKind::kDuration:
    case ParamKind::kSize:
    case ParamKind::kBitRate:
    case ParamKind::kDataRate:
    case ParamKind::kJobSize:
    case ParamKind::kAmount:
    case ParamKind::kPercent:
    case ParamKind::kSeconds:
    case ParamKind::kPageTimes:
      return true;
    default:
      return false;
  }
}

std::vector<fs::path> yaml_files(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& item : fs::recursive_directory_iterator(dir))
    if (item.is_regular_file() && item.path().extension() == ".yaml") files.push_back(item.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Every key path under `node` (a map at `path`) as the table writes it; a list of phases
// (top-level `phases`, `repeat.phases`) holds "phases[]" items; `overrides` hold drive keys.
void collect_keys(const YAML::Node& node, const std::string& path, std::vector<std::string>& keys,
                  std::vector<std::string>& override_keys) {
  if (!node.IsMap()) return;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string name = it->first.Scalar();
    const std::string child = path.empty() ? name : path + "." + name;
    keys.push_back(child);
    const YAML::Node value = it->second;
    if (child == "overrides") {
      for (auto o = value.begin(); o != value.end(); ++o) {
        const std::string text = value.IsMap() ? o->first.Scalar() : o->Scalar();
        override_keys.push_back(text.substr(0, text.find('=')));
      }
    } else if (name == "phases" && value.IsSequence()) {
      for (const YAML::Node& phase : value) collect_keys(phase, "phases[]", keys, override_keys);
    } else {
      collect_keys(value, child, keys, override_keys);
    }
  }
}

bool in_drive_table(const std::string& path) { return config_detail::is_drive_key(path); }

std::string listing(const std::string& section, bool markdown = false) {
  std::ostringstream out;
  CHECK(print_params(out, section, markdown));
  return out.str();
}

}  // namespace

TEST_CASE("every table key has a description and every numeric key a unit", "[params]") {
  for (const ParamTable* table : {&drive_params(), &scenario_params()}) {
    std::set<std::string> seen;
    for (const Param& p : *table) {
      INFO(p.path);
      CHECK_FALSE(p.desc.empty());
      CHECK(seen.insert(p.path).second);  // declared once
      if (is_numeric(p.kind)) CHECK_FALSE(p.unit.empty());
      if (p.kind == ParamKind::kChoice) CHECK_FALSE(p.choices.empty());
      if (p.need == ParamNeed::kDerived || p.need == ParamNeed::kOneOf) CHECK_FALSE(p.default_text.empty());
    }
  }
  CHECK(drive_params().size() >= 30);
}

TEST_CASE("every key of the shipped drive configs is in the drive table", "[params]") {
  const std::vector<fs::path> files = yaml_files(kSource / "configs");
  REQUIRE(files.size() >= 7);
  for (const fs::path& file : files) {
    std::vector<std::string> keys, unused;
    collect_keys(YAML::LoadFile(file.string()), "", keys, unused);
    CHECK(keys.size() >= 20);
    for (const std::string& key : keys) {
      INFO(file.string() + ": " + key);
      CHECK(in_drive_table(key));
    }
  }
}

TEST_CASE("every key of the shipped scenarios is in the scenario table", "[params]") {
  const std::vector<fs::path> files = yaml_files(kSource / "scenarios");
  REQUIRE(files.size() >= 17);
  std::size_t plans = 0;
  for (const fs::path& file : files) {
    const YAML::Node top = YAML::LoadFile(file.string());
    // A sweep plan (scenarios/studies/, docs/sweep.md) is not a scenario: test_sweep_plan.cpp
    // expands every shipped plan.
    if (top.IsMap() && top["axes"]) {
      ++plans;
      continue;
    }
    std::vector<std::string> keys, override_keys;
    collect_keys(top, "", keys, override_keys);
    CHECK(keys.size() >= 4);
    for (const std::string& key : keys) {
      INFO(file.string() + ": " + key);
      CHECK(find_param(scenario_params(), key) != nullptr);
    }
    for (const std::string& key : override_keys) {
      INFO(file.string() + ": override " + key);
      CHECK(in_drive_table(key));
    }
  }
  CHECK(files.size() - plans >= 17);
  // The walk is shown to reach overrides written as a list here.
  std::vector<std::string> keys, override_keys;
  collect_keys(YAML::Load("drive: d.yaml\noverrides: [controller.op=0.1]\nphases: [{repeat: {count: 2, phases: "
                          "[{idle: 1s}]}}]\n"),
               "", keys, override_keys);
  CHECK(override_keys == std::vector<std::string>{"controller.op"});
  CHECK(std::find(keys.begin(), keys.end(), "phases[].idle") != keys.end());
}

TEST_CASE("the drive structs' defaults are the table's defaults", "[params]") {
  const DriveConfig code;  // the in-class initialisers of config.h
  std::size_t compared = 0;
  for (const Param& p : drive_params()) {
    if (p.need != ParamNeed::kOptional || p.kind == ParamKind::kSection) continue;
    DriveConfig from_table;
    config_detail::set_drive_default(p, from_table);
    INFO(p.path + " default " + p.default_text);
    CHECK(config_detail::drive_value_yaml(p, code) == config_detail::drive_value_yaml(p, from_table));
    ++compared;
  }
  CHECK(compared >= 15);
}

TEST_CASE("the scenario structs' defaults are the table's defaults", "[params]") {
  const auto text = [](const std::string& path) {
    const Param* p = find_param(scenario_params(), path);
    REQUIRE(p != nullptr);
    return p->default_text;
  };
  const JobSpec job;
  CHECK(std::to_string(job.iodepth) == text("phases[].job.iodepth"));
  CHECK(std::to_string(job.rwmixread) == text("phases[].job.rwmixread"));
  CHECK(std::to_string(job.blockalign_bytes) == text("phases[].job.blockalign"));
  CHECK(std::to_string(job.runtime_ps) == text("phases[].job.runtime"));
  CHECK((job.time_based ? "true" : "false") == text("phases[].job.time_based"));
  CHECK((job.norandommap ? "true" : "false") == text("phases[].job.norandommap"));
  CHECK((job.size.is_percent && job.size.percent == 100.0 && text("phases[].job.size") == "100%"));
  CHECK((!job.offset.is_percent && job.offset.bytes == 0 && text("phases[].job.offset") == "0"));
  const TrimSpec trim;
  CHECK((trim.size.is_percent && trim.size.percent == 100.0 && text("phases[].trim.size") == "100%"));
  CHECK((!trim.offset.is_percent && trim.offset.bytes == 0 && text("phases[].trim.offset") == "0"));
  const PreconditionPhase pre;
  CHECK(std::to_string(static_cast<int>(pre.fill_percent)) + "%" == text("phases[].precondition.fill"));
  CHECK(std::to_string(static_cast<int>(pre.random_percent)) + "%" == text("phases[].precondition.random"));
  CHECK((pre.random_map ? "true" : "false") == text("phases[].precondition.random_map"));
  const ScenarioSpec spec;
  CHECK(std::to_string(spec.seed) == text("seed"));
  CHECK(spec.sample_interval_ps == parse_duration(text("sample_interval")));
  CHECK(parse_scenario("drive: d.yaml\npercentile_list: " + text("percentile_list") + "\nphases: [mark]\n", "s.yaml")
            .percentile_list == spec.percentile_list);
  // The loader fills `fill` and `seqpass` phases from the table.
  const ScenarioSpec loaded = parse_scenario("drive: d.yaml\nphases:\n  - fill: 50%\n  - seqpass: read\n", "s.yaml");
  REQUIRE(loaded.phases.size() == 2);
  CHECK(loaded.phases[0].job.bs_bytes == parse_size(text("phases[].fill.bs")));
  CHECK(std::to_string(loaded.phases[0].job.iodepth) == text("phases[].fill.iodepth"));
  CHECK(loaded.phases[1].job.bs_bytes == parse_size(text("phases[].seqpass.bs")));
  CHECK(std::to_string(loaded.phases[1].job.iodepth) == text("phases[].seqpass.iodepth"));
}

TEST_CASE("override keys and did-you-mean come from the table", "[params]") {
  const std::string base =
      "name: t\nnand: {channels: 1, dies_per_channel: 1, blocks_per_plane: 64, "
      "pages_per_block: 64, page_size: 4KiB, cell: SLC, t_read: 25us, t_prog: 200us, "
      "t_erase: 2ms, bus_rate: 40MB/s}\ncontroller: {write_buffer: 1MiB, op: 0.2}\n";
  for (const Param& p : drive_params()) {
    if (p.kind == ParamKind::kSection) continue;
    INFO(p.path);
    try {  // any error but "unknown key": the key itself is known
      parse_drive_config(base, "x.yaml", {p.path + "=" + (p.default_text.empty() ? "x" : p.default_text)});
    } catch (const ConfigError& e) {
      CHECK_THAT(e.what(), !Catch::Contains("unknown key"));
    }
  }
  try {
    parse_drive_config(base, "x.yaml", {"controller.gc.idle_dealy=1s"});
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()) ==
          "override 'controller.gc.idle_dealy=1s': controller.gc.idle_dealy: unknown key (did you mean 'idle_delay'?)");
  }
}

TEST_CASE("ssdlab params lists a section with type unit default range and meaning", "[params]") {
  const std::string controller = listing("controller");
  CHECK_THAT(controller, Catch::StartsWith("KEY"));
  CHECK_THAT(controller, Catch::Contains("controller.queue_depth"));
  CHECK_THAT(controller, Catch::Contains("1..32"));
  CHECK_THAT(controller, Catch::Contains("greedy, cost_benefit, fifo"));
  CHECK_THAT(controller, Catch::Contains("controller.gc.idle_delay"));
  CHECK_THAT(controller, !Catch::Contains("nand.channels"));
  CHECK_THAT(listing("controller.gc"), !Catch::Contains("controller.queue_depth"));
  CHECK_THAT(listing("phases.job"), Catch::Contains("phases[].job.rwmixread"));
  const std::string scenario = listing("scenario");
  CHECK_THAT(scenario, Catch::Contains("sample_interval"));
  CHECK_THAT(scenario, !Catch::Contains("nand."));
  CHECK_THAT(listing("", true), Catch::StartsWith("# Configuration reference"));
  std::ostringstream none;
  CHECK_FALSE(print_params(none, "contrller", false));
  CHECK(none.str().empty());
  CHECK(param_section_hint("contrller") == " (did you mean 'controller'?)");
  // Columns line up: every row has its meaning at the same column as the header's.
  std::istringstream rows(controller);
  std::string header, row;
  std::getline(rows, header);
  const std::size_t meaning = header.find("MEANING");
  while (std::getline(rows, row)) {
    INFO(row);
    REQUIRE(row.size() > meaning);
    CHECK(row[meaning - 1] == ' ');
    CHECK(row[meaning] != ' ');
  }
}
