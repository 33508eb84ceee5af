// Strict YAML reading helpers for the config and scenario loaders.
#include "base/config/config_yaml.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "base/config/config_loader.h"
#include "base/core/units.h"

namespace ssdlab::config_detail {
namespace {

bool is_under(const std::string& path, const std::string& prefix) {
  if (path.compare(0, prefix.size(), prefix) != 0) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[';
}

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Null:
      return "nothing";
    case YAML::NodeType::Scalar:
      return "'" + node.Scalar() + "'";
    default:
      return "nothing";
  }
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
// neighbours ("mbs" -> "msb") each cost 1.
// Three rows of the table (the swap looks two rows back), not the whole table.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, prev);
    std::swap(prev, row);
  }
  return prev[b.size()];
}

// Limits at the top of the type's range are not worth mentioning ("must be >= 1").
std::string range_message(std::uint64_t min, std::uint64_t max, const std::string& got, bool below) {
  if (max < std::numeric_limits<std::uint32_t>::max())
    return "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " + got;
  if (below) return "must be >= " + std::to_string(min) + ", got " + got;
  return "must be at most " + std::to_string(max) + ", got " + got;
}

template <typename Parse>
std::uint64_t get_unit_value(const YamlSource& src, const YAML::Node& node, const std::string& path,
                             const char* expected, Parse parse) {
  const std::string text = get_scalar(src, node, path, expected);
  try {
    return parse(text);
  } catch (const std::invalid_argument& e) {
    src.fail(node, path, e.what());
  }
}

// Offset of the first byte that does not belong to well-formed UTF-8 (no overlong forms,
// surrogates or code points above U+10FFFF), or npos.
std::size_t invalid_utf8_at(const std::string& text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = byte(i);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xbf;  // allowed range of the second byte
    if (c < 0x80)
      length = 1;
    else if (c >= 0xc2 && c <= 0xdf)
      length = 2;
    else if (c >= 0xe0 && c <= 0xef)
      length = 3, low = c == 0xe0 ? 0xa0 : 0x80, high = c == 0xed ? 0x9f : 0xbf;
    else if (c >= 0xf0 && c <= 0xf4)
      length = 4, low = c == 0xf0 ? 0x90 : 0x80, high = c == 0xf4 ? 0x8f : 0xbf;
    else
      return i;
    if (i + length > text.size()) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const unsigned char next = byte(i + k);
      if (k == 1 ? next < low || next > high : next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return std::string::npos;
}

}  // namespace

void YamlSource::mark_overridden(const std::string& path, const std::string& text) {
  overridden_.emplace_back(path, text);
}

// Overrides first; then the line of the key naming `path` (a value may start on a later
// line, or be empty); then the node's own position.
std::string YamlSource::where(const YAML::Node& node, const std::string& path) const {
  const std::string set_by = last_override({path});
  if (!set_by.empty()) return set_by;
  const auto key_line = key_lines_.find(path);
  if (key_line != key_lines_.end()) return name_ + ":" + std::to_string(key_line->second + 1);
  YAML::Mark mark = YAML::Mark::null_mark();
  if (node.IsDefined()) mark = node.Mark();
  if (mark.is_null()) return path.empty() ? name_ + ":1" : name_;  // empty document
  return name_ + ":" + std::to_string(mark.line + 1);
}

std::string YamlSource::origin(const std::string& path) const {
  const std::string set_by = last_override({path});
  if (!set_by.empty()) return path + " from " + set_by;
  const auto key_line = key_lines_.find(path);
  if (key_line != key_lines_.end()) return path + " at " + name_ + ":" + std::to_string(key_line->second + 1);
  return path + " (default)";
}

std::string YamlSource::last_override(const std::vector<std::string>& paths) const {
  for (auto it = overridden_.rbegin(); it != overridden_.rend(); ++it)
    for (const std::string& path : paths)
      if (is_under(path, it->first)) return "override '" + it->second + "'";
  return "";
}

void YamlSource::fail(const YAML::Node& node, const std::string& path, const std::string& message) const {
  std::string text = where(node, path) + ": ";
  if (!path.empty()) text += path + ": ";
  throw ConfigError(text + message);
}

