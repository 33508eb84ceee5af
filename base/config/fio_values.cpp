// fio's value syntax: sizes with kb_base, times, ranges, bssplit, random_distribution.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/config/config_yaml.h"
#include "base/config/fio_job.h"

namespace ssdlab {
namespace {

using config_detail::lowercase;
using config_detail::parse_plain_double;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

// Leading unsigned integer (decimal, or hex after 0x); `end` is where the digits stop.
std::uint64_t leading_uint(const std::string& text, std::size_t& end) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::uint64_t base = hex ? 16 : 10;
  std::size_t i = hex ? 2 : 0;
  const std::size_t first = i;
  std::uint64_t v = 0;
  for (; i < text.size(); ++i) {
    const int c = std::tolower(static_cast<unsigned char>(text[i]));
    int digit = -1;
    if (std::isdigit(c)) digit = c - '0';
    if (hex && c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (digit < 0) break;
    if (v > (std::numeric_limits<std::uint64_t>::max() - std::uint64_t(digit)) / base)
      throw std::invalid_argument("'" + text + "' is too large");
    v = v * base + std::uint64_t(digit);
  }
  if (i == first) {
    const std::string hint = !text.empty() && text[0] == '(' ? " (fio's arithmetic expressions are not supported)"
                             : !text.empty() && text[0] == '$'
                                 ? " (fio's $pagesize, $mb_memory, $ncpus are not supported)"
                                 : "";
    throw std::invalid_argument("expected a number, got '" + text + "'" + hint);
  }
  end = i;
  return v;
}

std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, const std::string& text) {
  if (b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b)
    throw std::invalid_argument("'" + text + "' is too large");
  return a * b;
}

}  // namespace

// fio: the suffix is case-insensitive; k m g t p with an optional i and an optional b. With
// kb_base=1024 (the default) k = 1024 and ki = 1000 (kept for old scripts); kb_base=1000 swaps them.
std::uint64_t fio_parse_size(const std::string& raw, std::uint64_t kb_base) {
  const std::string text = trim(raw);
  std::size_t end = 0;
  const std::uint64_t number = leading_uint(text, end);
  const std::string suffix = lowercase(trim(text.substr(end)));
  if (suffix.empty() || suffix == "b") return number;
  static const std::string kPrefixes = "kmgtp";
  const std::size_t power = kPrefixes.find(suffix[0]);
  std::size_t i = 1;
  const bool iec = i < suffix.size() && suffix[i] == 'i';
  if (iec) ++i;
  if (i < suffix.size() && suffix[i] == 'b') ++i;
  if (power == std::string::npos || i != suffix.size()) {
    if (!suffix.empty() && suffix[0] == '.') throw std::invalid_argument("'" + text + "': fio sizes are whole numbers");
    throw std::invalid_argument("'" + text + "': unknown size suffix '" + text.substr(end) +
                                "' (fio's k, m, g, t, p, optionally with i and b: 4k, 64KiB, 1m)");
  }
  const bool binary = (kb_base == 1000) == iec;  // kb_base=1024: plain = binary; kb_base=1000: ki = binary
  const std::uint64_t unit = binary ? 1024 : 1000;
  std::uint64_t v = number;
  for (std::size_t p = 0; p <= power; ++p) v = checked_mul(v, unit, text);
  return v;
}

Picos fio_parse_time(const std::string& raw, Picos default_unit) {
  const std::string text = trim(raw);
  std::size_t end = 0;
  const std::uint64_t number = leading_uint(text, end);
  const std::string suffix = lowercase(trim(text.substr(end)));
  struct Unit {
    const char* name;
    Picos ps;
  };
  static const Unit kUnits[] = {{"us", kPicosPerUs},      {"usec", kPicosPerUs},      {"ms", kPicosPerMs},
                                {"msec", kPicosPerMs},    {"s", kPicosPerSec},        {"sec", kPicosPerSec},
                                {"m", 60 * kPicosPerSec}, {"h", 3600 * kPicosPerSec}, {"d", 86400 * kPicosPerSec}};
  Picos unit = default_unit;
  if (!suffix.empty()) {
    const Unit* found = nullptr;
    for (const Unit& u : kUnits)
      if (suffix == u.name) found = &u;
    if (found == nullptr)
      throw std::invalid_argument("'" + text + "': unknown time suffix '" + text.substr(end) +
                                  "' (fio's us, ms, s, m, h, d)");
    unit = found->ps;
  }
  return checked_mul(number, unit, text);
}

