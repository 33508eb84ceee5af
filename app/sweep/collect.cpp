#include "app/sweep/collect.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "app/sweep/child_process.h"
#include "app/sweep/flatten.h"
#include "app/sweep/layout.h"

namespace ssdlab::sweep {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::uintmax_t kMaxSummaryBytes = 256u << 20;
constexpr std::size_t kMaxFigureColumns = 1800;  // SQLite allows 2000 columns in a table
constexpr int kExitNoMatplotlib = 3;             // the plot script's "matplotlib cannot be imported"

struct Row {
  std::size_t point = 0;
  std::size_t phase_index = 0;
  std::string phase, kind;
  std::vector<std::pair<std::size_t, Json>> figures;  // column index, value
};

struct Table {
  std::vector<std::string> columns;
  std::map<std::string, std::size_t> index;
  std::vector<Row> rows;
  std::size_t dropped_columns = 0;
};

Json read_summary(const fs::path& path) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw std::runtime_error(path.string() + ": cannot read: " + ec.message());
  if (size > kMaxSummaryBytes)
    throw std::runtime_error(path.string() + ": " + std::to_string(size) + " bytes, too large");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  try {
    return Json::parse(text.str());
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": not JSON: " + e.what());
  }
}

void add_phases(Table& t, std::size_t point, const Json& summary, const fs::path& path) {
  if (!summary.contains("phases") || !summary["phases"].is_array())
    throw std::runtime_error(path.string() + ": no phases list");
  std::size_t i = 0;
  for (const Json& phase : summary["phases"]) {
    Row row;
    row.point = point;
    row.phase_index = i++;
    if (phase.contains("name") && phase["name"].is_string()) row.phase = phase["name"].get<std::string>();
    if (phase.contains("kind") && phase["kind"].is_string()) row.kind = phase["kind"].get<std::string>();
    for (auto& [column, value] : flatten_phase(phase)) {
      auto it = t.index.find(column);
      if (it == t.index.end()) {
        if (t.columns.size() == kMaxFigureColumns) {
          ++t.dropped_columns;
          continue;
        }
        it = t.index.emplace(column, t.columns.size()).first;
        t.columns.push_back(column);
      }
      row.figures.emplace_back(it->second, std::move(value));
    }
    t.rows.push_back(std::move(row));
  }
}

std::string quoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  return quoted(text);
}

// A label as SQL and CSV take it: an integer, a number, else text.
Json label_value(const std::string& label) {
  if (label.empty()) return label;
  char* end = nullptr;
  const long long i = std::strtoll(label.c_str(), &end, 10);
  if (*end == '\0') return i;
  const double d = std::strtod(label.c_str(), &end);
  if (*end == '\0') return d;
  return label;
}

std::string csv_value(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return csv_text(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  return v.dump();
}

class Db {
 public:
  explicit Db(const std::string& path) {
    if (sqlite3_open(path.c_str(), &m_db) != SQLITE_OK) fail("cannot create " + path);
    exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN");
  }
  ~Db() {
    if (m_stmt) sqlite3_finalize(m_stmt);
    sqlite3_close(m_db);
  }
  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string why = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error("sqlite: " + why + " in: " + sql.substr(0, 200));
    }
  }
  void prepare(const std::string& sql) {
    if (m_stmt) sqlite3_finalize(m_stmt);
    m_stmt = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &m_stmt, nullptr) != SQLITE_OK)
      fail("cannot prepare " + sql.substr(0, 200));
  }
  void bind(int i, const Json& v) {
    int rc = SQLITE_OK;
    if (v.is_null()) {
      rc = sqlite3_bind_null(m_stmt, i);
    } else if (v.is_boolean()) {
      rc = sqlite3_bind_int64(m_stmt, i, v.get<bool>() ? 1 : 0);
    } else if (v.is_number_integer() && !v.is_number_unsigned()) {
      rc = sqlite3_bind_int64(m_stmt, i, v.get<std::int64_t>());
    } else if (v.is_number_unsigned() && v.get<std::uint64_t>() <= std::uint64_t(INT64_MAX)) {
      rc = sqlite3_bind_int64(m_stmt, i, std::int64_t(v.get<std::uint64_t>()));
    } else if (v.is_number()) {
      rc = sqlite3_bind_double(m_stmt, i, v.get<double>());
    } else {
      const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
      rc = sqlite3_bind_text(m_stmt, i, text.c_str(), int(text.size()), SQLITE_TRANSIENT);
    }
    if (rc != SQLITE_OK) fail("cannot bind a value");
  }
  void step() {
    if (sqlite3_step(m_stmt) != SQLITE_DONE) fail("cannot insert a row");
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("sqlite: " + what + ": " + sqlite3_errmsg(m_db));
  }
  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_stmt = nullptr;
};

