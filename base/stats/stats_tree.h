// One statistics tree for the whole drive. Components register named statistics once, at
// construction or elaboration, each with a unit and a one-line description: by reference to a
// counter they already keep, or by a cheap getter (a die's busy time up to now). Nothing changes
// on the hot path: counters stay plain member increments, and getters run only when a snapshot
// is taken (once per phase and per time-series interval).
//
// Names nest by group, with indices: drive.nand.channel[2].die[3].reads. Kinds:
//   counter  an event count; a phase reports its difference
//   busy     time a resource was in use (picoseconds); a phase reports seconds and the
//            fraction of the phase (reported as <name>_s and <name>_fraction)
//   level    a value at the end of the phase (free blocks, buffer fill)
//   ratio    derived from the phase differences of counters of its group, sum(numerator) /
//            sum(denominator): mapping_cache.hit_rate = hits / (hits + misses); NaN when the
//            denominator did not move
// There is no reset: a phase or a time-series interval is the difference of two snapshots.
// Plain C++ (no SystemC): the caller passes the time of a snapshot.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/core/types.h"

namespace ssdlab {

enum class StatKind : std::uint8_t { kCounter, kBusy, kLevel, kRatio };
const char* to_string(StatKind kind);

struct StatDef {
  std::string name;  // the full path: drive.nand.channel[2].die[3].reads
  StatKind kind = StatKind::kCounter;
  std::string unit;
  std::string description;
  std::vector<std::uint32_t> numerator, denominator;  // ratio: the counters it divides
  std::string pattern;                                // the name without indices (stat_pattern)
};

// Every statistic's definition, in registration order. Shared (immutable once the first
// snapshot is taken) by the tree and by every phase's figures, which outlive the drive.
class StatCatalogue {
 public:
  const std::vector<StatDef>& defs() const { return m_defs; }
  std::size_t size() const { return m_defs.size(); }
  // Index of `name`, or -1.
  std::int64_t find(const std::string& name) const;
  // The indices, in registration order, of the statistics whose name is `pattern` once the
  // indices are taken out: "drive.nand.channel[].die[].busy" names every die's busy time.
  std::vector<std::uint32_t> matching(const std::string& pattern) const;
  std::uint32_t add(StatDef def);

 private:
  std::vector<StatDef> m_defs;
  std::unordered_map<std::string, std::uint32_t> m_index;
};

// "channel[2].die[3].reads" -> "channel[].die[].reads".
std::string stat_pattern(const std::string& name);

struct StatValue {
  std::uint64_t count = 0;  // counter: events; busy: picoseconds
  double level = 0;         // level
};

struct StatsSnapshot {
  Picos time_ps = 0;
  std::vector<StatValue> values;  // by catalogue index (ratios hold nothing)
};

// What happened between two snapshots: counters and busy times as differences, levels as at
// the end, ratios from the differences. Self-contained: it stays valid after the drive is gone.
class StatsDelta {
 public:
  StatsDelta() = default;
  StatsDelta(std::shared_ptr<const StatCatalogue> catalogue, const StatsSnapshot& begin, const StatsSnapshot& end);

  // A delta of nothing (no drive measured): every figure reads 0.
  bool empty() const { return !m_catalogue; }
  Picos span_ps() const { return m_span_ps; }
  const StatCatalogue& catalogue() const { return *m_catalogue; }

  // By name; a name not in the catalogue (or of another kind) throws std::out_of_range naming it.
  std::uint64_t count(const std::string& name) const;  // counter difference, or busy picoseconds
  double busy_seconds(const std::string& name) const;
  double busy_fraction(const std::string& name) const;  // of the span; 0 for an empty span
  double level(const std::string& name) const;
  double ratio(const std::string& name) const;  // NaN when the denominator is 0
  // Any statistic as one number: a counter's difference, a busy fraction, a level, a ratio.
  double value(const std::string& name) const;
  // Mean busy fraction of the busy times matching `pattern` (StatCatalogue::matching), summed
  // in registration order; 0 when none matches or the span is empty.
  double mean_busy_fraction(const std::string& pattern) const;

  // Recomputes the delta from two snapshots of the same tree, reusing its storage (the
  // time-series sampler, once per interval).
  void assign(const StatsSnapshot& begin, const StatsSnapshot& end);
  // By catalogue index (looked up once with StatCatalogue::find / matching).
  double value_at(std::uint32_t i) const;
  double mean_busy_fraction_at(const std::vector<std::uint32_t>& indices) const;
  std::uint64_t count_at(std::uint32_t i) const { return m_values[i].count; }
  double level_at(std::uint32_t i) const { return m_values[i].level; }
  double busy_fraction_at(std::uint32_t i) const;
  double ratio_at(std::uint32_t i) const;

 private:
  std::uint32_t index_of(const std::string& name, StatKind kind, StatKind also) const;

  std::shared_ptr<const StatCatalogue> m_catalogue;
  Picos m_span_ps = 0;
  std::vector<StatValue> m_values;
};

class StatsTree;

// A handle on one group of the tree (cheap to copy). Registration throws std::logic_error on a
// bad or duplicate name, a missing unit or description, or once the tree has been snapshot.
class StatGroup {
 public:
  StatGroup group(const std::string& name) const;
  StatGroup group(const std::string& name, std::uint32_t index) const;  // name[index]
  const std::string& path() const { return m_path; }

  void counter(const std::string& name, const std::uint64_t& value, const char* unit, const char* description) const;
  void counter(const std::string& name, std::function<std::uint64_t()> get, const char* unit,
               const char* description) const;
  void busy(const std::string& name, std::function<Picos()> get, const char* description) const;
  void level(const std::string& name, std::function<double()> get, const char* unit, const char* description) const;
  // sum(numerator) / sum(denominator), all counters or busy times of this group registered before.
  void ratio(const std::string& name, const std::vector<std::string>& numerator,
             const std::vector<std::string>& denominator, const char* description) const;

 private:
  friend class StatsTree;
  StatGroup(StatsTree& tree, std::string path) : m_tree(&tree), m_path(std::move(path)) {}
  std::string child(const std::string& name) const;

  StatsTree* m_tree;
  std::string m_path;
};

class StatsTree {
 public:
  StatsTree() : m_catalogue(std::make_shared<StatCatalogue>()) {}
  StatsTree(const StatsTree&) = delete;
  StatsTree& operator=(const StatsTree&) = delete;

  StatGroup group(const std::string& name);
  // Every registered value now (getters run here); registration ends with the first snapshot.
  StatsSnapshot snapshot(Picos now_ps) const;
  // The same into `out`, reusing its storage (the time-series sampler, once per interval).
  void snapshot_into(Picos now_ps, StatsSnapshot& out) const;
  StatsDelta diff(const StatsSnapshot& begin, const StatsSnapshot& end) const {
    return StatsDelta(m_catalogue, begin, end);
  }
  std::shared_ptr<const StatCatalogue> catalogue() const { return m_catalogue; }

 private:
  friend class StatGroup;
  struct Source {
    const std::uint64_t* value = nullptr;
    std::function<std::uint64_t()> get;
    std::function<double()> get_level;
  };
  void add(StatDef def, Source source);

  std::shared_ptr<StatCatalogue> m_catalogue;
  std::vector<Source> m_sources;
  mutable bool m_frozen = false;
};

}  // namespace ssdlab
