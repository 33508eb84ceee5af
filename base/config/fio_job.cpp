// fio job files: sections, keys, comments, ${VAR}; every supported key into FioJob.
#include "base/config/fio_job.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "base/config/config_loader.h"
#include "base/config/config_yaml.h"

namespace ssdlab {
namespace {

using config_detail::did_you_mean;
using config_detail::lowercase;

struct Key;

struct Entry {
  std::string key, value;
  bool bare = false;  // `key` alone
  int line = 0;
  const Key* def = nullptr;  // the supported key it names (found once, when the line is read)
};

struct Section {
  std::string name;
  int line = 0;
  std::vector<Entry> entries;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// ---- values into fields (std::invalid_argument on a bad value) ----

bool parse_bool(const Entry& e) {
  if (e.bare) return true;
  const std::string v = lowercase(trim(e.value));
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  throw std::invalid_argument("expected 0 or 1 (or true/false), got '" + e.value + "'");
}

template <class T>
void set(FioField<T>& f, T v, const Entry& e) {
  f.value = std::move(v);
  f.line = e.line;
}

void size_in(FioField<std::uint64_t>& f, const Entry& e, std::uint64_t kb) { set(f, fio_parse_size(e.value, kb), e); }

void count_in(FioField<std::uint64_t>& f, const Entry& e, std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t v = fio_parse_size(e.value, 1024);
  if (v < lo || v > hi)
    throw std::invalid_argument("must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + e.value);
  set(f, v, e);
}

// A size or "N%" (size, offset...): fio takes a percentage of the device.
void amount_in(FioField<Amount>& f, const Entry& e, std::uint64_t kb) {
  const std::string v = trim(e.value);
  Amount a;
  if (!v.empty() && v.back() == '%') {
    double p = 0;
    if (!config_detail::parse_plain_double(trim(v.substr(0, v.size() - 1)), p) || p < 0 || p > 100)
      throw std::invalid_argument("expected a percentage 0..100%, got '" + v + "'");
    a.is_percent = true;
    a.percent = p;
  } else {
    a.bytes = fio_parse_size(v, kb);
  }
  set(f, a, e);
}

void time_in(FioField<Picos>& f, const Entry& e, Picos unit) { set(f, fio_parse_time(e.value, unit), e); }

void rw_in(FioJob& j, const Entry& e) {
  static const std::vector<std::pair<std::string, RwMode>> kModes = {
      {"read", RwMode::kRead},          {"write", RwMode::kWrite},         {"trim", RwMode::kTrim},
      {"randread", RwMode::kRandRead},  {"randwrite", RwMode::kRandWrite}, {"randtrim", RwMode::kRandTrim},
      {"rw", RwMode::kReadWrite},       {"readwrite", RwMode::kReadWrite}, {"randrw", RwMode::kRandRw},
      {"trimwrite", RwMode::kTrimWrite}};
  const std::string v = trim(e.value);
  const std::size_t colon = v.find(':');
  const std::string mode = lowercase(trim(v.substr(0, colon)));
  std::vector<std::string> names;
  for (const auto& [name, m] : kModes) {
    names.push_back(name);
    if (name != mode) continue;
    set(j.rw, m, e);
    j.rw_suffix = {};
    if (colon != std::string::npos) {
      // fio: sequential modes add N bytes after each I/O; random ones keep an offset for N I/Os.
      const std::uint64_t n = fio_parse_size(v.substr(colon + 1), j.kb_base.given() ? j.kb_base.value : 1024);
      if (is_random(m) && (n == 0 || n > 0xffffffffULL))
        throw std::invalid_argument("rw=" + mode + ":N needs 1 <= N < 2^32");
      set(j.rw_suffix, n, e);
    }
    return;
  }
  throw std::invalid_argument("unknown rw mode '" + mode + "'" + did_you_mean(mode, names) +
                              "; expected read, write, trim, randread, randwrite, randtrim, rw, readwrite, randrw, "
                              "trimwrite (optionally :N)");
}

void no_list(const Entry& e, const char* what) {
  if (e.value.find(',') != std::string::npos)
    throw std::invalid_argument(std::string("separate ") + what +
                                " for reads, writes and trims (a ',' list) are not supported yet; give one value");
}

using Apply = void (*)(FioJob&, const Entry&, std::uint64_t kb);

struct Key {
  const char* name;
  bool flag;  // may stand alone
  Apply apply;
};

constexpr std::uint64_t kMax = ~std::uint64_t(0);

// Every supported key. Order is the order of `fio_supported_keys()`.
const std::vector<Key>& keys() {
  static const std::vector<Key> table = {
      {"rw", false, [](FioJob& j, const Entry& e, std::uint64_t) { rw_in(j, e); }},
      {"bs", false,
       [](FioJob& j, const Entry& e, std::uint64_t kb) {
         no_list(e, "block sizes");
         size_in(j.bs, e, kb);
       }},
      {"bsrange", false,
       [](FioJob& j, const Entry& e, std::uint64_t kb) {
         no_list(e, "block size ranges");
         set(j.bsrange, fio_parse_size_range(e.value, kb), e);
       }},
      {"bssplit", false,
       [](FioJob& j, const Entry& e, std::uint64_t kb) { set(j.bssplit, fio_parse_bssplit(e.value, kb), e); }},
      {"blocksize_unaligned", true,
       [](FioJob& j, const Entry& e, std::uint64_t) { set(j.blocksize_unaligned, parse_bool(e), e); }},
      {"iodepth", false, [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.iodepth, e, 1, 65536); }},
      {"size", false, [](FioJob& j, const Entry& e, std::uint64_t kb) { amount_in(j.size, e, kb); }},
      {"filesize", false,
       [](FioJob& j, const Entry& e, std::uint64_t kb) {
         if (e.value.find_first_of("-:") != std::string::npos)
           throw std::invalid_argument("a filesize range (random file sizes) is not supported; give one size");
         amount_in(j.filesize, e, kb);
       }},
      {"io_size", false, [](FioJob& j, const Entry& e, std::uint64_t kb) { amount_in(j.io_size, e, kb); }},
      {"number_ios", false, [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.number_ios, e, 0, kMax); }},
      {"runtime", false, [](FioJob& j, const Entry& e, std::uint64_t) { time_in(j.runtime, e, kPicosPerSec); }},
      {"time_based", true, [](FioJob& j, const Entry& e, std::uint64_t) { set(j.time_based, parse_bool(e), e); }},
      {"ramp_time", false, [](FioJob& j, const Entry& e, std::uint64_t) { time_in(j.ramp_time, e, kPicosPerSec); }},
      {"steadystate", false,
       [](FioJob& j, const Entry& e, std::uint64_t) { set(j.steadystate, fio_parse_steadystate(e.value), e); }},
      {"steadystate_duration", false,
       [](FioJob& j, const Entry& e, std::uint64_t) { time_in(j.ss_dur, e, kPicosPerSec); }},
      {"steadystate_ramp_time", false,
       [](FioJob& j, const Entry& e, std::uint64_t) { time_in(j.ss_ramp, e, kPicosPerSec); }},
      {"startdelay", false,
       [](FioJob& j, const Entry& e, std::uint64_t) {
         const std::size_t at = e.value.find_first_of("-:");
         Picos lo = fio_parse_time(e.value.substr(0, at), kPicosPerSec), hi = lo;
         if (at != std::string::npos) hi = fio_parse_time(e.value.substr(at + 1), kPicosPerSec);
         set(j.startdelay, std::make_pair(std::min(lo, hi), std::max(lo, hi)), e);
       }},
      {"offset", false, [](FioJob& j, const Entry& e, std::uint64_t kb) { amount_in(j.offset, e, kb); }},
      {"offset_increment", false,
       [](FioJob& j, const Entry& e, std::uint64_t kb) { amount_in(j.offset_increment, e, kb); }},
      {"blockalign", false,
       [](FioJob& j, const Entry& e, std::uint64_t kb) {
         no_list(e, "alignments");
         size_in(j.blockalign, e, kb);
       }},
      {"offset_align", false, [](FioJob& j, const Entry& e, std::uint64_t kb) { size_in(j.offset_align, e, kb); }},
      {"rwmixread", false, [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.rwmixread, e, 0, 100); }},
      {"rwmixwrite", false, [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.rwmixwrite, e, 0, 100); }},
      {"percentage_random", false,
       [](FioJob& j, const Entry& e, std::uint64_t) {
         no_list(e, "percentages");
         count_in(j.percentage_random, e, 0, 100);
       }},
      {"random_distribution", false,
       [](FioJob& j, const Entry& e, std::uint64_t kb) {
         set(j.random_distribution, fio_parse_distribution(e.value, kb), e);
       }},
      {"norandommap", true, [](FioJob& j, const Entry& e, std::uint64_t) { set(j.norandommap, parse_bool(e), e); }},
      {"randrepeat", false, [](FioJob& j, const Entry& e, std::uint64_t) { set(j.randrepeat, parse_bool(e), e); }},
      {"randseed", false, [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.randseed, e, 0, kMax); }},
      {"numjobs", false, [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.numjobs, e, 1, kMaxJobsPerPhase); }},
      {"thinktime", false, [](FioJob& j, const Entry& e, std::uint64_t) { time_in(j.thinktime, e, kPicosPerUs); }},
      {"thinktime_spin", false,
       [](FioJob& j, const Entry& e, std::uint64_t) { time_in(j.thinktime_spin, e, kPicosPerUs); }},
      {"thinktime_blocks", false,
       [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.thinktime_blocks, e, 1, kMax); }},
      {"rate", false,
       [](FioJob& j, const Entry& e, std::uint64_t kb) {
         no_list(e, "rates");
         size_in(j.rate, e, kb);
       }},
      {"rate_iops", false,
       [](FioJob& j, const Entry& e, std::uint64_t) {
         no_list(e, "rates");
         count_in(j.rate_iops, e, 0, kMax);
       }},
      {"stonewall", true, [](FioJob& j, const Entry& e, std::uint64_t) { set(j.stonewall, parse_bool(e), e); }},
      {"group_reporting", true,
       [](FioJob& j, const Entry& e, std::uint64_t) { set(j.group_reporting, parse_bool(e), e); }},
      {"fsync", false, [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.fsync, e, 0, kMax); }},
      {"fdatasync", false, [](FioJob& j, const Entry& e, std::uint64_t) { count_in(j.fdatasync, e, 0, kMax); }},
      {"kb_base", false,
       [](FioJob& j, const Entry& e, std::uint64_t) {
         const std::string v = trim(e.value);
         if (v != "1000" && v != "1024") throw std::invalid_argument("must be 1000 or 1024, got '" + v + "'");
         set(j.kb_base, std::uint64_t(v == "1000" ? 1000 : 1024), e);
       }},
      {"name", false,
       [](FioJob& j, const Entry& e, std::uint64_t) {
         if (trim(e.value).empty()) throw std::invalid_argument("must not be empty");
         j.name = trim(e.value);
       }},
  };
  return table;
}

