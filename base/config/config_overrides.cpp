// The drive config schema (from the parameter table, params.h) and "key.path=value" overrides.
#include <algorithm>

#include "base/config/config_loader.h"
#include "base/config/config_yaml.h"
#include "base/config/params.h"

namespace ssdlab::config_detail {
namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> keys;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    keys.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) return keys;
    start = dot + 1;
  }
}

std::string trim(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const std::size_t last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

[[noreturn]] void fail_override(const std::string& text, const std::string& message) {
  throw ConfigError("override '" + text + "': " + message);
}

// "nand.chanels" -> " (did you mean 'channels'?)" for the first component not in the schema.
std::string suggest(const std::string& path) {
  std::string prefix;
  for (const std::string& key : split_path(path)) {
    const std::vector<std::string> siblings = drive_keys(prefix);
    if (std::find(siblings.begin(), siblings.end(), key) == siblings.end()) return did_you_mean(key, siblings);
    prefix = join_path(prefix, key);
  }
  return "";
}

// The page types of the cell named in the document (all three if it names none we know).
std::vector<std::string> document_page_types(const YAML::Node& root) {
  // A missing key is an invalid node that throws on IsMap()/IsScalar(): test IsDefined first.
  const YAML::Node& const_root = root;
  const YAML::Node nand = const_root.IsMap() ? const_root["nand"] : YAML::Node();
  if (nand.IsDefined() && nand.IsMap()) {
    const YAML::Node cell = nand["cell"];
    if (cell.IsDefined() && cell.IsScalar()) {
      const std::string name = lowercase(cell.Scalar());
      if (name == "slc") return page_type_keys(1);
      if (name == "mlc") return page_type_keys(2);
    }
  }
  return page_type_keys(3);
}

// Makes `child` (at `path`) a map so that a key can be set below it.
void make_map(YAML::Node& root, YAML::Node& child, const std::string& path, const std::string& text, YamlSource& src) {
  if (!child.IsDefined() || child.IsNull()) {
    child = YAML::Node(YAML::NodeType::Map);
    src.mark_overridden(path, text);
  } else if (child.IsScalar() && (path == "nand.t_read" || path == "nand.t_prog")) {
    // One time for every page type: spell it out per type, keeping the file's line.
    YAML::Node expanded(YAML::NodeType::Map);
    for (const std::string& type : document_page_types(root)) expanded[type] = child;
    child = expanded;
  } else if (!child.IsMap()) {
    fail_override(text, path + ": cannot set a key below it: it is not a map");
  }
}

void apply_one(YAML::Node& root, const std::string& text, YamlSource& src) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos) fail_override(text, "expected key.path=value");
  const std::string path = trim(text.substr(0, equals));
  if (path.empty()) fail_override(text, "expected key.path=value");
  if (!is_drive_key(path)) fail_override(text, path + ": unknown key" + suggest(path));
  YAML::Node value;
  bool more = false;
  YAML::Mark more_at = YAML::Mark::null_mark();
  try {
    value = first_document(text.substr(equals + 1), more, more_at);
  } catch (const YAML::Exception& e) {
    fail_override(text, path + ": syntax error: " + e.msg);
  }
  if (more) fail_override(text, path + ": the value holds a second YAML document");
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap()) src.fail(root, "", "expected a map at the top level");

  const std::vector<std::string> keys = split_path(path);
  std::vector<YAML::Node> chain{root};
  std::string prefix;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    prefix = join_path(prefix, keys[i]);
    YAML::Node child = chain.back()[keys[i]];
    make_map(root, child, prefix, text, src);
    chain.push_back(child);
  }
  YAML::Node parent = chain.back();
  parent[keys.back()] = value;
  src.mark_overridden(path, text);
  // op and capacity are two ways to say the same thing: setting one drops the other.
  if (path == "controller.op") parent.remove("capacity");
  if (path == "controller.capacity") parent.remove("op");
}

}  // namespace

std::vector<std::string> page_type_keys(unsigned types) {
  if (types <= 1) return {"lsb"};
  if (types == 2) return {"lsb", "msb"};
  return {"lsb", "csb", "msb"};
}

std::vector<std::string> drive_keys(const std::string& path) { return param_children(drive_params(), path); }

bool is_drive_key(const std::string& path) {
  if (find_param(drive_params(), path) != nullptr) return true;
  const std::size_t dot = path.rfind('.');
  if (dot == std::string::npos) return false;
  const Param* parent = find_param(drive_params(), path.substr(0, dot));
  if (parent == nullptr || parent->kind != ParamKind::kPageTimes) return false;
  const std::vector<std::string> types = page_type_keys(3);
  return std::find(types.begin(), types.end(), path.substr(dot + 1)) != types.end();
}

void apply_drive_overrides(YAML::Node& root, const std::vector<std::string>& overrides, YamlSource& src) {
  for (const std::string& text : overrides) apply_one(root, text, src);
}

}  // namespace ssdlab::config_detail