void YamlSource::fail_absent(const YAML::Node& map, const std::string& map_path, const std::string& path,
                             const std::string& message) const {
  std::string location = where(map, path);  // an override, or the map's first entry
  if (location.rfind("override", 0) != 0) location = where(map, map_path);
  throw ConfigError(location + ": " + path + ": " + message);
}

void YamlSource::note_key_line(const std::string& path, int line) const { key_lines_[path] = line; }

namespace {

// Notes whether a document holds anything but a bare null, and where its content starts.
class DocumentProbe : public YAML::EventHandler {
 public:
  bool empty = true;
  YAML::Mark mark = YAML::Mark::null_mark();  // of the content, or of the null
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override {
    if (empty) mark = m;
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { note(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnMapEnd() override {}

 private:
  void note(const YAML::Mark& m) {
    if (empty) mark = m;
    empty = false;
  }
};

// yaml-cpp 0.7's LoadAll loops forever (allocating) on a stray ',' at the top level: its
// parser hands out empty documents without consuming the token. Documents are therefore read
// one at a time, and at most this many.
constexpr int kMaxDocuments = 64;

}  // namespace

YAML::Node first_document(const std::string& text, bool& more, YAML::Mark& more_at) {
  more = false;
  const YAML::Node first = YAML::Load(text);
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentProbe skipped;
  if (!parser.HandleNextDocument(skipped)) return first;
  DocumentProbe probe;
  for (int i = 1; i < kMaxDocuments; ++i) {
    probe = DocumentProbe();
    if (!parser.HandleNextDocument(probe)) return first;
    if (!probe.empty) {
      more = true;
      more_at = probe.mark;
      return first;
    }
  }
  // Only the stuck parser hands out that many empty documents.
  throw YAML::ParserException(probe.mark, "the parser makes no progress (a ',' outside brackets?)");
}

// Every document is parsed (a syntax error after a "---" or "..." marker is still an error);
// a second document that holds anything would otherwise be ignored silently.
YAML::Node load_yaml(const std::string& text, const std::string& name, const std::string& holder) {
  YAML::Node root;
  bool more = false;
  YAML::Mark more_at = YAML::Mark::null_mark();
  try {
    root = first_document(text, more, more_at);
  } catch (const YAML::Exception& e) {
    std::string location = name;
    if (!e.mark.is_null()) location += ":" + std::to_string(e.mark.line + 1);
    throw ConfigError(location + ": syntax error: " + e.msg);
  }
  if (more)
    throw ConfigError(name + (more_at.is_null() ? "" : ":" + std::to_string(more_at.line + 1)) +
                      ": a second YAML document starts here (after a '---' or '...' line); " + holder +
                      " holds one document");
  return root;
}

namespace {
const char* file_kind(const std::filesystem::file_status& st) {
  namespace fs = std::filesystem;
  switch (st.type()) {
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "not a plain file";
  }
}
}  // namespace

// A device, FIFO or /proc file would be read until memory runs out (/dev/zero never ends): only
// regular files, and at most kMaxConfigFileBytes of them, read in bounded chunks (a file that
// grows while it is read, or says it is empty, is still cut off at the limit).
std::string read_text_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw ConfigError(path + ": cannot open");
  const std::string limit = " (" + std::to_string(kMaxConfigFileBytes) +
                            " bytes; a drive config, scenario or fio job file is kilobytes of text)";
  if (!fs::is_regular_file(st))
    throw ConfigError(path + ": not a regular file (" + file_kind(st) +
                      "); a drive config, scenario or fio job file must be one");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxConfigFileBytes)
    throw ConfigError(path + ": " + std::to_string(size) + " bytes, more than a config file may hold" + limit);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open");
  std::string text;
  char chunk[16384];
  while (in) {
    in.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxConfigFileBytes)
      throw ConfigError(path + ": more than " + std::to_string(kMaxConfigFileBytes) +
                        " bytes, more than a config file may hold" + limit);
  }
  if (in.bad()) throw ConfigError(path + ": cannot open");
  return text;
}