// fio's other spellings of supported keys.
const std::vector<std::pair<std::string, std::string>>& aliases() {
  static const std::vector<std::pair<std::string, std::string>> table = {{"readwrite", "rw"},
                                                                         {"blocksize", "bs"},
                                                                         {"blocksize_range", "bsrange"},
                                                                         {"bs_unaligned", "blocksize_unaligned"},
                                                                         {"ba", "blockalign"},
                                                                         {"io_limit", "io_size"},
                                                                         {"wait_for_previous", "stonewall"},
                                                                         {"ss", "steadystate"},
                                                                         {"ss_dur", "steadystate_duration"},
                                                                         {"ss_ramp", "steadystate_ramp_time"}};
  return table;
}

// Host-side keys that change nothing in a simulation: accepted, ignored, noted.
const std::vector<std::pair<std::string, std::string>>& ignored() {
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"ioengine", "the simulated host driver issues NCQ commands itself"},
      {"direct", "there is no page cache: every I/O reaches the drive"},
      {"buffered", "there is no page cache: every I/O reaches the drive"},
      {"filename", "the job runs against the simulated drive"},
      {"uri", "the nbd engine's export: the job runs against the simulated drive"},
      {"thread", "jobs are not processes here"},
      {"description", "free text"}};
  return table;
}

