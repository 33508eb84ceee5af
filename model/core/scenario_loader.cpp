// Scenario files: YAML -> ScenarioSpec (the drive file itself is not loaded here).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>

#include "model/core/config_loader.h"
#include "model/core/config_yaml.h"
#include "model/core/units.h"

namespace ssdlab {
using namespace config_detail;

namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

const std::vector<std::string> kScenarioKeys = {"name", "description",     "drive", "overrides",
                                                "seed", "sample_interval", "phases"};
const std::vector<std::string> kPhaseKeys = {"name", "secure_erase", "job"};
const std::vector<std::string> kJobKeys = {"rw",         "bs",        "iodepth",    "size",
                                           "io_size",    "offset",    "blockalign", "runtime",
                                           "time_based", "rwmixread", "randseed"};

// Sizes as fio writes them: the project's units plus a bare k/m/g/t suffix (1024-based,
// any case), so "128k" = 128KiB. "4KB" keeps the project's meaning (4000 bytes).
std::uint64_t parse_job_size(const std::string& text) {
  static const char* const kBinary[] = {"KiB", "MiB", "GiB", "TiB"};
  static const std::string kLetters = "kmgt";
  if (text.size() >= 2 && std::isdigit(static_cast<unsigned char>(text[text.size() - 2]))) {
    const char last = static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())));
    const std::size_t which = kLetters.find(last);
    if (which != std::string::npos)
      return parse_size(text.substr(0, text.size() - 1) + kBinary[which]);
  }
  try {
    return parse_size(text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(e.what()) + "; fio's k, m, g, t (1024-based) too");
  }
}

bool is_plain_number(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(),
                                      [](unsigned char c) { return std::isdigit(c) || c == '.'; });
}

std::string resolve_drive_path(const std::string& drive, const std::string& scenario_path) {
  namespace fs = std::filesystem;
  const fs::path path(drive);
  if (path.is_absolute()) return path.lexically_normal().string();
  return (fs::path(scenario_path).parent_path() / path).lexically_normal().string();
}

class ScenarioParser {
 public:
  explicit ScenarioParser(const YamlSource& src) : src_(src) {}
  ScenarioSpec parse(const YAML::Node& root);

 private:
  void parse_overrides(const YAML::Node& node, std::vector<std::string>& out);
  void check_override(const YAML::Node& node, const std::string& path, const std::string& text);
  PhaseSpec parse_phase(const YAML::Node& node, std::size_t index);
  JobSpec parse_job(const YAML::Node& node, const std::string& path);
  std::uint64_t job_size(const YAML::Node& node, const std::string& path);
  Amount amount(const YAML::Node& node, const std::string& path);
  RwMode rw_mode(const YAML::Node& node, const std::string& path);
  Picos runtime(const YAML::Node& node, const std::string& path);

  const YamlSource& src_;
};

ScenarioSpec ScenarioParser::parse(const YAML::Node& root) {
  ScenarioSpec spec;
  spec.path = src_.name();
  check_map(src_, root, "", kScenarioKeys);
  spec.name = std::filesystem::path(src_.name()).stem().string();
  if (root["name"]) spec.name = get_string(src_, root["name"], "name");
  if (root["description"]) spec.description = get_string(src_, root["description"], "description");
  const YAML::Node drive = require(src_, root, "", "drive");
  const std::string drive_text = get_string(src_, drive, "drive");
  if (drive_text.empty()) src_.fail(drive, "drive", "must name a drive config file");
  spec.drive_path = resolve_drive_path(drive_text, src_.name());
  if (root["overrides"]) parse_overrides(root["overrides"], spec.overrides);
  if (root["seed"]) spec.seed = get_uint(src_, root["seed"], "seed", 0, kU64Max);
  if (const YAML::Node interval = root["sample_interval"]) {
    spec.sample_interval_ps = get_duration(src_, interval, "sample_interval");
    if (spec.sample_interval_ps == 0) src_.fail(interval, "sample_interval", "must be > 0");
  }
  const YAML::Node phases = require(src_, root, "", "phases");
  if (!phases.IsSequence()) src_.fail(phases, "phases", "expected a list of phases");
  if (phases.size() == 0) src_.fail(phases, "phases", "must list at least one phase");
  for (std::size_t i = 0; i < phases.size(); ++i) spec.phases.push_back(parse_phase(phases[i], i));
  return spec;
}

