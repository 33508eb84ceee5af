#include "base/stats/stats_tree.h"

#include <limits>
#include <stdexcept>

namespace ssdlab {

const char* to_string(StatKind kind) {
  switch (kind) {
    case StatKind::kCounter:
      return "counter";
    case StatKind::kBusy:
      return "busy";
    case StatKind::kLevel:
      return "level";
    case StatKind::kRatio:
      return "ratio";
  }
  return "?";
}

std::string stat_pattern(const std::string& name) {
  std::string out;
  out.reserve(name.size());
  bool in_index = false;
  for (const char c : name) {
    if (c == '[') {
      in_index = true;
      out += c;
    } else if (c == ']') {
      in_index = false;
      out += c;
    } else if (!in_index) {
      out += c;
    }
  }
  return out;
}

// ---- catalogue --------------------------------------------------------------------------------

std::int64_t StatCatalogue::find(const std::string& name) const {
  const auto it = m_index.find(name);
  return it == m_index.end() ? -1 : std::int64_t(it->second);
}

std::vector<std::uint32_t> StatCatalogue::matching(const std::string& pattern) const {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < m_defs.size(); ++i) {
    if (m_defs[i].pattern == pattern) out.push_back(i);
  }
  return out;
}

std::uint32_t StatCatalogue::add(StatDef def) {
  if (m_index.count(def.name)) throw std::logic_error("statistic " + def.name + " is registered twice");
  const auto i = static_cast<std::uint32_t>(m_defs.size());
  def.pattern = stat_pattern(def.name);
  m_index.emplace(def.name, i);
  m_defs.push_back(std::move(def));
  return i;
}

// ---- delta ------------------------------------------------------------------------------------

StatsDelta::StatsDelta(std::shared_ptr<const StatCatalogue> catalogue, const StatsSnapshot& begin,
                       const StatsSnapshot& end)
    : m_catalogue(std::move(catalogue)) {
  assign(begin, end);
}

void StatsDelta::assign(const StatsSnapshot& begin, const StatsSnapshot& end) {
  m_span_ps = end.time_ps - begin.time_ps;
  const std::size_t n = m_catalogue->size();
  if (begin.values.size() != n || end.values.size() != n || end.time_ps < begin.time_ps) {
    throw std::logic_error("statistics snapshots of different trees or in the wrong order");
  }
  m_values.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (m_catalogue->defs()[i].kind) {
      case StatKind::kCounter:
      case StatKind::kBusy:
        m_values[i].count = end.values[i].count - begin.values[i].count;
        break;
      case StatKind::kLevel:
        m_values[i].level = end.values[i].level;
        break;
      case StatKind::kRatio:
        break;
    }
  }
}

std::uint32_t StatsDelta::index_of(const std::string& name, StatKind kind, StatKind also) const {
  const std::int64_t i = m_catalogue->find(name);
  if (i < 0) throw std::out_of_range("no statistic named " + name);
  const StatKind k = m_catalogue->defs()[std::size_t(i)].kind;
  if (k != kind && k != also) {
    throw std::out_of_range("statistic " + name + " is a " + to_string(k) + ", not a " + to_string(kind));
  }
  return static_cast<std::uint32_t>(i);
}

std::uint64_t StatsDelta::count(const std::string& name) const {
  return empty() ? 0 : count_at(index_of(name, StatKind::kCounter, StatKind::kBusy));
}

double StatsDelta::busy_seconds(const std::string& name) const { return double(count(name)) / double(kPicosPerSec); }

double StatsDelta::busy_fraction(const std::string& name) const {
  return empty() ? 0 : busy_fraction_at(index_of(name, StatKind::kBusy, StatKind::kBusy));
}

double StatsDelta::busy_fraction_at(std::uint32_t i) const {
  return m_span_ps ? double(m_values[i].count) / double(m_span_ps) : 0.0;
}

double StatsDelta::level(const std::string& name) const {
  return empty() ? 0 : level_at(index_of(name, StatKind::kLevel, StatKind::kLevel));
}

double StatsDelta::ratio(const std::string& name) const {
  return empty() ? 0 : ratio_at(index_of(name, StatKind::kRatio, StatKind::kRatio));
}

double StatsDelta::value(const std::string& name) const {
  if (empty()) return 0;
  const std::int64_t i = m_catalogue->find(name);
  if (i < 0) throw std::out_of_range("no statistic named " + name);
  return value_at(static_cast<std::uint32_t>(i));
}

double StatsDelta::value_at(std::uint32_t k) const {
  switch (m_catalogue->defs()[k].kind) {
    case StatKind::kCounter:
      return double(count_at(k));
    case StatKind::kBusy:
      return busy_fraction_at(k);
    case StatKind::kLevel:
      return level_at(k);
    case StatKind::kRatio:
      return ratio_at(k);
  }
  return 0;
}

double StatsDelta::mean_busy_fraction(const std::string& pattern) const {
  if (empty() || m_span_ps == 0) return 0;
  return mean_busy_fraction_at(m_catalogue->matching(pattern));
}

