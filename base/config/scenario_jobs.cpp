// A scenario phase's jobs: job keys, fio's keys in YAML, pacing, `jobs:` lists and `fio:` phases
// (ScenarioParser's part kept apart from the scenario and phase structure).
#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>

#include "base/config/fio_job.h"
#include "base/config/scenario_parser.h"
#include "base/core/units.h"

namespace ssdlab::scenario_detail {

JobSpec ScenarioParser::parse_job(const YAML::Node& node, const std::string& path) {
  check_map(src_, node, path, keys_of("phases[].job"));
  const auto key = [&](const char* name) { return join_path(path, name); };
  JobSpec job;
  job.rw = rw_mode(require(src_, node, path, "rw"), key("rw"));
  const YAML::Node bs = require(src_, node, path, "bs");
  job.bs_bytes = job_size(bs, key("bs"));
  if (job.bs_bytes == 0 || job.bs_bytes % kSectorBytes != 0)
    src_.fail(bs, key("bs"), "must be a non-zero multiple of 512 bytes, got " + bs.Scalar());
  if (node["iodepth"])
    job.iodepth = static_cast<std::uint32_t>(uint_key(node["iodepth"], "phases[].job.iodepth", key("iodepth")));
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
    job.time_based = tb.IsNull() || (numeric ? tb.Scalar() == "1" : get_bool(src_, tb, key("time_based")));
  }
  if (node["rwmixread"])
    job.rwmixread = static_cast<std::uint32_t>(uint_key(node["rwmixread"], "phases[].job.rwmixread", key("rwmixread")));
  if (node["randseed"]) {
    job.randseed = uint_key(node["randseed"], "phases[].job.randseed", key("randseed"));
    job.randseed_set = true;
  }
  if (const YAML::Node map = node["norandommap"]) {
    job.norandommap = map.IsNull() || get_bool(src_, map, key("norandommap"));
  }
  if (const YAML::Node group = node["group_reporting"]) {
    job.group_reporting = group.IsNull() || get_bool(src_, group, key("group_reporting"));
  }
  parse_fio_keys(node, path, job);
  parse_pacing(node, path, job);
  if (node["name"]) {
    job.name = get_string(src_, node["name"], key("name"));
    if (job.name.empty()) src_.fail(node["name"], key("name"), "must not be empty");
  }
  if (node["offset_increment"]) job.offset_increment = amount(node["offset_increment"], key("offset_increment"));
  return job;
}

// A job map (`job:` or an entry of `jobs:`) and its numjobs clones into the phase: the first
// job of the phase is PhaseSpec::job, the others run beside it (more_jobs).
void ScenarioParser::add_jobs(const YAML::Node& node, const std::string& path, PhaseSpec& phase, bool first) {
  JobSpec job = parse_job(node, path);
  const std::uint64_t clones =
      node["numjobs"] ? uint_key(node["numjobs"], "phases[].job.numjobs", join_path(path, "numjobs")) : 1;
  // At most kMaxJobsPerPhase jobs and kMaxRequestsInFlight requests in flight in the phase:
  // the error is at the entry (its numjobs, its iodepth) that passes the limit.
  const std::uint64_t jobs = (first ? 0 : 1 + phase.more_jobs.size()) + clones;
  if (first) in_flight_ = 0;
  in_flight_ += clones * job.iodepth;
  const auto where = [&](const char* key) {
    return node.IsMap() && node[key] ? std::make_pair(node[key], join_path(path, key)) : std::make_pair(node, path);
  };
  if (jobs > kMaxJobsPerPhase) {
    const auto [at, at_path] = where("numjobs");
    src_.fail(at, at_path,
              std::to_string(jobs) + " jobs in the phase; a phase runs at most " + std::to_string(kMaxJobsPerPhase) +
                  " jobs at once (fio's own limit)");
  }
  if (in_flight_ > kMaxRequestsInFlight) {
    const auto [at, at_path] = where("iodepth");
    src_.fail(at, at_path,
              std::to_string(in_flight_) + " requests in flight over " + std::to_string(jobs) +
                  " jobs (iodepth x numjobs); a phase keeps at most " + std::to_string(kMaxRequestsInFlight));
  }
  for (std::uint64_t c = 0; c < clones; ++c) {
    job.clone_index = static_cast<std::uint32_t>(c);
    if (first && c == 0)
      phase.job = job;
    else
      phase.more_jobs.push_back(job);
  }
}