const Key* find_key(const std::string& name) {
  std::string canonical = name;
  for (const auto& [alias, to] : aliases())
    if (alias == name) canonical = to;
  for (const Key& k : keys())
    if (canonical == k.name) return &k;
  return nullptr;
}

class Parser {
 public:
  Parser(const std::string& source, const FioParseOptions& options) : m_src(source), m_options(options) {}
  FioJobFile parse(const std::string& text);

 private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw ConfigError(m_src + ":" + std::to_string(line) + ": " + what);
  }
  std::string expand(const std::string& line, int number) const;
  void read_line(std::string line, int number);
  void check_key(const Entry& e);
  void apply(FioJob& out, const std::vector<const Entry*>& entries) const;
  FioJob build(const Section& job, const std::vector<const Entry*>& globals) const;

  std::string m_src;
  const FioParseOptions& m_options;
  std::vector<Section> m_sections;
  std::uint32_t m_job_sections = 0;
  FioJobFile m_out;
};

std::string Parser::expand(const std::string& line, int number) const {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    const std::size_t at = line.find("${", i);
    if (at == std::string::npos) break;
    const std::size_t close = line.find('}', at);
    if (close == std::string::npos) fail(number, "unterminated ${ (write ${NAME})");
    const std::string name = line.substr(at + 2, close - at - 2);
    std::string value;
    bool found = false;
    if (m_options.getenv) {
      found = m_options.getenv(name, value);
    } else if (const char* v = std::getenv(name.c_str())) {
      found = true;
      value = v;
    }
    if (!found) fail(number, "environment variable '" + name + "' is not set (used as ${" + name + "})");
    out += line.substr(i, at - i) + value;
    i = close + 1;
  }
  return out + line.substr(std::min(i, line.size()));
}

