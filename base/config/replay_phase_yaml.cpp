#include "base/config/replay_phase_yaml.h"

#include <filesystem>
#include <iterator>
#include <limits>

#include "base/config/trace_format_names.h"

namespace ssdlab {

using namespace config_detail;

void add_replay_params(ParamTable& t) {
  using K = ParamKind;
  t.push_back(make_param("phases[].replay", K::kSection, "",
                         "action: replay a block trace (or replay: PATH; docs/trace-replay.md)"));
  const std::string r = "phases[].replay.";
  t.push_back(make_param(r + "trace", K::kString, "", "trace file, relative to the scenario (.gz, .zst read directly)")
                  .required()
                  .not_empty());
  t.push_back(make_param(r + "format", K::kChoice, "", "trace format")
                  .pick({std::begin(kTraceFormatNames), std::end(kTraceFormatNames)})
                  .derived("guessed from the first lines"));
  t.push_back(
      make_param(r + "events", K::kChoice, "", "blkparse: queued (Q) or issued (D) events").pick({"Q", "D"}).def("Q"));
  t.push_back(make_param(r + "timing", K::kChoice, "",
                         "closed: at iodepth, timestamps ignored; trace: each request at its time (open loop)")
                  .pick({"closed", "trace"})
                  .def("closed"));
  t.push_back(make_param(r + "iodepth", K::kCount, "count", "requests kept in flight").def("32").range(1, 65536));
  t.push_back(make_param(r + "speed", K::kNumber, "ratio", "timing: trace: 2.0 replays twice as fast")
                  .def("1.0")
                  .real_range(0.0, 1e6, false));
  t.push_back(make_param(r + "lba", K::kChoice, "",
                         "offsets past the drive: wrapped, an error naming the line, or "
                         "all offsets scaled to the drive")
                  .pick({"wrap", "reject", "scale"})
                  .def("wrap"));
  t.push_back(make_param(r + "volume", K::kList, "",
                         "devices replayed: MSR disk, SPC ASU, DiskSim device, fio file index, blkparse MAJ,MIN "
                         "(a value or a list)")
                  .derived("all"));
  t.push_back(make_param(r + "skip_bad", K::kFlag, "", "malformed lines counted and skipped").def("false"));
  t.push_back(make_param(r + "split", K::kFlag, "", "requests above max transfer split (false: an error)").def("true"));
}

namespace {

std::string choice(const YamlSource& src, const YAML::Node& node, const std::string& path,
                   const std::vector<std::string>& allowed) {
  const std::string v = get_string(src, node, path);
  for (const std::string& a : allowed)
    if (v == a) return v;
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
  src.fail(node, path, "expected one of " + list + ", got '" + v + "'" + did_you_mean(v, allowed));
}

// The formats a scenario may name: every reader's name, then the aliases.
std::vector<std::string> trace_format_choices() {
  std::vector<std::string> out(std::begin(kTraceFormatNames), std::end(kTraceFormatNames));
  for (const TraceFormatAlias& a : kTraceFormatAliases) out.emplace_back(a.alias);
  return out;
}

}  // namespace

ReplaySpec parse_replay_phase(const config_detail::YamlSource& src, const YAML::Node& node, const std::string& path,
                              const std::string& scenario_path) {
  ReplaySpec s;
  const auto key = [&](const char* name) { return join_path(path, name); };
  const auto resolve = [&](const std::string& trace) {
    const std::filesystem::path p(trace);
    return p.is_absolute() ? trace
                           : (std::filesystem::path(scenario_path).parent_path() / p).lexically_normal().string();
  };
  if (node.IsScalar()) {
    s.trace = resolve(get_string(src, node, path));
    return s;
  }
  check_map(src, node, path, param_children(scenario_params(), "phases[].replay"));
  s.trace = resolve(get_string(src, require(src, node, path, "trace"), key("trace")));
  if (node["format"]) s.format = choice(src, node["format"], key("format"), trace_format_choices());
  if (node["events"]) s.events = choice(src, node["events"], key("events"), {"Q", "D"});
  if (node["timing"]) s.timing = choice(src, node["timing"], key("timing"), {"closed", "trace"});
  if (node["lba"]) s.lba = choice(src, node["lba"], key("lba"), {"wrap", "reject", "scale"});
  if (node["iodepth"]) s.iodepth = static_cast<std::uint32_t>(get_uint(src, node["iodepth"], key("iodepth"), 1, 65536));
  if (node["speed"]) {
    s.speed = get_double(src, node["speed"], key("speed"));
    if (!(s.speed > 0) || s.speed > 1e6) src.fail(node["speed"], key("speed"), "must be > 0 (and at most 1e6)");
  }
  if (node["skip_bad"]) s.skip_bad = get_bool(src, node["skip_bad"], key("skip_bad"));
  if (node["split"]) s.split = get_bool(src, node["split"], key("split"));
  if (const YAML::Node v = node["volume"]) {
    if (v.IsSequence()) {
      for (std::size_t i = 0; i < v.size(); ++i)
        s.volumes.push_back(get_string(src, v[i], index_path(key("volume"), i)));
    } else {
      s.volumes.push_back(get_string(src, v, key("volume")));
    }
  }
  return s;
}

}  // namespace ssdlab