void ScenarioParser::check_override(const YAML::Node& node, const std::string& path,
                                    const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    src_.fail(node, path, "expected key.path=value, got '" + text + "'");
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
  if (!node.IsMap())
    src_.fail(node, "overrides", "expected a list of key.path=value strings or a map");
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

PhaseSpec ScenarioParser::parse_phase(const YAML::Node& node, std::size_t index) {
  const std::string path = index_path("phases", index);
  PhaseSpec phase;
  phase.line = node.Mark().line + 1;
  phase.name = "phase" + std::to_string(index + 1);
  if (node.IsScalar()) {
    const std::string text = node.Scalar();
    if (text != "secure_erase")
      src_.fail(node, path,
                "unknown phase '" + text + "'" + did_you_mean(text, {"secure_erase"}) +
                    "; a phase is secure_erase or a map with a job");
    phase.kind = PhaseKind::kSecureErase;
    phase.name = "secure_erase";
    return phase;
  }
  check_map(src_, node, path, kPhaseKeys);
  if (node["name"]) phase.name = get_string(src_, node["name"], join_path(path, "name"));
  if (phase.name.empty()) src_.fail(node["name"], join_path(path, "name"), "must not be empty");
  bool erase = false;
  if (const YAML::Node e = node["secure_erase"])
    erase = e.IsNull() || get_bool(src_, e, join_path(path, "secure_erase"));
  const YAML::Node job = node["job"];
  if (erase == static_cast<bool>(job))
    src_.fail(node, path, "give exactly one of 'secure_erase: true' or 'job'");
  if (erase) {
    phase.kind = PhaseKind::kSecureErase;
  } else {
    phase.kind = PhaseKind::kJob;
    phase.job = parse_job(job, join_path(path, "job"));
  }
  return phase;
}

JobSpec ScenarioParser::parse_job(const YAML::Node& node, const std::string& path) {
  check_map(src_, node, path, kJobKeys);
  const auto key = [&](const char* name) { return join_path(path, name); };
  JobSpec job;
  job.rw = rw_mode(require(src_, node, path, "rw"), key("rw"));
  const YAML::Node bs = require(src_, node, path, "bs");
  job.bs_bytes = job_size(bs, key("bs"));
  if (job.bs_bytes == 0 || job.bs_bytes % kSectorBytes != 0)
    src_.fail(bs, key("bs"), "must be a non-zero multiple of 512 bytes, got " + bs.Scalar());
  if (node["iodepth"])
    job.iodepth =
        static_cast<std::uint32_t>(get_uint(src_, node["iodepth"], key("iodepth"), 1, 65536));
  if (node["size"]) job.size = amount(node["size"], key("size"));
  if (node["io_size"]) {
    job.io_size = amount(node["io_size"], key("io_size"));
    job.io_size_set = true;
  }
  if (node["offset"]) job.offset = amount(node["offset"], key("offset"));
  if (const YAML::Node align = node["blockalign"]) {
    job.blockalign_bytes = job_size(align, key("blockalign"));
    if (job.blockalign_bytes % kSectorBytes != 0)
      src_.fail(align, key("blockalign"), "must be a multiple of 512 bytes, got " + align.Scalar());
  }
  if (node["runtime"]) job.runtime_ps = runtime(node["runtime"], key("runtime"));
  if (const YAML::Node tb = node["time_based"]) {
    const bool numeric = tb.IsScalar() && (tb.Scalar() == "0" || tb.Scalar() == "1");
    job.time_based =
        tb.IsNull() || (numeric ? tb.Scalar() == "1" : get_bool(src_, tb, key("time_based")));
  }
  if (node["rwmixread"])
    job.rwmixread =
        static_cast<std::uint32_t>(get_uint(src_, node["rwmixread"], key("rwmixread"), 0, 100));
  if (node["randseed"]) {
    job.randseed = get_uint(src_, node["randseed"], key("randseed"), 0, kU64Max);
    job.randseed_set = true;
  }
  return job;
}

std::uint64_t ScenarioParser::job_size(const YAML::Node& node, const std::string& path) {
  const std::string text = get_scalar(src_, node, path, "a size");
  try {
    return parse_job_size(text);
  } catch (const std::invalid_argument& e) {
    src_.fail(node, path, e.what());
  }
}

// size: bytes > 0 or 0 < N% <= 100; io_size: bytes > 0 or N% > 0; offset: bytes or 0 <= N% < 100.
Amount ScenarioParser::amount(const YAML::Node& node, const std::string& path) {
  const std::string text = get_scalar(src_, node, path, "a size or a percentage");
  const std::string field = path.substr(path.rfind('.') + 1);
  Amount result;
  if (!text.empty() && text.back() == '%') {
    std::string number = text.substr(0, text.size() - 1);
    number.erase(number.find_last_not_of(' ') + 1);
    double percent = 0;
    if (!parse_plain_double(number, percent) || percent < 0)
      src_.fail(node, path, "expected a percentage like 50%, got '" + text + "'");
    const bool ok = field == "offset" ? percent < 100
                    : field == "size" ? percent > 0 && percent <= 100
                                      : percent > 0;
    if (!ok) {
      const char* range = field == "offset" ? "0% <= N < 100%"
                          : field == "size" ? "0% < N <= 100%"
                                            : "N > 0%";
      src_.fail(node, path, std::string("percentage must be ") + range + ", got " + text);
    }
    result.is_percent = true;
    result.percent = percent;
    return result;
  }
  result.bytes = job_size(node, path);
  if (result.bytes == 0 && field != "offset") src_.fail(node, path, "must be > 0");
  return result;
}

RwMode ScenarioParser::rw_mode(const YAML::Node& node, const std::string& path) {
  static const std::vector<std::pair<std::string, RwMode>> kModes = {
      {"read", RwMode::kRead},         {"write", RwMode::kWrite},
      {"randread", RwMode::kRandRead}, {"randwrite", RwMode::kRandWrite},
      {"randrw", RwMode::kRandRw},     {"readwrite", RwMode::kReadWrite},
      {"rw", RwMode::kReadWrite}};
  const std::string text = lowercase(get_string(src_, node, path));
  std::vector<std::string> names;
  for (const auto& [name, mode] : kModes) {
    if (name == text) return mode;
    names.push_back(name);
  }
  src_.fail(node, path,
            "expected read, write, randread, randwrite, randrw or readwrite, got '" +
                node.Scalar() + "'" + did_you_mean(text, names));
}

// fio reads a bare number as seconds; units are accepted too.
Picos ScenarioParser::runtime(const YAML::Node& node, const std::string& path) {
  const std::string text = get_scalar(src_, node, path, "a duration");
  try {
    return parse_duration(is_plain_number(text) ? text + "s" : text);
  } catch (const std::invalid_argument& e) {
    src_.fail(node, path, e.what());
  }
}

}  // namespace

ScenarioSpec parse_scenario(const std::string& yaml_text, const std::string& source_name) {
  const YamlSource src(source_name);
  const YAML::Node root = load_yaml(yaml_text, source_name);
  try {
    return ScenarioParser(src).parse(root);
  } catch (const YAML::Exception& e) {  // safety net: should not happen
    throw ConfigError(source_name + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}

ScenarioSpec load_scenario(const std::string& path) {
  return parse_scenario(read_text_file(path), path);
}

}  // namespace ssdlab