std::string placeholders(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += i ? ",?" : "?";
  return s;
}

void write_database(const fs::path& path, const SweepRecord& r, const std::vector<std::string>& states,
                    const Table& t) {
  std::error_code ec;
  fs::remove(path, ec);
  Db db(path.string());
  std::string points =
      "CREATE TABLE points (id TEXT PRIMARY KEY, idx INTEGER, seed INTEGER, status TEXT, age_group TEXT";
  for (const std::string& a : r.axes) points += ", " + quoted(a);
  for (const std::string& d : r.derived_keys) points += ", " + quoted(d);
  db.exec(points + ")");
  std::string phases =
      "CREATE TABLE phases (point_id TEXT REFERENCES points(id), phase_index INTEGER, phase TEXT, kind TEXT";
  for (const std::string& c : t.columns) phases += ", " + quoted(c);
  db.exec(phases + ", PRIMARY KEY (point_id, phase_index))");
  db.exec("CREATE VIEW results AS SELECT * FROM points JOIN phases ON phases.point_id = points.id");

  db.prepare("INSERT INTO points VALUES (" + placeholders(5 + r.axes.size() + r.derived_keys.size()) + ")");
  for (const Point& p : r.points) {
    int i = 1;
    db.bind(i++, p.id);
    db.bind(i++, p.index);
    db.bind(i++, p.seed);
    db.bind(i++, states[p.index]);
    db.bind(i++, p.group >= 0 ? Json(r.groups[std::size_t(p.group)].id) : Json());
    for (const std::string& label : p.labels) db.bind(i++, label_value(label));
    for (const auto& [key, value] : p.derived) db.bind(i++, label_value(value));
    db.step();
  }
  db.prepare("INSERT INTO phases VALUES (" + placeholders(4 + t.columns.size()) + ")");
  for (const Row& row : t.rows) {
    db.bind(1, r.points[row.point].id);
    db.bind(2, row.phase_index);
    db.bind(3, row.phase);
    db.bind(4, row.kind);
    for (const auto& [column, value] : row.figures) db.bind(5 + int(column), value);
    db.step();
  }
  db.exec("COMMIT");
}

std::string csv_table(const SweepRecord& r, const Table& t) {
  std::ostringstream out;
  out << "id,seed";
  for (const std::string& a : r.axes) out << "," << csv_text(a);
  for (const std::string& d : r.derived_keys) out << "," << csv_text(d);
  out << ",phase_index,phase,kind";
  for (const std::string& c : t.columns) out << "," << csv_text(c);
  out << "\n";
  for (const Row& row : t.rows) {
    const Point& p = r.points[row.point];
    out << p.id << "," << p.seed;
    for (const std::string& label : p.labels) out << "," << csv_text(label);
    for (const auto& [key, value] : p.derived) out << "," << csv_text(value);
    out << "," << row.phase_index << "," << csv_text(row.phase) << "," << csv_text(row.kind);
    std::vector<const Json*> cells(t.columns.size(), nullptr);
    for (const auto& [column, value] : row.figures) cells[column] = &value;
    for (const Json* v : cells) out << "," << (v ? csv_value(*v) : "");
    out << "\n";
  }
  return out.str();
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string plot_script() {
  std::vector<std::string> candidates;
  if (!env("SSDLAB_SWEEP_PLOTS_SCRIPT").empty()) candidates.push_back(env("SSDLAB_SWEEP_PLOTS_SCRIPT"));
  try {
    candidates.push_back((fs::path(self_executable()).parent_path() / "ssdlab_sweep_plots.py").string());
  } catch (const std::exception&) {}
#ifdef SSDLAB_SWEEP_PLOTS_SOURCE
  candidates.push_back(SSDLAB_SWEEP_PLOTS_SOURCE);
#endif
  for (const std::string& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) return c;
  }
  return "";
}

