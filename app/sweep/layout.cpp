#include "app/sweep/layout.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ssdlab::sweep {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "ssdlab-sweep-plan/1";
constexpr std::uintmax_t kMaxRecordBytes = 256u << 20;  // 100,000 points of a few hundred bytes each

json point_json(const Point& p) {
  json derived = json::object();
  for (const auto& [key, value] : p.derived) derived[key] = value;
  return {{"index", p.index},         {"id", p.id},      {"seed", p.seed}, {"labels", p.labels}, {"derived", derived},
          {"overrides", p.overrides}, {"group", p.group}};
}

Point point_from(const json& j) {
  Point p;
  p.index = j.at("index").get<std::size_t>();
  p.id = j.at("id").get<std::string>();
  p.seed = j.at("seed").get<std::uint64_t>();
  p.labels = j.at("labels").get<std::vector<std::string>>();
  for (const auto& [key, value] : j.at("derived").items()) p.derived.emplace_back(key, value.get<std::string>());
  p.overrides = j.at("overrides").get<std::vector<std::string>>();
  p.group = j.at("group").get<std::int64_t>();
  return p;
}

// A task's temporary folder name: ".<id>.tmp-<host>-<pid>".
bool parse_temp_name(const std::string& name, const std::string& id, std::string& host, long& pid) {
  const std::string prefix = "." + id + ".tmp-";
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string rest = name.substr(prefix.size());
  const std::size_t dash = rest.rfind('-');
  if (dash == std::string::npos || dash + 1 == rest.size()) return false;
  const std::string digits = rest.substr(dash + 1);
  if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  host = rest.substr(0, dash);
  pid = std::stol(digits);
  return true;
}

bool alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH); }

}  // namespace

const char* to_string(TaskState s) {
  switch (s) {
    case TaskState::kPending:
      return "pending";
    case TaskState::kRunning:
      return "running";
    case TaskState::kDone:
      return "done";
    case TaskState::kFailed:
      return "failed";
  }
  return "?";
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "localhost";
  std::string name(buf);
  for (char& c : name)
    if (c == '/' || c == '.') c = '_';
  return name;
}

SweepRecord record_of(const Expansion& ex) {
  SweepRecord r;
  r.plan_path = fs::absolute(ex.plan.path).lexically_normal().string();
  r.name = ex.plan.name;
  r.scenario_path = ex.inputs.scenario_path;
  r.drive_path = fs::absolute(ex.inputs.drive_path).lexically_normal().string();
  r.age_path = ex.inputs.age_path;
  r.scenario_overrides = ex.inputs.scenario_overrides;
  r.age_fixed_seed = ex.inputs.age_fixed_seed;
  r.age_seed = ex.inputs.age_seed;
  for (const Axis& a : ex.plan.axes) {
    r.axes.push_back(a.name);
    r.axis_keys.push_back(a.key);
  }
  for (const Derivation& d : ex.plan.derive) r.derived_keys.push_back(d.key);
  r.points = ex.points;
  r.groups = ex.groups;
  return r;
}

std::string record_json(const SweepRecord& r) {
  json points = json::array(), groups = json::array();
  for (const Point& p : r.points) points.push_back(point_json(p));
  for (const AgeGroup& g : r.groups)
    groups.push_back({{"id", g.id}, {"seed", g.seed}, {"overrides", g.overrides}, {"points", g.points}});
  const json j = {{"format", kFormat},
                  {"plan", r.plan_path},
                  {"name", r.name},
                  {"scenario", r.scenario_path},
                  {"drive", r.drive_path},
                  {"scenario_overrides", r.scenario_overrides},
                  {"age", r.age_path.empty() ? json(nullptr) : json(r.age_path)},
                  {"age_fixed_seed", r.age_fixed_seed},
                  {"age_seed", r.age_seed},
                  {"axes", r.axes},
                  {"axis_keys", r.axis_keys},
                  {"derived_keys", r.derived_keys},
                  {"groups", groups},
                  {"points", points}};
  return j.dump(1) + "\n";
}

