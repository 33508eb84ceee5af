// The parameter table: every drive config key and every scenario key, declared once with its
// type, unit, default, allowed range (or choices) and meaning. The loaders, `-p` overrides, the
// effective config, the did-you-mean errors, `ssdlab params` and docs/config-reference.md all
// read it. Load-time only: nothing here is used while a simulation runs.
//
// An entry is declared in drive_params.cpp / scenario_params.cpp as
//   key("controller.queue_depth", Kind::kCount).u32(QUEUE_DEPTH_FIELD).range(1, 32).def("32")
//       .desc("device NCQ depth: commands the firmware accepts at once");
// where the field is a captureless lambda selecting the struct member the key fills.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "base/config/config.h"

namespace ssdlab {

enum class ParamKind {
  kSection,    // a map of further keys
  kString,     // UTF-8 text
  kCount,      // non-negative integer
  kNumber,     // decimal number
  kBool,       // true/false (yes/no, on/off)
  kDuration,   // time with a unit: 50us, 2ms
  kSize,       // bytes with a unit: 4KiB, 30GB
  kBitRate,    // line rate: 3Gbps
  kDataRate,   // bytes per second: 100MB/s
  kChoice,     // one of a fixed list of names
  kPageTimes,  // a duration, or a map lsb/csb/msb of durations (by the cell's page types)
  kJobSize,    // a size in the project's units or fio's k/m/g/t (1024-based)
  kAmount,     // a job size or a percentage of the drive ("50%")
  kPercent,    // a percentage ("200%")
  kSeconds,    // a duration; a bare number is seconds (as fio reads it)
  kList,       // a list (of phases, of overrides)
  kFlag,       // a key whose presence means "on" (a value may say true or false)
};

// Whether a key must be given: kDerived keys have a default computed from other keys (the
// default text says how), kOneOf keys are required unless their alternative is given.
enum class ParamNeed { kOptional, kRequired, kDerived, kOneOf };

const char* to_string(ParamKind);

// Accessors select the member a drive key fills (captureless lambdas, registered once).
struct DriveField {
  std::uint32_t& (*u32)(DriveConfig&) = nullptr;
  std::uint64_t& (*u64)(DriveConfig&) = nullptr;  // sizes, rates and durations (Picos)
  double& (*real)(DriveConfig&) = nullptr;
  bool& (*flag)(DriveConfig&) = nullptr;
  std::string& (*text)(DriveConfig&) = nullptr;
  std::array<Picos, 3>& (*times)(DriveConfig&) = nullptr;
  void (*set_choice)(DriveConfig&, std::size_t) = nullptr;  // index into choices
  std::size_t (*get_choice)(const DriveConfig&) = nullptr;
};

struct Param {
  std::string path;  // "controller.gc.policy"; list items are written "phases[].job.bs"
  ParamKind kind = ParamKind::kString;
  std::string unit;  // "count", "fraction", "percent", or the unit a value is written in
  ParamNeed need = ParamNeed::kOptional;
  std::string default_text;  // in file syntax ("32", "100ms"); for kDerived: how it is derived
  // Integer-like kinds: inclusive bounds; a size may also have to be a multiple of
  // `multiple_of` and a power of two.
  std::uint64_t min = 0;
  std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t multiple_of = 0;
  bool power_of_two = false;
  // kNumber: [real_min, real_max] or [real_min, real_max) when real_max_open.
  double real_min = -std::numeric_limits<double>::infinity();
  double real_max = std::numeric_limits<double>::infinity();
  bool real_max_open = false;
  std::vector<std::string> choices;  // kChoice (as written in messages); kBitRate: allowed rates
  std::vector<std::string> aliases;  // further accepted spellings (kChoice), offered by did-you-mean
  bool non_empty = false;            // kString
  std::string range_text;            // shown by `ssdlab params` when the bounds alone do not say it
  std::string desc;
  DriveField field;

  // Builder, used once per entry where the tables are declared.
  Param& def(std::string text) { return default_text = std::move(text), *this; }
  Param& required() { return need = ParamNeed::kRequired, *this; }
  Param& derived(std::string how) { return need = ParamNeed::kDerived, default_text = std::move(how), *this; }
  Param& one_of(std::string how) { return need = ParamNeed::kOneOf, default_text = std::move(how), *this; }
  Param& range(std::uint64_t lo, std::uint64_t hi) { return min = lo, max = hi, *this; }
  Param& at_least(std::uint64_t lo) { return min = lo, *this; }
  Param& multiple(std::uint64_t m) { return multiple_of = m, *this; }
  Param& pow2() { return power_of_two = true, *this; }
  Param& real_range(double lo, double hi, bool open) {
    return real_min = lo, real_max = hi, real_max_open = open, *this;
  }
  Param& pick(std::vector<std::string> names) { return choices = std::move(names), *this; }
  Param& alias(std::vector<std::string> names) { return aliases = std::move(names), *this; }
  Param& not_empty() { return non_empty = true, *this; }
  Param& unit_is(std::string u) { return unit = std::move(u), *this; }
  Param& shows(std::string text) { return range_text = std::move(text), *this; }
  Param& desc_is(std::string text) { return desc = std::move(text), *this; }
  Param& u32(std::uint32_t& (*f)(DriveConfig&)) { return field.u32 = f, *this; }
  Param& u64(std::uint64_t& (*f)(DriveConfig&)) { return field.u64 = f, *this; }
  Param& real(double& (*f)(DriveConfig&)) { return field.real = f, *this; }
  Param& flag(bool& (*f)(DriveConfig&)) { return field.flag = f, *this; }
  Param& text(std::string& (*f)(DriveConfig&)) { return field.text = f, *this; }
  Param& times(std::array<Picos, 3>& (*f)(DriveConfig&)) { return field.times = f, *this; }
  Param& choice(void (*set)(DriveConfig&, std::size_t), std::size_t (*get)(const DriveConfig&)) {
    return field.set_choice = set, field.get_choice = get, *this;
  }
};

using ParamTable = std::vector<Param>;

// Every drive config key, in the order of the effective config.
const ParamTable& drive_params();
// Every scenario key (paths relative to the scenario file; a phase is "phases[]").
const ParamTable& scenario_params();

// A new entry (the tables add the rest with the builder calls).
Param make_param(std::string path, ParamKind kind, std::string unit = "", std::string desc = "");
// "controller.gc" for "controller.gc.policy", "" for a top-level key.
std::string param_parent(const std::string& path);

// The entry for `path` in `table`, or nullptr.
const Param* find_param(const ParamTable& table, const std::string& path);
// Names of the keys directly under `path` ("" = top level), in table order. The lsb/csb/msb
// keys of a kPageTimes entry count as its children.
std::vector<std::string> param_children(const ParamTable& table, const std::string& path);
// "a range or choices" text of an entry for humans ("1..32", "greedy, cost_benefit, fifo").
std::string param_range_text(const Param& p);
// "required", the default, or how it is derived.
std::string param_default_text(const Param& p);

// `ssdlab params [SECTION]`: "drive", "scenario", or a key path prefix of either table
// ("controller", "controller.gc", "phases[].job"). Returns false (and writes nothing) if
// SECTION selects nothing.
bool print_params(std::ostream& out, const std::string& section, bool markdown);
// The section names `ssdlab params` accepts (for its error message).
std::vector<std::string> param_sections();
// " (did you mean 'controller'?)" for a section name close to `word`, else "".
std::string param_section_hint(const std::string& word);

}  // namespace ssdlab