void Parser::read_line(std::string line, int number) {
  const std::size_t comment = line.find_first_of("#;");
  if (comment != std::string::npos) line.erase(comment);
  line = trim(expand(line, number));
  if (line.empty()) return;
  if (line.front() == '[') {
    if (line.back() != ']') fail(number, "a section header is [NAME], got '" + line + "'");
    Section s;
    s.name = trim(line.substr(1, line.size() - 2));
    s.line = number;
    if (s.name.empty()) fail(number, "a section needs a name ([global] or [JOB])");
    // fio runs at most kMaxJobsPerPhase jobs in all (REAL_MAX_JOBS): a file defines no more.
    if (s.name != "global" && ++m_job_sections > kMaxJobsPerPhase)
      fail(number, "[" + s.name + "]: job section " + std::to_string(m_job_sections) + "; a job file defines at most " +
                       std::to_string(kMaxJobsPerPhase) + " jobs (fio's own limit)");
    m_sections.push_back(s);
    return;
  }
  Entry e;
  e.line = number;
  const std::size_t eq = line.find('=');
  e.key = trim(line.substr(0, eq));
  e.bare = eq == std::string::npos;
  if (!e.bare) e.value = trim(line.substr(eq + 1));
  if (e.key.empty()) fail(number, "a line is KEY=VALUE or a bare KEY, got '" + line + "'");
  if (m_sections.empty()) fail(number, e.key + ": outside a section; put it under [global] or a [JOB] section");
  check_key(e);
}

