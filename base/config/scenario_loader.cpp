// Scenario files: YAML -> ScenarioSpec (the drive file itself is not loaded here).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "base/config/fio_job.h"
#include "base/config/replay_phase_yaml.h"
#include "base/config/scenario_parser.h"
#include "base/core/units.h"

namespace ssdlab {
using namespace config_detail;

namespace scenario_detail {

// Repeat blocks are expanded at load time: a scenario may expand to at most this many phases
// (counted before anything is built, so memory and time stay bounded).
constexpr std::uint64_t kMaxPhases = 100000;
constexpr int kMaxRepeatDepth = 8;
// Jobs over all phases (a repeat of a phase of 4096 jobs would otherwise build millions).
constexpr std::uint64_t kMaxScenarioJobs = 100000;

const std::vector<std::string> kBarePhases = {"secure_erase", "mark"};

// The keys allowed under `path` of a scenario ("" = top level, "phases[]" = a phase).
std::vector<std::string> keys_of(const std::string& path) { return param_children(scenario_params(), path); }

// A phase map has an optional name, note and expect, and exactly one action key.
const std::vector<std::string>& phase_actions() {
  static const std::vector<std::string> actions = [] {
    std::vector<std::string> keys = keys_of("phases[]");
    keys.erase(std::remove_if(keys.begin(), keys.end(),
                              [](const std::string& k) { return k == "name" || k == "note" || k == "expect"; }),
               keys.end());
    return keys;
  }();
  return actions;
}

// The table entry of a scenario key (the paths named in this file are all in the table).
const Param& entry(const std::string& path) {
  const Param* p = find_param(scenario_params(), path);
  if (p == nullptr) throw std::logic_error("scenario key missing from the parameter table: " + path);
  return *p;
}

// Sizes as fio writes them: the project's units plus a bare k/m/g/t suffix (1024-based,
// any case), so "128k" = 128KiB. "4KB" keeps the project's meaning (4000 bytes).
std::uint64_t parse_job_size(const std::string& text) {
  static const char* const kBinary[] = {"KiB", "MiB", "GiB", "TiB"};
  static const std::string kLetters = "kmgt";
  if (text.size() >= 2 && std::isdigit(static_cast<unsigned char>(text[text.size() - 2]))) {
    const char last = static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())));
    const std::size_t which = kLetters.find(last);
    if (which != std::string::npos) return parse_size(text.substr(0, text.size() - 1) + kBinary[which]);
  }
  try {
    return parse_size(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(e.what()) + "; fio's k, m, g, t (1024-based) too");
  }
}

bool is_plain_number(const std::string& text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) || c == '.'; });
}

std::string resolve_drive_path(const std::string& drive, const std::string& scenario_path) {
  namespace fs = std::filesystem;
  const fs::path path(drive);
  if (path.is_absolute()) return path.lexically_normal().string();
  return (fs::path(scenario_path).parent_path() / path).lexically_normal().string();
}

