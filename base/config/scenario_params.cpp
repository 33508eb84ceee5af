// The scenario keys: the file's top level, a phase ("phases[]") and each phase action.
#include <limits>

#include "base/config/params.h"
#include "base/config/replay_phase_yaml.h"
#include "base/config/scenario.h"

namespace ssdlab {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
const std::vector<std::string> kRwModes = {"read",      "write", "randread", "randwrite", "randrw",
                                           "readwrite", "trim",  "randtrim", "trimwrite"};

void add_top(ParamTable& t) {
  using K = ParamKind;
  t.push_back(
      make_param("name", K::kString, "", "scenario name (results directory)").derived("the file name without .yaml"));
  t.push_back(make_param("description", K::kString, "", "free text describing the scenario").def(""));
  t.push_back(
      make_param("drive", K::kString, "", "drive config file, relative to the scenario file").required().not_empty());
  t.push_back(make_param("overrides", K::kList, "",
                         "drive config overrides: a list of key.path=value, or a map key.path: value")
                  .def(""));
  t.push_back(
      make_param("seed", K::kCount, "count", "random seed; jobs and preconditioning derive theirs from it").def("1"));
  t.push_back(make_param("sample_interval", K::kDuration, "duration", "time between rows of timeseries.csv")
                  .def("10ms")
                  .at_least(1));
  t.push_back(make_param("phases", K::kList, "", "the phases, run in order (at most 100000 after repeats)").required());
  t.push_back(make_param("percentile_list", K::kList, "percent",
                         "completion-latency percentiles in summary.json (fio's percentile_list: "
                         "a list or A:B:C, at most 20)")
                  .def("1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99")
                  .shows("0 < N <= 100"));
}

void add_phase(ParamTable& t) {
  using K = ParamKind;
  const std::string p = "phases[]";
  t.push_back(
      make_param(p + ".name", K::kString, "", "phase name in reports").derived("phaseN (N = position)").not_empty());
  t.push_back(make_param(p + ".note", K::kString, "", "free text shown with the phase").def(""));
  t.push_back(make_param(p + ".expect", K::kSection, "",
                         "figures from the source documents, printed beside the simulated ones"));
  const std::vector<std::pair<std::string, std::string>> metrics = {
      {"read_mbps", "MB/s"}, {"write_mbps", "MB/s"}, {"mbps", "MB/s"},     {"iops", "IO/s"},
      {"seconds", "s"},      {"waf", "ratio"},       {"latency_us", "us"}, {"power_w", "W"}};
  for (const auto& [metric, unit] : metrics)
    t.push_back(make_param(p + ".expect." + metric, K::kNumber, unit, "expected " + metric + " of the phase")
                    .real_range(0.0, std::numeric_limits<double>::infinity(), false)
                    .def(""));
  t.push_back(
      make_param(p + ".secure_erase", K::kFlag, "", "action: ATA security erase (every block erased, LBAs unmapped)")
          .def("true"));
  t.push_back(make_param(p + ".job", K::kSection, "", "action: a fio-like job"));
  t.push_back(
      make_param(p + ".fill", K::kSection, "", "action: sequential write of part of the drive (or fill: SIZE)"));
  t.push_back(make_param(p + ".seqpass", K::kSection, "",
                         "action: one sequential pass over the drive (or seqpass: read|write)"));
  t.push_back(make_param(p + ".trim", K::kSection, "", "action: TRIM over the SATA path (or trim: all|unused)"));
  t.push_back(
      make_param(p + ".idle", K::kSeconds, "duration", "action: simulated time with no host I/O (a bare number: s)")
          .required()
          .at_least(1));
  t.push_back(
      make_param(p + ".mark", K::kFlag, "", "action: remember which LBAs are written from now on (for trim: unused)")
          .def("true"));
  t.push_back(make_param(p + ".repeat", K::kSection, "", "action: run a list of phases several times"));
  t.push_back(make_param(p + ".precondition", K::kSection, "",
                         "action: fill (+ random overwrite if `random` is given) through the FTL, no timing"));
  t.push_back(make_param(p + ".wear", K::kSection, "",
                         "action: the aging knob, no simulated time: P/E cycles added to every block, the data on "
                         "flash made older (docs/reliability.md)"));
  t.push_back(make_param(p + ".jobs", K::kList, "",
                         "action: jobs running at the same time and sharing the NCQ tags, each a map of "
                         "phases[].job keys")
                  .required());
  t.push_back(make_param(p + ".fio", K::kString, "",
                         "action: the jobs of a fio job file, relative to the scenario file (each stonewall "
                         "group one phase, named after its first job)")
                  .required()
                  .not_empty());
}

void add_job(ParamTable& t) {
  using K = ParamKind;
  const std::string j = "phases[].job.";
  t.push_back(make_param(j + "rw", K::kChoice, "", "access pattern (fio's rw; rw = readwrite)")
                  .required()
                  .pick(kRwModes)
                  .alias({"rw"}));
  t.push_back(
      make_param(j + "bs", K::kJobSize, "bytes", "block size of each request").required().at_least(1).multiple(512));
  t.push_back(make_param(j + "iodepth", K::kCount, "count", "requests kept in flight").def("1").range(1, 65536));
  t.push_back(make_param(j + "size", K::kAmount, "bytes or %", "region [offset, offset + size)")
                  .def("100%")
                  .shows("> 0, 0% < N <= 100%"));
  t.push_back(make_param(j + "io_size", K::kAmount, "bytes or %", "total bytes to transfer")
                  .derived("size")
                  .shows("> 0, N > 0%"));
  t.push_back(
      make_param(j + "offset", K::kAmount, "bytes or %", "start of the region").def("0").shows("0% <= N < 100%"));
  t.push_back(
      make_param(j + "blockalign", K::kJobSize, "bytes", "alignment of random offsets; 0 = bs").def("0").multiple(512));
  t.push_back(make_param(j + "runtime", K::kSeconds, "duration", "time limit (a bare number: s); 0 = none").def("0"));
  t.push_back(make_param(j + "time_based", K::kFlag, "", "loop over the region until runtime (0/1 or true/false)")
                  .def("false"));
  t.push_back(make_param(j + "rwmixread", K::kCount, "percent", "percent reads for randrw / readwrite")
                  .def("50")
                  .range(0, 100));
  t.push_back(make_param(j + "randseed", K::kCount, "count", "random seed of the job")
                  .derived("from the scenario seed")
                  .range(0, kU64Max));
  t.push_back(make_param(j + "norandommap", K::kFlag, "", "draw random offsets independently (blocks may repeat)")
                  .def("false"));
  t.push_back(make_param(j + "random_distribution", K::kString, "",
                         "fio's skew of random offsets: random, zipf:THETA, pareto:H, normal:DEV (each with an "
                         "optional :CENTER 0..1), zoned:ACCESS/SIZE%:..., zoned_abs:ACCESS/SIZE:...")
                  .def("random"));
  t.push_back(make_param(j + "percentage_random", K::kCount, "percent",
                         "random modes: share of requests at random offsets, the rest sequential")
                  .def("100")
                  .range(0, 100));
  t.push_back(make_param(j + "bsrange", K::kString, "bytes",
                         "block sizes drawn from MIN-MAX (fio's bsrange, e.g. 4k-64k; replaces bs)")
                  .def(""));
  t.push_back(make_param(j + "bssplit", K::kString, "bytes/percent",
                         "weighted block sizes, fio's SIZE/PERCENT:... (e.g. 4k/80:64k/20; replaces bs)")
                  .def(""));
  t.push_back(make_param(j + "number_ios", K::kCount, "count", "stop after this many requests; 0 = no limit").def("0"));
  t.push_back(make_param(j + "name", K::kString, "", "the job's name in per-job results (fio's jobname)")
                  .derived("the phase's name")
                  .not_empty());
  t.push_back(make_param(j + "numjobs", K::kCount, "count",
                         "clones of the job running at the same time (fio's numjobs; offset_increment apart); "
                         "a phase runs at most 4096 jobs and 65536 requests in flight (iodepth x numjobs) in all")
                  .def("1")
                  .range(1, kMaxJobsPerPhase));
  t.push_back(make_param(j + "group_reporting", K::kFlag, "",
                         "fio.json: this job's figures merged into the entry of the job before it (fio's "
                         "group_reporting)")
                  .def("false"));
  t.push_back(make_param(j + "offset_increment", K::kAmount, "bytes or %",
                         "clone N's region starts N x this later (fio's offset_increment)")
                  .def("0")
                  .shows("0% <= N < 100%"));
  t.push_back(make_param(j + "startdelay", K::kString, "duration",
                         "the job starts this long after the phase (fio's syntax; a bare number: s)")
                  .def("0"));
  t.push_back(make_param(j + "ramp_time", K::kString, "duration",
                         "completions in the first ramp_time after the job's start are not counted "
                         "(fio's syntax; a bare number: s; runtime follows it)")
                  .def("0"));
  t.push_back(make_param(j + "thinktime", K::kString, "duration",
                         "after every thinktime_blocks requests: wait for them, then this long (fio's syntax; "
                         "a bare number: us)")
                  .def("0"));
  t.push_back(
      make_param(j + "thinktime_blocks", K::kCount, "count", "requests between thinktimes").def("1").range(1, kU64Max));
  t.push_back(make_param(j + "rate", K::kString, "bytes/s",
                         "bandwidth cap of each direction on its own (fio's rate, fio's size syntax)")
                  .def("0"));
  t.push_back(make_param(j + "rate_iops", K::kCount, "IO/s", "request-rate cap of each direction on its own").def("0"));
  t.push_back(make_param(j + "fsync", K::kCount, "count", "a FLUSH CACHE EXT after every N writes; 0 = none")
                  .def("0")
                  .range(0, 0xffffffffULL));
  t.push_back(make_param(j + "steadystate", K::kString, "",
                         "fio's steady-state criterion iops|iops_slope|bw|bw_slope:LIMIT[%]: the job ends when "
                         "the last steadystate_duration of per-second figures meet it")
                  .def("none"));
  t.push_back(make_param(j + "steadystate_duration", K::kString, "duration",
                         "the rolling window of per-second figures, whole seconds; 0 = no detection (fio's "
                         "syntax; a bare number: s)")
                  .def("0"));
  t.push_back(make_param(j + "steadystate_ramp_time", K::kString, "duration",
                         "time after the job's start before figures are collected (fio's syntax; a bare number: s)")
                  .def("0"));
}

void add_actions(ParamTable& t) {
  using K = ParamKind;
  const std::string f = "phases[].fill.";
  t.push_back(
      make_param(f + "size", K::kAmount, "bytes or %", "region to write").def("100%").shows("> 0, 0% < N <= 100%"));
  t.push_back(
      make_param(f + "bs", K::kJobSize, "bytes", "block size of each request").def("128KiB").at_least(1).multiple(512));
  t.push_back(make_param(f + "iodepth", K::kCount, "count", "requests kept in flight").def("32").range(1, 65536));
  t.push_back(
      make_param(f + "offset", K::kAmount, "bytes or %", "start of the region").def("0").shows("0% <= N < 100%"));
  const std::string s = "phases[].seqpass.";
  t.push_back(make_param(s + "rw", K::kChoice, "", "direction of the pass").required().pick({"read", "write"}));
  t.push_back(
      make_param(s + "bs", K::kJobSize, "bytes", "block size of each request").def("128KiB").at_least(1).multiple(512));
  t.push_back(make_param(s + "iodepth", K::kCount, "count", "requests kept in flight").def("1").range(1, 65536));
  const std::string r = "phases[].trim.";
  t.push_back(make_param(r + "offset", K::kAmount, "bytes or %", "start of the trimmed range")
                  .def("0")
                  .shows("0% <= N < 100%"));
  t.push_back(make_param(r + "size", K::kAmount, "bytes or %", "length of the trimmed range")
                  .def("100%")
                  .shows("> 0, 0% < N <= 100%"));
  const std::string rp = "phases[].repeat.";
  t.push_back(make_param(rp + "count", K::kCount, "count", "times the phases run").required().range(1, 10000));
  t.push_back(
      make_param(rp + "phases", K::kList, "", "the repeated phases (repeat blocks nest at most 8 deep)").required());
  const std::string wp = "phases[].wear.";
  t.push_back(
      make_param(wp + "pe_cycles", K::kCount, "P/E cycles", "erases added to every block (wear spread unchanged)")
          .def("0")
          .range(0, 1u << 22));
  t.push_back(make_param(wp + "retention", K::kString, "age",
                         "the data on flash counts as this much older: s, min, h, d, w, y (365 d); matters only "
                         "with the drive's bit errors on")
                  .def("0"));
  const std::string pc = "phases[].precondition.";
  t.push_back(make_param(pc + "fill", K::kPercent, "percent", "sequentially written share of the drive")
                  .def("100%")
                  .shows("0%..100%"));
  t.push_back(make_param(pc + "random", K::kPercent, "percent",
                         "random overwrite of one mapping unit per write, share of the drive (none unless given)")
                  .def("0%")
                  .shows("0%..10000%"));
  t.push_back(make_param(pc + "random_map", K::kFlag, "",
                         "random writes as fio's random map (each LPN once per pass, like a job without "
                         "norandommap); default: independent draws with replacement (fio's norandommap)")
                  .def("false"));
  t.push_back(make_param(pc + "method", K::kChoice, "",
                         "auto: replicate one aged die group where it applies and the drive has at least 2^24 "
                         "mapping units, else simulate; simulate: every write through the whole FTL; replicate: "
                         "always (an error where it does not apply). docs/aging.md")
                  .def("auto")
                  .pick({"auto", "simulate", "replicate"}));
  t.push_back(make_param(pc + "group_dies", K::kCount, "count",
                         "dies in the group replication ages (must divide the drive's dies)")
                  .derived("the largest of 8, 4, 3, 2, 1 that splits the dies into groups")
                  .range(1, 65536));
  t.push_back(make_param(pc + "seed", K::kCount, "count", "random seed of the overwrite")
                  .derived("from the scenario seed")
                  .range(0, kU64Max));
}

ParamTable build_scenario_table() {
  ParamTable t;
  add_top(t);
  add_phase(t);
  add_job(t);
  add_actions(t);
  add_replay_params(t);  // base/config/replay_phase_yaml.cpp
  return t;
}

}  // namespace

const ParamTable& scenario_params() {
  static const ParamTable table = build_scenario_table();
  return table;
}

}  // namespace ssdlab