double StatsDelta::mean_busy_fraction_at(const std::vector<std::uint32_t>& matches) const {
  if (empty() || m_span_ps == 0 || matches.empty()) return 0;
  double busy = 0;
  for (const std::uint32_t i : matches) busy += double(m_values[i].count);
  return busy / double(m_span_ps) / double(matches.size());
}

double StatsDelta::ratio_at(std::uint32_t i) const {
  const StatDef& def = m_catalogue->defs()[i];
  std::uint64_t num = 0, den = 0;
  for (const std::uint32_t k : def.numerator) num += m_values[k].count;
  for (const std::uint32_t k : def.denominator) den += m_values[k].count;
  return den ? double(num) / double(den) : std::numeric_limits<double>::quiet_NaN();
}

// ---- registration -----------------------------------------------------------------------------

namespace {

void check_name(const std::string& name) {
  bool ok = !name.empty();
  for (const char c : name) ok &= (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  if (!ok) throw std::logic_error("statistic or group name '" + name + "': use lower-case letters, digits and _");
}

void check_text(const std::string& stat, const char* what, const std::string& text) {
  if (text.empty()) throw std::logic_error("statistic " + stat + " has no " + what);
}

StatDef make_def(std::string name, StatKind kind, const char* unit, const char* description) {
  StatDef def;
  def.name = std::move(name);
  def.kind = kind;
  def.unit = unit ? unit : "";
  def.description = description ? description : "";
  return def;
}

}  // namespace

std::string StatGroup::child(const std::string& name) const {
  check_name(name);
  return m_path.empty() ? name : m_path + "." + name;
}

StatGroup StatGroup::group(const std::string& name) const { return StatGroup(*m_tree, child(name)); }

StatGroup StatGroup::group(const std::string& name, std::uint32_t index) const {
  return StatGroup(*m_tree, child(name) + "[" + std::to_string(index) + "]");
}

StatGroup StatsTree::group(const std::string& name) {
  check_name(name);
  return StatGroup(*this, name);
}

void StatsTree::add(StatDef def, Source source) {
  if (m_frozen) throw std::logic_error("statistic " + def.name + " registered after the first snapshot");
  check_text(def.name, "unit", def.unit);
  check_text(def.name, "description", def.description);
  m_catalogue->add(std::move(def));
  m_sources.push_back(std::move(source));
}

void StatGroup::counter(const std::string& name, const std::uint64_t& value, const char* unit,
                        const char* description) const {
  StatsTree::Source s;
  s.value = &value;
  m_tree->add(make_def(child(name), StatKind::kCounter, unit, description), s);
}

void StatGroup::counter(const std::string& name, std::function<std::uint64_t()> get, const char* unit,
                        const char* description) const {
  StatsTree::Source s;
  s.get = std::move(get);
  m_tree->add(make_def(child(name), StatKind::kCounter, unit, description), s);
}

void StatGroup::busy(const std::string& name, std::function<Picos()> get, const char* description) const {
  StatsTree::Source s;
  s.get = std::move(get);
  m_tree->add(make_def(child(name), StatKind::kBusy, "s", description), s);
}

void StatGroup::level(const std::string& name, std::function<double()> get, const char* unit,
                      const char* description) const {
  StatsTree::Source s;
  s.get_level = std::move(get);
  m_tree->add(make_def(child(name), StatKind::kLevel, unit, description), s);
}

void StatGroup::ratio(const std::string& name, const std::vector<std::string>& numerator,
                      const std::vector<std::string>& denominator, const char* description) const {
  const std::string full = child(name);
  auto resolve = [&](const std::vector<std::string>& names) {
    std::vector<std::uint32_t> out;
    for (const std::string& n : names) {
      const std::int64_t i = m_tree->m_catalogue->find(child(n));
      const StatKind k = i < 0 ? StatKind::kRatio : m_tree->m_catalogue->defs()[std::size_t(i)].kind;
      if (k != StatKind::kCounter && k != StatKind::kBusy) {
        throw std::logic_error("ratio " + full + ": " + child(n) +
                               " is not a counter or busy time registered before it");
      }
      out.push_back(static_cast<std::uint32_t>(i));
    }
    if (out.empty()) throw std::logic_error("ratio " + full + " divides nothing");
    return out;
  };
  StatDef def = make_def(full, StatKind::kRatio, "ratio", description);
  def.numerator = resolve(numerator);
  def.denominator = resolve(denominator);
  m_tree->add(std::move(def), {});
}

StatsSnapshot StatsTree::snapshot(Picos now_ps) const {
  StatsSnapshot snap;
  snapshot_into(now_ps, snap);
  return snap;
}

void StatsTree::snapshot_into(Picos now_ps, StatsSnapshot& snap) const {
  m_frozen = true;
  snap.time_ps = now_ps;
  snap.values.assign(m_sources.size(), StatValue{});
  for (std::size_t i = 0; i < m_sources.size(); ++i) {
    const Source& s = m_sources[i];
    if (s.value) {
      snap.values[i].count = *s.value;
    } else if (s.get) {
      snap.values[i].count = s.get();
    } else if (s.get_level) {
      snap.values[i].level = s.get_level();
    }
  }
}

}  // namespace ssdlab