// fio's percentile_list: a YAML list of numbers or one string "99:99.9" (a bare number too);
// each in (0, 100], at most 20 (fio's limit), sorted ascending as fio reports them.
std::vector<double> parse_percentile_list(const YamlSource& src, const YAML::Node& node) {
  constexpr std::size_t kMaxPercentiles = 20;
  std::vector<std::pair<std::string, YAML::Node>> items;
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      items.emplace_back(get_scalar(src, node[i], "percentile_list", "a number"), node[i]);
  } else {
    std::string text = get_scalar(src, node, "percentile_list", "a list of numbers or A:B:C");
    for (std::size_t start = 0;;) {
      const std::size_t colon = text.find(':', start);
      items.emplace_back(text.substr(start, colon - start), node);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  if (items.empty() || items.size() > kMaxPercentiles)
    src.fail(node, "percentile_list", "needs 1 to " + std::to_string(kMaxPercentiles) + " percentiles");
  std::vector<double> out;
  for (const auto& [text, at] : items) {
    double v = 0;
    if (!parse_plain_double(text, v) || !(v > 0 && v <= 100))
      src.fail(at, "percentile_list", "'" + text + "' is not a percentile in (0, 100]");
    out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

ScenarioSpec ScenarioParser::parse(const YAML::Node& root) {
  ScenarioSpec spec;
  spec.path = src_.name();
  check_map(src_, root, "", keys_of(""));
  spec.name = std::filesystem::path(src_.name()).stem().string();
  if (root["name"]) spec.name = get_string(src_, root["name"], "name");
  if (root["description"]) spec.description = get_string(src_, root["description"], "description");
  const YAML::Node drive = require(src_, root, "", "drive");
  const std::string drive_text = get_string(src_, drive, "drive");
  if (drive_text.empty()) src_.fail(drive, "drive", "must name a drive config file");
  spec.drive_path = resolve_drive_path(drive_text, src_.name());
  if (root["overrides"]) parse_overrides(root["overrides"], spec.overrides);
  if (root["seed"]) spec.seed = uint_key(root["seed"], "seed", "seed");
  if (const YAML::Node interval = root["sample_interval"]) {
    spec.sample_interval_ps = uint_key(interval, "sample_interval", "sample_interval");
    spec.sample_interval_line = interval.Mark().line + 1;
  }
  if (const YAML::Node list = root["percentile_list"]) spec.percentile_list = parse_percentile_list(src_, list);
  const YAML::Node phases = require(src_, root, "", "phases");
  notes_ = &spec.notes;
  spec.phases.reserve(count_phases(phases, "phases", 0));
  parse_phase_list(phases, "phases", "", spec.phases, 0);
  check_sample_rows(spec);
  return spec;
}

// The number of phases `list` expands to (at most kMaxPhases, else an error at the repeat or
// phase that goes past it). Reads only what sizes the expansion; a list or phase of the wrong
// shape counts as one and is reported when it is parsed.
std::uint64_t ScenarioParser::count_phases(const YAML::Node& list, const std::string& path, int depth) {
  if (!list.IsSequence()) return 1;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node phase = list[i];
    const std::string ppath = index_path(path, i);
    const YAML::Node repeat = phase.IsMap() ? phase["repeat"] : YAML::Node();
    if (!repeat.IsDefined() || !repeat.IsMap()) {
      if (++total > kMaxPhases)
        src_.fail(phase, ppath, "the scenario expands to more than " + std::to_string(kMaxPhases) + " phases");
      continue;
    }
    const std::string rpath = join_path(ppath, "repeat");
    const std::uint64_t expanded = repeat_count(repeat, rpath, depth);
    const std::string what = "expands to " + std::to_string(expanded) + " phases";
    const std::string limit = "a scenario may expand to at most " + std::to_string(kMaxPhases) + " phases";
    // At the phase: its line is the line of the `repeat:` key.
    if (expanded > kMaxPhases) src_.fail(phase, rpath, what + "; " + limit);
    total += expanded;
    if (total > kMaxPhases) src_.fail(phase, rpath, what + ", " + std::to_string(total) + " phases in all; " + limit);
  }
  return total;
}

// count x the phases of the repeated list (at most kMaxPhases x kMaxPhases: no overflow).
std::uint64_t ScenarioParser::repeat_count(const YAML::Node& repeat, const std::string& rpath, int depth) {
  const auto count =
      uint_key(require(src_, repeat, rpath, "count"), "phases[].repeat.count", join_path(rpath, "count"));
  check_repeat_depth(repeat, rpath, depth);
  const YAML::Node inner = repeat["phases"];
  return count * (inner ? count_phases(inner, join_path(rpath, "phases"), depth + 1) : 1);
}

void ScenarioParser::count_built(const PhaseSpec& phase, const YAML::Node& node, const std::string& path) {
  if (++phases_built_ > kMaxPhases)
    src_.fail(node, path, "the scenario expands to more than " + std::to_string(kMaxPhases) + " phases");
  jobs_built_ += 1 + phase.more_jobs.size();
  if (jobs_built_ > kMaxScenarioJobs)
    src_.fail(node, path,
              "the scenario's phases run more than " + std::to_string(kMaxScenarioJobs) +
                  " jobs in all; a scenario runs at most " + std::to_string(kMaxScenarioJobs));
}

// A repeat at `depth` (0: in the scenario's own list) is nesting level depth + 1.
void ScenarioParser::check_repeat_depth(const YAML::Node& repeat, const std::string& rpath, int depth) {
  if (depth >= kMaxRepeatDepth)
    src_.fail(repeat, rpath, "repeat blocks nest at most " + std::to_string(kMaxRepeatDepth) + " deep");
}

void ScenarioParser::check_override(const YAML::Node& node, const std::string& path, const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0) src_.fail(node, path, "expected key.path=value, got '" + text + "'");
  std::string key = text.substr(0, equals);
  key.erase(key.find_last_not_of(" \t") + 1);
  key.erase(0, key.find_first_not_of(" \t"));
  if (!is_drive_key(key)) src_.fail(node, path, "'" + key + "' is not a drive config key");
}

void ScenarioParser::parse_overrides(const YAML::Node& node, std::vector<std::string>& out) {
  if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::string path = index_path("overrides", i);
      const std::string text = get_string(src_, node[i], path);
      check_override(node[i], path, text);
      out.push_back(text);
    }
    return;
  }
  if (!node.IsMap()) src_.fail(node, "overrides", "expected a list of key.path=value strings or a map");
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = get_string(src_, it->first, "overrides");
    const std::string path = join_path("overrides", key);
    std::string value;
    if (it->second.IsScalar()) {
      value = it->second.Scalar();
    } else {
      YAML::Emitter flow;
      flow << YAML::Flow << it->second;
      value = flow.c_str();
    }
    check_override(it->first, path, key + "=" + value);
    out.push_back(key + "=" + value);
  }
}