// 0 written, 1 the script failed; a notice (0) without python3, matplotlib or the script.
int draw_plots(const std::string& out, const std::vector<std::string>& figures) {
  const std::string script = plot_script();
  if (script.empty()) {
    std::cout << "plots skipped: ssdlab_sweep_plots.py not found (next to the ssdlab binary or in its source tree)\n";
    return 0;
  }
  std::vector<std::string> pythons{"python3", "/usr/bin/python3"};
  if (!env("SSDLAB_PYTHON").empty()) pythons = {env("SSDLAB_PYTHON")};
  for (const std::string& python : pythons) {
    std::vector<std::string> argv{python, script, out};
    for (const std::string& f : figures) argv.insert(argv.end(), {"--figure", f});
    const Captured c = run_captured(argv);
    if (!c.started || c.status.code == kExitNoMatplotlib || c.status.code == 127) continue;
    std::cout << c.out;
    if (c.status.ok()) return 0;
    std::cerr << "ssdlab: sweep collect: plots: " << script << " failed (" << c.status.text() << "):\n" << c.err;
    return 1;
  }
  std::cout << "plots skipped: python3-matplotlib not installed\n";
  return 0;
}

}  // namespace

CollectSummary collect_results(const std::string& out) {
  const SweepRecord r = read_record(out);
  const Layout layout{fs::path(out)};
  CollectSummary s;
  Table t;
  std::vector<std::string> states(r.points.size());
  for (const Point& p : r.points) {
    const TaskState st = layout.state(TaskKind::kPoint, p.id);
    states[p.index] = to_string(st);
    if (st == TaskState::kDone) {
      const fs::path path = layout.done_dir(TaskKind::kPoint, p.id) / "summary.json";
      add_phases(t, p.index, read_summary(path), path);
      ++s.done;
    } else if (st == TaskState::kFailed) {
      ++s.failed;
    } else {
      ++s.pending;
    }
  }
  s.phase_rows = t.rows.size();
  s.figure_columns = t.columns.size();
  if (t.dropped_columns)
    std::cerr << "ssdlab: sweep collect: " << t.dropped_columns << " figure columns past the first "
              << kMaxFigureColumns << " left out\n";
  const std::string pid = std::to_string(::getpid());
  const fs::path db = layout.out() / "results.sqlite", db_tmp = layout.out() / (".results.sqlite.tmp-" + pid);
  try {
    write_database(db_tmp, r, states, t);
  } catch (...) {
    std::error_code ec;
    fs::remove(db_tmp, ec);
    throw;
  }
  fs::rename(db_tmp, db);
  write_file_atomic(layout.out() / "results.csv", csv_table(r, t));
  return s;
}

int run_collect(const CollectOptions& options) {
  const CollectSummary s = collect_results(options.out);
  const fs::path out(options.out);
  std::cout << "collected " << s.done << " point" << (s.done == 1 ? "" : "s") << " (" << s.failed << " failed, "
            << s.pending << " not run): " << s.phase_rows << " phase rows, " << s.figure_columns << " figures, in "
            << (out / "results.sqlite").string() << " and " << (out / "results.csv").string() << "\n";
  if (options.plots.empty()) return 0;
  return draw_plots(options.out, options.plots);
}

}  // namespace ssdlab::sweep
