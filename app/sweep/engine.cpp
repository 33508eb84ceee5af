#include "app/sweep/engine.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ssdlab::sweep {

bool TaskBook::take_attempt(const TaskRef& t) {
  unsigned& left = m_left[key(t)];
  if (left == 0) return false;
  --left;
  return true;
}

bool TaskBook::attempts_left(const TaskRef& t) const {
  const auto it = m_left.find(key(t));
  return it != m_left.end() && it->second > 0;
}

std::string task_label(const SweepRecord& r, const TaskRef& t) {
  std::string text;
  if (t.kind == TaskKind::kAging) {
    const AgeGroup& g = r.groups.at(t.index);
    return "for " + std::to_string(g.points) + " point" + (g.points == 1 ? "" : "s") + ", seed " +
           std::to_string(g.seed);
  }
  const Point& p = r.points.at(t.index);
  for (std::size_t a = 0; a < r.axes.size(); ++a) text += r.axes[a] + "=" + p.labels[a] + " ";
  return text + "seed " + std::to_string(p.seed);
}

std::string failure_summary(const Layout& layout, TaskKind kind, const std::string& id) {
  std::ifstream in(layout.failed_file(kind, id));
  if (!in) return "failed";
  std::stringstream text;
  text << in.rdbuf();
  try {
    const nlohmann::json j = nlohmann::json::parse(text.str());
    std::string status = j.at("status").get<std::string>();
    const std::string tail = j.at("log_tail").get<std::string>();
    const std::size_t end = tail.find_last_not_of("\r\n");
    if (end != std::string::npos) {
      const std::size_t nl = tail.find_last_of('\n', end);
      status +=
          ": " + tail.substr(nl == std::string::npos ? 0 : nl + 1, end - (nl == std::string::npos ? 0 : nl + 1) + 1);
    }
    return status;
  } catch (const std::exception&) {
    return "failed (unreadable " + layout.failed_file(kind, id).string() + ")";
  }
}

std::string TaskBook::finished_line(const TaskRef& t, double seconds) {
  const std::string& id = task_id(m_record, t);
  const bool done = m_layout.done(t.kind, id);
  const bool again = !done && attempts_left(t);  // not its end yet: not counted
  if (!again) ++m_finished;
  char head[64];
  const int width = int(std::to_string(m_order.size()).size());
  std::snprintf(head, sizeof head, "[%*zu/%zu] %-6s ", width, m_finished, m_order.size(), done ? "done" : "FAILED");
  std::string line = head + task_name(t) + "  " + id + "  " + task_label(m_record, t);
  if (seconds >= 0) {
    char wall[32];
    std::snprintf(wall, sizeof wall, "  %.1f s", seconds);
    line += wall;
  }
  if (!done) {
    line += "\n      " + failure_summary(m_layout, t.kind, id);
    if (again) line += " (will be retried)";
  }
  return line;
}

}  // namespace ssdlab::sweep