// startdelay, ramp_time, thinktime, rate in fio's syntax; the counts as other counts.
void ScenarioParser::parse_pacing(const YAML::Node& node, const std::string& path, JobSpec& job) {
  const auto key = [&](const char* name) { return join_path(path, name); };
  const auto time = [&](const char* name, Picos unit, Picos& out) {
    const YAML::Node n = node[name];
    if (!n) return;
    try {
      out = fio_parse_time(get_scalar(src_, n, key(name), "a duration"), unit);
    } catch (const std::invalid_argument& e) {
      src_.fail(n, key(name), e.what());
    }
  };
  time("startdelay", kPicosPerSec, job.startdelay_ps);
  time("ramp_time", kPicosPerSec, job.ramp_ps);
  time("thinktime", kPicosPerUs, job.thinktime_ps);
  if (const YAML::Node n = node["steadystate"]) {
    try {
      const SteadyStateSpec parsed = fio_parse_steadystate(get_scalar(src_, n, key("steadystate"), "a criterion"));
      job.steadystate.kind = parsed.kind;
      job.steadystate.limit = parsed.limit;
      job.steadystate.percent = parsed.percent;
    } catch (const std::invalid_argument& e) {
      src_.fail(n, key("steadystate"), e.what());
    }
  }
  time("steadystate_duration", kPicosPerSec, job.steadystate.duration_ps);
  time("steadystate_ramp_time", kPicosPerSec, job.steadystate.ramp_ps);
  if (job.steadystate.duration_ps % kPicosPerSec != 0)
    src_.fail(node["steadystate_duration"], key("steadystate_duration"),
              "must be a whole number of seconds (fio measures once per second)");
  if (node["thinktime_blocks"])
    job.thinktime_blocks = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        0xffffffffULL, uint_key(node["thinktime_blocks"], "phases[].job.thinktime_blocks", key("thinktime_blocks"))));
  if (const YAML::Node n = node["rate"]) {
    try {
      job.rate_bytes = fio_parse_size(get_scalar(src_, n, key("rate"), "a size"), 1024);
    } catch (const std::invalid_argument& e) {
      src_.fail(n, key("rate"), e.what());
    }
  }
  if (node["rate_iops"]) job.rate_iops = uint_key(node["rate_iops"], "phases[].job.rate_iops", key("rate_iops"));
  if (node["fsync"])
    job.flush_every = static_cast<std::uint32_t>(uint_key(node["fsync"], "phases[].job.fsync", key("fsync")));
}

// `fio: job.fio`: the file's phases (fio_phases), its notes into the scenario's notes.
void ScenarioParser::parse_fio_phase(const YAML::Node& node, const std::string& path, const std::string& suffix,
                                     std::vector<PhaseSpec>& out) {
  const std::string file = get_string(src_, node, path);
  if (file.empty()) src_.fail(node, path, "must name a fio job file");
  const std::string resolved = resolve_drive_path(file, src_.name());
  // Read once per file, however often a repeat expands the phase (a file is up to 1 MiB).
  auto cached = fio_files_.find(resolved);
  if (cached == fio_files_.end()) {
    FioJobFile jobs;
    std::vector<PhaseSpec> phases;
    try {
      jobs = load_fio_job_file(resolved);
      phases = fio_phases(jobs);
    } catch (const ConfigError& e) {
      src_.fail(node, path, e.what());
    }
    if (notes_) notes_->insert(notes_->end(), jobs.notes.begin(), jobs.notes.end());
    cached = fio_files_.emplace(resolved, std::move(phases)).first;
  }
  for (PhaseSpec p : cached->second) {
    p.name += suffix;
    p.line = node.Mark().line + 1;
    count_built(p, node, path);
    out.push_back(std::move(p));
  }
}

// Keys in fio's own value syntax (the same parsers as fio job files, kb_base=1024).
void ScenarioParser::parse_fio_keys(const YAML::Node& node, const std::string& path, JobSpec& job) {
  const auto key = [&](const char* name) { return join_path(path, name); };
  const auto fio_value = [&](const char* name, auto parse) {
    const YAML::Node n = node[name];
    const std::string text = get_scalar(src_, n, key(name), "a value in fio's syntax");
    try {
      parse(text);
    } catch (const std::invalid_argument& e) {
      src_.fail(n, key(name), e.what());
    }
  };
  if (node["random_distribution"])
    fio_value("random_distribution", [&](const std::string& t) { job.distribution = fio_parse_distribution(t, 1024); });
  if (node["percentage_random"])
    job.percentage_random = static_cast<std::uint32_t>(
        uint_key(node["percentage_random"], "phases[].job.percentage_random", key("percentage_random")));
  if (node["number_ios"]) job.number_ios = uint_key(node["number_ios"], "phases[].job.number_ios", key("number_ios"));
  if (node["bsrange"])
    fio_value("bsrange", [&](const std::string& t) {
      const auto [lo, hi] = fio_parse_size_range(t, 1024);
      if (lo == 0 || lo % kSectorBytes || hi % kSectorBytes)
        throw std::invalid_argument("sizes must be non-zero multiples of 512 bytes, got '" + t + "'");
      job.bs_bytes = lo;
      job.bs_max_bytes = hi == lo ? 0 : hi;
    });
  if (node["bssplit"])
    fio_value("bssplit", [&](const std::string& t) {
      job.bssplit = fio_parse_bssplit(t, 1024);
      job.bs_bytes = job.bssplit.front().bs;
      for (const BsWeight& w : job.bssplit) {
        if (w.bs == 0 || w.bs % kSectorBytes)
          throw std::invalid_argument("sizes must be non-zero multiples of 512 bytes");
        job.bs_bytes = std::min(job.bs_bytes, w.bs);
      }
    });
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
    const bool ok = field == "offset" ? percent < 100 : field == "size" ? percent > 0 && percent <= 100 : percent > 0;
    if (!ok) {
      const char* range = field == "offset" ? "0% <= N < 100%" : field == "size" ? "0% < N <= 100%" : "N > 0%";
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
      {"read", RwMode::kRead},           {"write", RwMode::kWrite},   {"randread", RwMode::kRandRead},
      {"randwrite", RwMode::kRandWrite}, {"randrw", RwMode::kRandRw}, {"readwrite", RwMode::kReadWrite},
      {"rw", RwMode::kReadWrite},        {"trim", RwMode::kTrim},     {"randtrim", RwMode::kRandTrim},
      {"trimwrite", RwMode::kTrimWrite}};
  const std::string name = read_param_choice(src_, node, path, entry("phases[].job.rw"));
  for (const auto& [spelling, mode] : kModes)
    if (spelling == name) return mode;
  throw std::logic_error("rw mode missing from the loader: " + name);
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

}  // namespace ssdlab::scenario_detail
