#include "app/sweep/flatten.h"

namespace ssdlab::sweep {
namespace {

// Nesting deeper than this is not a figure (and bounds the recursion on any input).
constexpr int kMaxDepth = 8;

void flatten_into(const nlohmann::ordered_json& node, const std::string& prefix, int depth,
                  std::vector<std::pair<std::string, nlohmann::ordered_json>>& out) {
  if (node.is_object()) {
    if (depth >= kMaxDepth) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (depth == 0 && (it.key() == "stats" || it.key() == "name" || it.key() == "kind")) continue;
      flatten_into(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), depth + 1, out);
    }
  } else if (!node.is_array() && !node.is_binary() && !prefix.empty()) {
    out.emplace_back(prefix, node);
  }
}

}  // namespace

std::vector<std::pair<std::string, nlohmann::ordered_json>> flatten_phase(const nlohmann::ordered_json& phase) {
  std::vector<std::pair<std::string, nlohmann::ordered_json>> out;
  flatten_into(phase, "", 0, out);
  return out;
}

}  // namespace ssdlab::sweep