void ScenarioParser::parse_phase_list(const YAML::Node& list, const std::string& path, const std::string& suffix,
                                      std::vector<PhaseSpec>& out, int depth) {
  if (!list.IsSequence()) src_.fail(list, path, "expected a list of phases");
  if (list.size() == 0) src_.fail(list, path, "must list at least one phase");
  for (std::size_t i = 0; i < list.size(); ++i) {
    parse_phase(list[i], index_path(path, i), out.size() + 1, suffix, out, depth);
  }
}

void ScenarioParser::parse_phase(const YAML::Node& node, const std::string& path, std::size_t number,
                                 const std::string& suffix, std::vector<PhaseSpec>& out, int depth) {
  PhaseSpec phase;
  phase.line = node.Mark().line + 1;
  phase.name = "phase" + std::to_string(number);
  if (node.IsScalar()) {
    const std::string text = node.Scalar();
    if (std::find(kBarePhases.begin(), kBarePhases.end(), text) == kBarePhases.end())
      src_.fail(node, path,
                "unknown phase '" + text + "'" + did_you_mean(text, kBarePhases) +
                    "; a phase is secure_erase, mark or a map with one of job, fill, seqpass, trim, "
                    "idle, repeat, secure_erase, mark, precondition, wear");
    phase.kind = text == "mark" ? PhaseKind::kMark : PhaseKind::kSecureErase;
    phase.name = text + suffix;
    count_built(phase, node, path);
    out.push_back(phase);
    return;
  }
  check_map(src_, node, path, keys_of("phases[]"));
  std::string action;
  for (const std::string& key : phase_actions()) {
    if (!node[key]) continue;
    if (!action.empty())
      src_.fail(node[key], join_path(path, key), "a phase does one thing: it already has '" + action + "'");
    action = key;
  }
  if (action.empty())
    src_.fail(node, path,
              "a phase needs one of job, fill, seqpass, trim, idle, mark, repeat, secure_erase, precondition, wear");
  const bool named = static_cast<bool>(node["name"]);
  if (named) phase.name = get_string(src_, node["name"], join_path(path, "name"));
  if (phase.name.empty()) src_.fail(node["name"], join_path(path, "name"), "must not be empty");
  if (action == "repeat") {
    const YAML::Node repeat = node["repeat"];
    const std::string rpath = join_path(path, "repeat");
    check_map(src_, repeat, rpath, keys_of("phases[].repeat"));
    const auto count =
        uint_key(require(src_, repeat, rpath, "count"), "phases[].repeat.count", join_path(rpath, "count"));
    check_repeat_depth(repeat, rpath, depth);
    for (std::uint64_t k = 1; k <= count; ++k) {
      const std::string inner = suffix + "#" + std::to_string(k);
      parse_phase_list(require(src_, repeat, rpath, "phases"), join_path(rpath, "phases"), inner, out, depth + 1);
    }
    if (node["expect"]) src_.fail(node["expect"], join_path(path, "expect"), "put expect on the repeated phases");
    return;
  }
  if (action == "fio") {
    if (node["expect"] || node["note"] || named)
      src_.fail(node, path, "a fio phase takes its names from the job file: no name, note or expect");
    parse_fio_phase(node["fio"], join_path(path, "fio"), suffix, out);
    return;
  }
  if (node["note"]) phase.note = get_string(src_, node["note"], join_path(path, "note"));
  if (node["expect"]) phase.expect = parse_expect(node["expect"], join_path(path, "expect"));
  phase.name += suffix;
  parse_action(node[action], action, join_path(path, action), phase);
  count_built(phase, node, path);
  out.push_back(phase);
}