std::pair<std::uint64_t, std::uint64_t> fio_parse_size_range(const std::string& text, std::uint64_t kb_base) {
  const std::size_t at = text.find_first_of("-:");
  if (at == std::string::npos) throw std::invalid_argument("expected a range like 4k-64k, got '" + text + "'");
  std::uint64_t lo = fio_parse_size(text.substr(0, at), kb_base);
  std::uint64_t hi = fio_parse_size(text.substr(at + 1), kb_base);
  if (lo > hi) std::swap(lo, hi);
  return {lo, hi};
}

namespace {

// Integer percentages with blanks, as in bssplit and zoned: the blanks share what is left
// evenly (the last blank takes the remainder), and the total must be 100.
void fill_percentages(std::vector<std::uint32_t*>& blanks, std::uint32_t total, const std::string& what) {
  if (total > 100) throw std::invalid_argument(what + " percentages add up to " + std::to_string(total) + ", over 100");
  if (blanks.empty()) {
    if (total != 100)
      throw std::invalid_argument(what + " percentages add up to " + std::to_string(total) + ", not 100");
    return;
  }
  const std::uint32_t each = (100 - total) / std::uint32_t(blanks.size());
  for (std::uint32_t* b : blanks) *b = each;
  *blanks.back() += (100 - total) - each * std::uint32_t(blanks.size());
}

std::uint32_t percent_of(const std::string& text, const std::string& what) {
  std::size_t end = 0;
  const std::string t = trim(text);
  const std::uint64_t v = leading_uint(t, end);
  if (end != t.size() || v > 100)
    throw std::invalid_argument(what + ": expected a whole percentage 0..100, got '" + text + "'");
  return static_cast<std::uint32_t>(v);
}

void no_directions(const std::string& text, const std::string& key) {
  if (text.find(',') != std::string::npos)
    throw std::invalid_argument("separate " + key +
                                " values for reads, writes and trims (a ',' list) are not supported yet; give one");
}

}  // namespace

