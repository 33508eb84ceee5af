// The scenario parser, private to model/config: scenario_loader.cpp reads the scenario and its
// phases, scenario_jobs.cpp a phase's jobs (job keys, fio keys, pacing, fio: phases).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/config/config_loader.h"
#include "base/config/config_yaml.h"
#include "base/config/params_yaml.h"
#include "base/config/scenario.h"

namespace ssdlab::scenario_detail {
using namespace config_detail;

// The keys allowed under `path` of a scenario ("" = top level, "phases[]" = a phase).
std::vector<std::string> keys_of(const std::string& path);
// The table entry of a scenario key (the paths named by the parser are all in the table).
const Param& entry(const std::string& path);
// Sizes as fio writes them (a bare k/m/g/t is 1024-based) besides the project's units.
std::uint64_t parse_job_size(const std::string& text);
bool is_plain_number(const std::string& text);
// A drive path relative to the scenario file's folder.
std::string resolve_drive_path(const std::string& drive, const std::string& scenario_path);

class ScenarioParser {
 public:
  explicit ScenarioParser(const YamlSource& src) : src_(src) {}
  ScenarioSpec parse(const YAML::Node& root);

 private:
  void parse_overrides(const YAML::Node& node, std::vector<std::string>& out);
  void check_override(const YAML::Node& node, const std::string& path, const std::string& text);
  std::uint64_t count_phases(const YAML::Node& list, const std::string& path, int depth);
  std::uint64_t repeat_count(const YAML::Node& repeat, const std::string& rpath, int depth);
  void check_repeat_depth(const YAML::Node& repeat, const std::string& rpath, int depth);
  void parse_phase_list(const YAML::Node& list, const std::string& path, const std::string& suffix,
                        std::vector<PhaseSpec>& out, int depth);
  void parse_phase(const YAML::Node& node, const std::string& path, std::size_t number, const std::string& suffix,
                   std::vector<PhaseSpec>& out, int depth);
  void parse_action(const YAML::Node& node, const std::string& action, const std::string& path, PhaseSpec& phase);
  std::vector<Expectation> parse_expect(const YAML::Node& node, const std::string& path);
  JobSpec parse_job(const YAML::Node& node, const std::string& path);
  void parse_fio_keys(const YAML::Node& node, const std::string& path, JobSpec& job);
  void parse_pacing(const YAML::Node& node, const std::string& path, JobSpec& job);
  void add_jobs(const YAML::Node& node, const std::string& path, PhaseSpec& phase, bool first);
  void parse_fio_phase(const YAML::Node& node, const std::string& path, const std::string& suffix,
                       std::vector<PhaseSpec>& out);
  std::vector<std::string>* notes_ = nullptr;                // the scenario's notes (fio: phases add theirs)
  std::uint64_t in_flight_ = 0;                              // iodepth summed over the jobs of the phase being read
  std::map<std::string, std::vector<PhaseSpec>> fio_files_;  // fio: phases by job file, each read once
  std::uint64_t phases_built_ = 0, jobs_built_ = 0;
  // Counts a phase as it is built: at most kMaxPhases phases (a fio: phase may hold several)
  // and kMaxScenarioJobs jobs over all of them, else an error at `node`.
  void count_built(const PhaseSpec& phase, const YAML::Node& node, const std::string& path);
  std::uint64_t job_size(const YAML::Node& node, const std::string& path);
  Amount amount(const YAML::Node& node, const std::string& path);
  RwMode rw_mode(const YAML::Node& node, const std::string& path);
  Picos runtime(const YAML::Node& node, const std::string& path);
  // An integer-like key (count, duration) read and range checked as its table entry says.
  std::uint64_t uint_key(const YAML::Node& node, const std::string& table_path, const std::string& path) {
    return read_param_uint(src_, node, path, entry(table_path));
  }
  std::uint64_t default_count(const std::string& table_path) {
    return uint_key(YAML::Node(entry(table_path).default_text), table_path, table_path);
  }
  std::uint64_t default_size(const std::string& table_path) {
    return job_size(YAML::Node(entry(table_path).default_text), table_path);
  }

  const YamlSource& src_;
};

}  // namespace ssdlab::scenario_detail