std::string join_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  const std::size_t limit = std::max<std::size_t>(1, std::min<std::size_t>(3, word.size() / 3));
  const std::string lower = lowercase(word);
  for (const std::string& candidate : candidates) {
    // The distance is at least the difference in length: a candidate that cannot come within
    // the limit is not compared (a 64 KB word costs nothing; fuzz_fio_job spent its time here).
    const std::size_t apart = std::max(lower.size(), candidate.size()) - std::min(lower.size(), candidate.size());
    if (apart > limit) continue;
    const std::size_t d = edit_distance(lower, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  if (best.empty() || best_distance > limit) return "";
  return " (did you mean '" + best + "'?)";
}

void check_map(const YamlSource& src, const YAML::Node& node, const std::string& path,
               const std::vector<std::string>& allowed) {
  if (!node.IsMap()) src.fail(node, path, "expected a map, got " + describe(node));
  std::set<std::string> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    if (!key.IsScalar()) src.fail(key, path, "map keys must be plain names");
    const std::string name = key.Scalar();
    const std::string key_path = join_path(path, name);
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      src.fail(key, key_path, "unknown key" + did_you_mean(name, allowed));
    if (!key.Mark().is_null()) src.note_key_line(key_path, key.Mark().line);
    if (!seen.insert(name).second) src.fail(key, key_path, "duplicate key");
  }
}

YAML::Node require(const YamlSource& src, const YAML::Node& map, const std::string& path, const std::string& key) {
  const YAML::Node child = map[key];
  if (!child) src.fail_absent(map, path, join_path(path, key), "required key missing");
  return child;
}

std::string get_scalar(const YamlSource& src, const YAML::Node& node, const std::string& path, const char* expected) {
  if (!node.IsScalar()) src.fail(node, path, std::string("expected ") + expected + ", got " + describe(node));
  return node.Scalar();
}

// Text goes into the effective config, reports and JSON: it must be UTF-8 (the YAML emitter
// would write a stray byte as U+FFFD, and the config would not load back the same).
std::string get_string(const YamlSource& src, const YAML::Node& node, const std::string& path) {
  std::string text = get_scalar(src, node, path, "a string");
  const std::size_t bad = invalid_utf8_at(text);
  if (bad != std::string::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(text[bad]));
    src.fail(node, path, std::string("expected UTF-8 text, got the byte ") + hex + " at offset " + std::to_string(bad));
  }
  return text;
}

std::uint64_t get_uint(const YamlSource& src, const YAML::Node& node, const std::string& path, std::uint64_t min,
                       std::uint64_t max) {
  const std::string text = get_scalar(src, node, path, "an integer");
  const bool negative = !text.empty() && text[0] == '-';
  const std::string digits = negative ? text.substr(1) : text;
  const bool all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(),
                                                         [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!all_digits) src.fail(node, path, "expected an integer, got '" + text + "'");
  if (negative) src.fail(node, path, range_message(min, max, text, true));
  errno = 0;
  const unsigned long long value = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno == ERANGE) src.fail(node, path, "value too large: " + text);
  if (value < min || value > max) src.fail(node, path, range_message(min, max, text, value < min));
  return value;
}

bool parse_plain_double(const std::string& text, double& out) {
  if (text.empty()) return false;
  const bool plain = std::all_of(text.begin(), text.end(), [](unsigned char c) {
    return std::isdigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
  });
  if (!plain) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

double get_double(const YamlSource& src, const YAML::Node& node, const std::string& path) {
  const std::string text = get_scalar(src, node, path, "a number");
  double value = 0;
  if (!parse_plain_double(text, value)) src.fail(node, path, "expected a number, got '" + text + "'");
  return value;
}

bool get_bool(const YamlSource& src, const YAML::Node& node, const std::string& path) {
  const std::string text = lowercase(get_scalar(src, node, path, "true or false"));
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  src.fail(node, path, "expected true or false, got '" + node.Scalar() + "'");
}

Picos get_duration(const YamlSource& src, const YAML::Node& node, const std::string& path) {
  return get_unit_value(src, node, path, "a duration", parse_duration);
}

std::uint64_t get_size(const YamlSource& src, const YAML::Node& node, const std::string& path) {
  return get_unit_value(src, node, path, "a size", parse_size);
}

std::uint64_t get_bits_per_s(const YamlSource& src, const YAML::Node& node, const std::string& path) {
  return get_unit_value(src, node, path, "a bit rate", parse_bits_per_s);
}

std::uint64_t get_bytes_per_s(const YamlSource& src, const YAML::Node& node, const std::string& path) {
  return get_unit_value(src, node, path, "a data rate", parse_bytes_per_s);
}

}  // namespace ssdlab::config_detail