SweepRecord read_record(const fs::path& out) {
  const fs::path path = out / "plan.json";
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec)
    throw std::runtime_error(path.string() + ": cannot read (" + ec.message() + "): not a sweep's output folder?");
  if (size > kMaxRecordBytes)
    throw std::runtime_error(path.string() + ": " + std::to_string(size) + " bytes, too large");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  SweepRecord r;
  try {
    const json j = json::parse(text.str());
    if (j.at("format") != kFormat) throw std::runtime_error("format is not " + std::string(kFormat));
    r.plan_path = j.at("plan").get<std::string>();
    r.name = j.at("name").get<std::string>();
    r.scenario_path = j.at("scenario").get<std::string>();
    r.drive_path = j.at("drive").get<std::string>();
    r.scenario_overrides = j.at("scenario_overrides").get<std::vector<std::string>>();
    r.age_path = j.at("age").is_null() ? "" : j.at("age").get<std::string>();
    r.age_fixed_seed = j.at("age_fixed_seed").get<bool>();
    r.age_seed = j.at("age_seed").get<std::uint64_t>();
    r.axes = j.at("axes").get<std::vector<std::string>>();
    r.axis_keys = j.at("axis_keys").get<std::vector<std::string>>();
    r.derived_keys = j.at("derived_keys").get<std::vector<std::string>>();
    for (const json& g : j.at("groups")) {
      r.groups.push_back({g.at("id").get<std::string>(), g.at("seed").get<std::uint64_t>(),
                          g.at("overrides").get<std::vector<std::string>>(), g.at("points").get<std::size_t>()});
    }
    for (const json& p : j.at("points")) r.points.push_back(point_from(p));
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": not a sweep record: " + e.what());
  }
  for (const Point& p : r.points) {
    if (p.labels.size() != r.axes.size() || (p.group >= 0 && std::size_t(p.group) >= r.groups.size()) ||
        p.id.size() != 12 || p.id.find_first_not_of("0123456789abcdef") != std::string::npos)
      throw std::runtime_error(path.string() + ": point " + std::to_string(p.index) + " is malformed");
  }
  return r;
}

const std::string& task_id(const SweepRecord& r, const TaskRef& t) {
  return t.kind == TaskKind::kPoint ? r.points.at(t.index).id : r.groups.at(t.index).id;
}

std::string task_name(const TaskRef& t) {
  return (t.kind == TaskKind::kPoint ? "point " : "aging ") + std::to_string(t.index);
}

fs::path Layout::temp_dir(TaskKind kind, const std::string& id) const {
  return folder(kind) / ("." + id + ".tmp-" + host_name() + "-" + std::to_string(::getpid()));
}

bool Layout::done(TaskKind kind, const std::string& id) const {
  std::error_code ec;
  return fs::is_regular_file(done_dir(kind, id) / "summary.json", ec);
}

bool Layout::failed(TaskKind kind, const std::string& id) const {
  std::error_code ec;
  return fs::is_regular_file(failed_file(kind, id), ec);
}

bool Layout::running(TaskKind kind, const std::string& id) const {
  std::error_code ec;
  const std::string me = host_name();
  for (fs::directory_iterator it(folder(kind), ec), end; !ec && it != end; it.increment(ec)) {
    std::string host;
    long pid = 0;
    if (!parse_temp_name(it->path().filename().string(), id, host, pid)) continue;
    if (host != me || alive(pid)) return true;
  }
  return false;
}

TaskState Layout::state(TaskKind kind, const std::string& id) const {
  if (done(kind, id)) return TaskState::kDone;
  if (running(kind, id)) return TaskState::kRunning;
  if (failed(kind, id)) return TaskState::kFailed;
  return TaskState::kPending;
}

std::vector<std::string> Layout::remove_stale_temporaries() const {
  std::vector<std::string> removed;
  const std::string me = host_name();
  for (const TaskKind kind : {TaskKind::kPoint, TaskKind::kAging}) {
    std::error_code ec;
    std::vector<fs::path> stale;
    for (fs::directory_iterator it(folder(kind), ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const std::size_t dot = name.find(".tmp-", 1);
      if (name[0] != '.' || dot == std::string::npos) continue;
      std::string host;
      long pid = 0;
      if (parse_temp_name(name, name.substr(1, dot - 1), host, pid) && host == me && !alive(pid))
        stale.push_back(it->path());
    }
    for (const fs::path& p : stale) {
      fs::remove_all(p, ec);
      removed.push_back(p.string());
    }
  }
  return removed;
}

void write_file_atomic(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw std::runtime_error("cannot write " + tmp.string() + ": " + std::strerror(errno));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::error_code ec;
    fs::remove(tmp, ec);
    throw std::runtime_error("cannot rename " + tmp.string() + " to " + path.string() + ": " + why);
  }
}

}  // namespace ssdlab::sweep