std::vector<BsWeight> fio_parse_bssplit(const std::string& text, std::uint64_t kb_base) {
  no_directions(text, "bssplit");
  std::vector<BsWeight> out;
  std::vector<std::uint32_t*> blanks;
  std::uint32_t total = 0;
  const std::vector<std::string> parts = split(trim(text), ':');
  if (parts.size() > 64) throw std::invalid_argument("bssplit takes at most 64 sizes");
  out.reserve(parts.size());
  for (const std::string& part : parts) {
    const std::size_t slash = part.find('/');
    if (slash == std::string::npos)
      throw std::invalid_argument("expected SIZE/PERCENT entries like 4k/10:64k/90, got '" + part + "'");
    BsWeight w;
    w.bs = fio_parse_size(part.substr(0, slash), kb_base);
    const std::string p = trim(part.substr(slash + 1));
    out.push_back(w);
    if (!p.empty()) {
      out.back().percent = percent_of(p, "bssplit");
      total += out.back().percent;
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (trim(parts[i].substr(parts[i].find('/') + 1)).empty()) blanks.push_back(&out[i].percent);
  fill_percentages(blanks, total, "bssplit");
  out.erase(std::remove_if(out.begin(), out.end(), [](const BsWeight& w) { return w.percent == 0; }), out.end());
  return out;
}

namespace {

std::vector<AccessZone> parse_zones(const std::vector<std::string>& parts, bool absolute, std::uint64_t kb_base) {
  if (parts.empty() || parts.size() > 256) throw std::invalid_argument("a zoned distribution takes 1 to 256 zones");
  std::vector<AccessZone> zones(parts.size());
  std::vector<std::uint32_t*> blanks;
  std::uint32_t total = 0, size_total = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::size_t slash = parts[i].find('/');
    if (slash == std::string::npos)
      throw std::invalid_argument("expected ACCESS%/SIZE zones like 60/10:40/90, got '" + parts[i] + "'");
    const std::string access = trim(parts[i].substr(0, slash)), size = parts[i].substr(slash + 1);
    if (access.empty()) {
      blanks.push_back(&zones[i].access_percent);
    } else {
      zones[i].access_percent = percent_of(access, "zone access");
      total += zones[i].access_percent;
    }
    if (absolute) {
      zones[i].size_bytes = fio_parse_size(size, kb_base);
    } else {
      zones[i].size_percent = percent_of(size, "zone size");
      size_total += zones[i].size_percent;
    }
  }
  fill_percentages(blanks, total, "zone access");
  if (size_total > 100)
    throw std::invalid_argument("zone sizes add up to " + std::to_string(size_total) + "% of the region, over 100%");
  return zones;
}

}  // namespace

RandomDistribution fio_parse_distribution(const std::string& raw, std::uint64_t kb_base) {
  const std::string text = trim(raw);
  no_directions(text, "random_distribution");
  RandomDistribution d;
  const std::size_t sep = text.find_first_of(":=");
  const std::string kind = lowercase(text.substr(0, sep));
  const std::string rest = sep == std::string::npos ? "" : text.substr(sep + 1);
  static const std::vector<std::string> kKinds = {"random", "zipf", "pareto", "normal", "zoned", "zoned_abs"};
  const auto it = std::find(kKinds.begin(), kKinds.end(), kind);
  // fio 3.33 refuses gauss here too ("failed parsing random_distribution=gauss:5"): it is
  // normal's alias for file_service_type only. Said, so that a job file stays one fio runs.
  if (kind == "gauss")
    throw std::invalid_argument(
        "gauss is not a random_distribution (fio refuses it too: it is normal's alias only "
        "for file_service_type); write normal:" +
        rest);
  if (it == kKinds.end())
    throw std::invalid_argument("unknown distribution '" + kind + "'" + config_detail::did_you_mean(kind, kKinds) +
                                "; expected random, zipf:THETA, pareto:H, normal:DEV, zoned:..., zoned_abs:...");
  d.kind = static_cast<RandomDist>(it - kKinds.begin());
  if (d.kind == RandomDist::kRandom) {
    if (!rest.empty()) throw std::invalid_argument("random takes no value");
    return d;
  }
  if (rest.empty())
    throw std::invalid_argument(kind + " needs a value, e.g. " + kind + ":" +
                                (d.kind == RandomDist::kZipf     ? "1.2"
                                 : d.kind == RandomDist::kPareto ? "0.2"
                                 : d.kind == RandomDist::kNormal ? "10"
                                                                 : "60/10:40/90"));
  if (d.kind == RandomDist::kZoned || d.kind == RandomDist::kZonedAbs) {
    d.zones = parse_zones(split(rest, ':'), d.kind == RandomDist::kZonedAbs, kb_base);
    return d;
  }
  const std::vector<std::string> values = split(rest, ':');
  if (values.size() > 2)
    throw std::invalid_argument(kind + " takes a value and an optional center, e.g. " + kind + ":1.2:0.25");
  if (!parse_plain_double(trim(values[0]), d.param))
    throw std::invalid_argument(kind + ": expected a number, got '" + values[0] + "'");
  if (values.size() == 2 && (!parse_plain_double(trim(values[1]), d.center) || d.center < 0 || d.center > 1))
    throw std::invalid_argument(kind + ": the center must be a number 0..1, got '" + values[1] + "'");
  // fio's ranges.
  if (d.kind == RandomDist::kZipf && (!(d.param > 0) || d.param == 1.0))
    throw std::invalid_argument("zipf theta must be > 0 and different from 1.0 (as fio requires), got " + values[0]);
  if (d.kind == RandomDist::kPareto && !(d.param > 0 && d.param < 1))
    throw std::invalid_argument("pareto h must be 0 < h < 1, got " + values[0]);
  if (d.kind == RandomDist::kNormal && !(d.param >= 0 && d.param < 100))
    throw std::invalid_argument("normal deviation must be 0 <= dev < 100, got " + values[0]);
  return d;
}

// fio: steadystate=iops|iops_slope|bw|bw_slope:LIMIT, the limit a number or a percentage of
// the window's mean ("iops_slope:0.1%").
SteadyStateSpec fio_parse_steadystate(const std::string& raw) {
  const std::string text = lowercase(trim(raw));
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument(
        "expected CRITERION:LIMIT like iops_slope:0.1% (criteria: iops, iops_slope, bw, "
        "bw_slope), got '" +
        raw + "'");
  const std::string kind = trim(text.substr(0, colon));
  SteadyStateSpec s;
  if (kind == "iops") {
    s.kind = SteadyStateSpec::Kind::kIops;
  } else if (kind == "iops_slope") {
    s.kind = SteadyStateSpec::Kind::kIopsSlope;
  } else if (kind == "bw") {
    s.kind = SteadyStateSpec::Kind::kBw;
  } else if (kind == "bw_slope") {
    s.kind = SteadyStateSpec::Kind::kBwSlope;
  } else {
    throw std::invalid_argument("unknown criterion '" + kind + "' (iops, iops_slope, bw or bw_slope)");
  }
  std::string limit = trim(text.substr(colon + 1));
  if (!limit.empty() && limit.back() == '%') {
    s.percent = true;
    limit.pop_back();
  }
  if (!parse_plain_double(limit, s.limit) || !(s.limit >= 0) || !std::isfinite(s.limit))
    throw std::invalid_argument("the limit must be a number >= 0, optionally with %, got '" + raw + "'");
  return s;
}

}  // namespace ssdlab