// Unknown keys fail (or warn), ignored ones leave a note; the rest wait for build().
void Parser::check_key(const Entry& e) {
  const std::string where = m_src + ":" + std::to_string(e.line) + ": ";
  for (const auto& [name, why] : ignored()) {
    if (name != e.key) continue;
    m_out.notes.push_back(where + e.key + (e.bare ? "" : "=" + e.value) + " accepted and ignored: " + why);
    return;
  }
  const Key* k = find_key(e.key);
  if (k == nullptr) {
    static const std::vector<std::string> names = [] {
      std::vector<std::string> n = fio_supported_keys();
      for (const auto& a : aliases()) n.push_back(a.first);
      return n;
    }();
    const std::string msg = e.key + ": not a supported fio key" + did_you_mean(e.key, names);
    if (!m_options.lenient) fail(e.line, msg + " (--fio-lenient makes this a warning)");
    m_out.warnings.push_back(where + msg + "; ignored");
    return;
  }
  if (e.bare && !k->flag) fail(e.line, e.key + ": needs a value (" + e.key + "=VALUE)");
  m_sections.back().entries.push_back(e);
  m_sections.back().entries.back().def = k;
}

// `globals`: the entries of the [global] sections before `job`.
// The entries in order, each applied to `out` (std::invalid_argument: a located error).
void Parser::apply(FioJob& out, const std::vector<const Entry*>& entries) const {
  const auto apply_one = [&](const Entry& e, std::uint64_t kb) {
    try {
      e.def->apply(out, e, kb);
    } catch (const std::invalid_argument& err) {
      fail(e.line, e.key + ": " + err.what());
    }
  };
  // kb_base first: it decides what the sizes around it mean.
  const Key* kb_base = find_key("kb_base");
  for (const Entry* e : entries)
    if (e->def == kb_base) apply_one(*e, 1024);
  const std::uint64_t kb = out.kb_base.given() ? out.kb_base.value : 1024;
  for (const Entry* e : entries) apply_one(*e, kb);
}

// `globals`: the last entry of each key of the [global] sections before `job` (a key's last
// entry decides its field; the entries carry their lines for rwmixread/rwmixwrite).
FioJob Parser::build(const Section& job, const std::vector<const Entry*>& globals) const {
  std::vector<const Entry*> entries = globals;
  for (const Entry& e : job.entries) entries.push_back(&e);
  FioJob out;
  out.name = job.name;
  out.line = job.line;
  apply(out, entries);
  return out;
}

FioJobFile Parser::parse(const std::string& text) {
  m_out.path = m_src;
  std::size_t start = 0;
  int number = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    ++number;
    read_line(text.substr(start, end == std::string::npos ? std::string::npos : end - start), number);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (!text.empty() && text.back() == '\n') --number;  // the empty "line" after the last newline
  // One pass: each job gets the [global] entries before it, one per key (a file of many
  // [global] lines costs each job no more than the number of keys). Every global entry is
  // checked once, so a bad value is an error even where a later line overrides it.
  std::vector<const Entry*> globals;
  std::map<const Key*, std::size_t> global_at;  // key -> its entry in `globals`
  for (const Section& s : m_sections) {
    if (s.name != "global") {
      m_out.jobs.push_back(build(s, globals));
      continue;
    }
    FioJob scratch;
    for (const Entry& e : s.entries) {
      apply(scratch, {&e});
      const auto [at, added] = global_at.emplace(e.def, globals.size());
      if (added)
        globals.push_back(&e);
      else
        globals[at->second] = &e;
    }
  }
  if (m_out.jobs.empty())
    fail(std::max(number, 1), "no job section: a job file needs at least one [JOB] besides [global]");
  return m_out;
}

}  // namespace

const std::vector<std::string>& fio_supported_keys() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Key& k : keys()) n.push_back(k.name);
    for (const auto& i : ignored()) n.push_back(i.first);
    return n;
  }();
  return names;
}

FioJobFile parse_fio_job_file(const std::string& text, const std::string& source_name, const FioParseOptions& options) {
  return Parser(source_name, options).parse(text);
}

FioJobFile load_fio_job_file(const std::string& path, const FioParseOptions& options) {
  return parse_fio_job_file(config_detail::read_text_file(path), path, options);
}

}  // namespace ssdlab