void ScenarioParser::parse_action(const YAML::Node& node, const std::string& action, const std::string& path,
                                  PhaseSpec& phase) {
  const auto key = [&](const char* name) { return join_path(path, name); };
  if (action == "secure_erase" || action == "mark") {
    if (!node.IsNull() && !get_bool(src_, node, path))
      src_.fail(node, path, "write '" + action + ": true' or leave it out");
    phase.kind = action == "mark" ? PhaseKind::kMark : PhaseKind::kSecureErase;
  } else if (action == "job") {
    phase.kind = PhaseKind::kJob;
    add_jobs(node, path, phase, true);
  } else if (action == "jobs") {
    phase.kind = PhaseKind::kJob;
    if (!node.IsSequence() || node.size() == 0) src_.fail(node, path, "expected a list of job maps");
    for (std::size_t i = 0; i < node.size(); ++i) add_jobs(node[i], index_path(path, i), phase, i == 0);
  } else if (action == "fill") {
    // Sequential write of part of the drive: `fill: 100%` or `fill: {size, bs, iodepth, offset}`.
    phase.kind = PhaseKind::kJob;
    phase.job.rw = RwMode::kWrite;
    phase.job.bs_bytes = default_size("phases[].fill.bs");
    phase.job.iodepth = static_cast<std::uint32_t>(default_count("phases[].fill.iodepth"));
    if (node.IsScalar()) {
      phase.job.size = amount(node, key("size"));
    } else {
      check_map(src_, node, path, keys_of("phases[].fill"));
      if (node["size"]) phase.job.size = amount(node["size"], key("size"));
      if (node["offset"]) phase.job.offset = amount(node["offset"], key("offset"));
      if (node["bs"]) phase.job.bs_bytes = job_size(node["bs"], key("bs"));
      if (node["iodepth"])
        phase.job.iodepth =
            static_cast<std::uint32_t>(uint_key(node["iodepth"], "phases[].fill.iodepth", key("iodepth")));
    }
  } else if (action == "seqpass") {
    // One pass over the whole LBA range, like h2benchw: one request at a time by default.
    phase.kind = PhaseKind::kJob;
    phase.job.bs_bytes = default_size("phases[].seqpass.bs");
    phase.job.iodepth = static_cast<std::uint32_t>(default_count("phases[].seqpass.iodepth"));
    const YAML::Node rw = node.IsScalar() ? node : require(src_, node, path, "rw");
    if (!node.IsScalar()) {
      check_map(src_, node, path, keys_of("phases[].seqpass"));
      if (node["bs"]) phase.job.bs_bytes = job_size(node["bs"], key("bs"));
      if (node["iodepth"])
        phase.job.iodepth =
            static_cast<std::uint32_t>(uint_key(node["iodepth"], "phases[].seqpass.iodepth", key("iodepth")));
    }
    phase.job.rw = rw_mode(rw, node.IsScalar() ? path : key("rw"));
    if (phase.job.rw != RwMode::kRead && phase.job.rw != RwMode::kWrite)
      src_.fail(rw, path, "a sequential pass reads or writes: read or write");
  } else if (action == "trim") {
    phase.kind = PhaseKind::kTrim;
    if (node.IsScalar()) {
      const std::string mode = lowercase(node.Scalar());
      if (mode == "all") {
        phase.trim.mode = TrimMode::kAll;
      } else if (mode == "unused") {
        phase.trim.mode = TrimMode::kUnused;
      } else {
        src_.fail(node, path,
                  "expected all, unused or a map {offset, size}, got '" + node.Scalar() + "'" +
                      did_you_mean(mode, {"all", "unused"}));
      }
    } else {
      check_map(src_, node, path, keys_of("phases[].trim"));
      phase.trim.mode = TrimMode::kRange;
      if (node["offset"]) phase.trim.offset = amount(node["offset"], key("offset"));
      if (node["size"]) phase.trim.size = amount(node["size"], key("size"));
    }
  } else if (action == "precondition") {
    // {fill: 100%, random: 200%, random_map: false, seed: N}: the FTL state of a fill and (when
    // `random` is given) a random overwrite of one mapping unit per write, reached without
    // simulating time.
    phase.kind = PhaseKind::kPrecondition;
    if (!node.IsNull()) {
      check_map(src_, node, path, keys_of("phases[].precondition"));
      const auto percent = [&](const char* name, double& out) {
        const YAML::Node n = node[name];
        if (!n) return;
        const std::string text = n.IsScalar() ? n.Scalar() : "";
        double value = 0;
        if (text.empty() || text.back() != '%' || !parse_plain_double(text.substr(0, text.size() - 1), value) ||
            value < 0 || value > 10000)
          src_.fail(n, key(name), "expected a percentage of the drive like 200%, got '" + text + "'");
        out = value;
      };
      percent("fill", phase.precondition.fill_percent);
      percent("random", phase.precondition.random_percent);
      if (phase.precondition.fill_percent > 100) src_.fail(node["fill"], key("fill"), "must be at most 100%");
      if (const YAML::Node map = node["random_map"])
        phase.precondition.random_map = get_bool(src_, map, key("random_map"));
      if (node["seed"]) {
        phase.precondition.seed = uint_key(node["seed"], "phases[].precondition.seed", key("seed"));
        phase.precondition.seed_set = true;
      }
      if (const YAML::Node m = node["method"]) {
        const std::string text = m.IsScalar() ? m.Scalar() : "";
        using M = PreconditionPhase::Method;
        if (text == "auto") {
          phase.precondition.method = M::kAuto;
        } else if (text == "simulate") {
          phase.precondition.method = M::kSimulate;
        } else if (text == "replicate") {
          phase.precondition.method = M::kReplicate;
        } else {
          src_.fail(m, key("method"), "expected auto, simulate or replicate, got '" + text + "'");
        }
      }
      if (node["group_dies"]) {
        phase.precondition.group_dies = static_cast<std::uint32_t>(
            uint_key(node["group_dies"], "phases[].precondition.group_dies", key("group_dies")));
      }
    }
  } else if (action == "replay") {
    phase.kind = PhaseKind::kReplay;
    phase.replay = parse_replay_phase(src_, node, path, src_.name());  // base/config/replay_phase_yaml.cpp
  } else if (action == "wear") {
    phase.kind = PhaseKind::kWear;
    check_map(src_, node, path, keys_of("phases[].wear"));
    if (node["pe_cycles"])
      phase.wear.pe_cycles =
          static_cast<std::uint32_t>(uint_key(node["pe_cycles"], "phases[].wear.pe_cycles", key("pe_cycles")));
    if (node["retention"]) {
      const std::string text = get_scalar(src_, node["retention"], key("retention"), "an age such as 30d or 1y");
      try {
        phase.wear.retention_s = parse_age_seconds(is_plain_number(text) ? text + "s" : text);
      } catch (const std::invalid_argument& e) {
        src_.fail(node["retention"], key("retention"), e.what());
      }
    }
    if (phase.wear.pe_cycles == 0 && phase.wear.retention_s == 0)
      src_.fail(node, path, "give pe_cycles and/or retention (a wear phase that changes nothing)");
  } else if (action == "idle") {
    phase.kind = PhaseKind::kIdle;
    phase.idle_ps = runtime(node, path);
    if (phase.idle_ps == 0) src_.fail(node, path, "must be > 0");
  }
  if (phase.kind == PhaseKind::kJob && (phase.job.bs_bytes == 0 || phase.job.bs_bytes % kSectorBytes != 0))
    src_.fail(node, path, "bs must be a non-zero multiple of 512 bytes");
}

