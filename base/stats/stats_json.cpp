#include "base/stats/stats_json.h"

#include <cmath>

namespace ssdlab {

namespace {

// The object that holds the statistic `name` (its last segment returned in `leaf`), created on
// the way: "a.b[2].c" -> root["a"]["b"][2], leaf "c".
nlohmann::json& parent_of(nlohmann::json& root, const std::string& name, std::string& leaf) {
  nlohmann::json* node = &root;
  std::size_t start = 0;
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', start)) {
    const std::string segment = name.substr(start, dot - start);
    const std::size_t open = segment.find('[');
    if (open == std::string::npos) {
      node = &(*node)[segment];
    } else {
      const std::size_t index = std::stoul(segment.substr(open + 1));
      nlohmann::json& array = (*node)[segment.substr(0, open)];
      if (!array.is_array()) array = nlohmann::json::array();
      while (array.size() <= index) array.push_back(nlohmann::json::object());
      node = &array[index];
    }
    start = dot + 1;
  }
  leaf = name.substr(start);
  return *node;
}

nlohmann::json number(double v) {
  if (std::isnan(v)) return nullptr;
  if (std::floor(v) == v && std::fabs(v) < 9e15) return static_cast<std::int64_t>(v);
  return v;
}

}  // namespace

nlohmann::json stats_tree_json(const StatsDelta& delta) {
  nlohmann::json root = nlohmann::json::object();
  if (delta.empty()) return root;
  const std::vector<StatDef>& defs = delta.catalogue().defs();
  for (std::uint32_t i = 0; i < defs.size(); ++i) {
    std::string leaf;
    nlohmann::json& parent = parent_of(root, defs[i].name, leaf);
    switch (defs[i].kind) {
      case StatKind::kCounter:
        parent[leaf] = delta.count_at(i);
        break;
      case StatKind::kBusy:
        parent[leaf + "_s"] = double(delta.count_at(i)) / double(kPicosPerSec);
        parent[leaf + "_fraction"] = delta.busy_fraction_at(i);
        break;
      case StatKind::kLevel:
        parent[leaf] = number(delta.level_at(i));
        break;
      case StatKind::kRatio:
        parent[leaf] = number(delta.ratio_at(i));
        break;
    }
  }
  return root;
}

nlohmann::json stats_catalogue_json(const StatCatalogue& catalogue) {
  nlohmann::json out = nlohmann::json::object();
  const std::vector<StatDef>& defs = catalogue.defs();
  for (const StatDef& def : defs) {
    const std::string& name = def.pattern;
    if (def.kind == StatKind::kBusy) {
      out[name + "_s"] = {{"kind", "busy"}, {"unit", "s"}, {"description", def.description}};
      out[name + "_fraction"] = {
          {"kind", "busy"}, {"unit", "fraction"}, {"description", def.description + ", as a fraction of the phase"}};
      continue;
    }
    nlohmann::json entry = {{"kind", to_string(def.kind)}, {"unit", def.unit}, {"description", def.description}};
    if (def.kind == StatKind::kRatio) {
      auto sum = [&](const std::vector<std::uint32_t>& terms) {
        std::string s;
        for (const std::uint32_t k : terms) {
          const std::string& n = defs[k].name;
          s += (s.empty() ? "" : " + ") + n.substr(n.rfind('.') + 1);
        }
        return terms.size() > 1 ? "(" + s + ")" : s;
      };
      entry["of"] = sum(def.numerator) + " / " + sum(def.denominator);
    }
    out[name] = entry;
  }
  return out;
}

}  // namespace ssdlab