std::vector<Expectation> ScenarioParser::parse_expect(const YAML::Node& node, const std::string& path) {
  if (!node.IsMap()) src_.fail(node, path, "expected a map like {write_mbps: 25.6}");
  check_map(src_, node, path, keys_of("phases[].expect"));
  std::vector<Expectation> out;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string metric = it->first.Scalar();
    const std::string mpath = join_path(path, metric);
    double value = 0;
    if (!it->second.IsScalar() || !parse_plain_double(it->second.Scalar(), value) || value < 0)
      src_.fail(it->second, mpath, "expected a number >= 0, got '" + it->second.Scalar() + "'");
    out.push_back(Expectation{metric, value});
  }
  return out;
}

}  // namespace scenario_detail

using scenario_detail::ScenarioParser;

namespace {

// fio's INI layout: the first line that is not blank or a comment is a [section] header, and a
// later one is a key=value or a bare key.
bool looks_like_fio_job(const std::string& text) {
  std::size_t start = 0;
  bool header = false;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    line.erase(0, line.find_first_not_of(" \t\r"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    const bool section =
        line.size() > 2 && line.front() == '[' && line.back() == ']' && line.find_first_of(",:{}") == std::string::npos;
    if (!header) {
      if (!section) return false;
      header = true;
    } else if (!section) {
      // key=value (a value may hold ':', rw=randread:8) or a bare key; not YAML's key: value
      const std::size_t eq = line.find('='), colon = line.find(':');
      return colon == std::string::npos || (eq != std::string::npos && eq < colon);
    }
  }
  return false;
}

}  // namespace

ScenarioSpec parse_scenario(const std::string& yaml_text, const std::string& source_name) {
  const YamlSource src(source_name);
  try {
    const YAML::Node root = load_yaml(yaml_text, source_name, "a scenario file");
    return ScenarioParser(src).parse(root);
  } catch (const YAML::Exception& e) {  // safety net: should not happen
    throw ConfigError(source_name + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  } catch (const ConfigError& e) {
    if (!looks_like_fio_job(yaml_text)) throw;
    throw ConfigError(source_name + ": looks like a fio job file: run it with 'ssdlab run --fio " + source_name +
                      " --drive CONFIG' (as a scenario: " + e.what() + ")");
  }
}

ScenarioSpec load_scenario(const std::string& path) { return parse_scenario(read_text_file(path), path); }

}  // namespace ssdlab
