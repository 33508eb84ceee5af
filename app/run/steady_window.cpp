#include "app/run/steady_window.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ssdlab {

LineFit fit_line(const double* y, std::size_t n) {
  LineFit f;
  if (n == 0) return f;
  double sy = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sy += y[i];
    sxy += double(i) * y[i];
  }
  const double dn = double(n), sx = dn * (dn - 1) / 2, sxx = (dn - 1) * dn * (2 * dn - 1) / 6;
  f.mean = sy / dn;
  const double den = sxx - sx * sx / dn;
  if (den > 0) f.slope = (sxy - sx * sy / dn) / den;
  return f;
}

namespace {

// Relative drift over the window: slope x length / mean (0 for a window without I/O).
double drift_of(const LineFit& f, std::size_t n) { return f.mean > 0 ? f.slope * double(n) / f.mean : 0.0; }

}  // namespace

SteadyWindow steady_window(const std::vector<Sample>& samples, std::size_t first, std::size_t last, double io_start_s,
                           double io_end_s, double phase_iops) {
  SteadyWindow w;
  // Whole intervals inside the I/O window: not the one that began in the phase before, nor
  // those after the host's last completion (the buffer's drain).
  std::vector<std::size_t> rows;
  constexpr double kSlack = 1e-12;
  for (std::size_t i = first; i < last; ++i) {
    const Sample& s = samples[i];
    if (s.start_s + kSlack >= io_start_s && s.time_s <= io_end_s + kSlack) rows.push_back(i);
  }
  w.intervals_total = static_cast<std::uint32_t>(rows.size());
  if (rows.size() < kMinSteadyIntervals) return w;
  w.judged = true;
  std::vector<double> iops(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) iops[k] = samples[rows[k]].iops;
  const std::size_t n = rows.size();
  const std::size_t tail = std::max<std::size_t>(kMinSteadyIntervals, n / 3);
  const LineFit last_fit = fit_line(iops.data() + (n - tail), tail);
  w.drift = drift_of(last_fit, tail);
  w.steady = last_fit.mean > 0 && std::abs(w.drift) <= kDriftLimit;
  std::size_t begin = n - tail;
  if (w.steady) {
    // The longest passing run ending with the phase (suffix sums: O(1) per start).
    double sy = 0, sky = 0;  // sums of y and of k*y over [k0, n), k from the array's start
    std::size_t best = n - tail;
    for (std::size_t k = n; k-- > 0;) {
      sy += iops[k];
      sky += double(k) * iops[k];
      const std::size_t len = n - k;
      if (len < tail) continue;
      // Shift x to start at 0: sum (k' - k) y = sky - k sy.
      const double dn = double(len), sx = dn * (dn - 1) / 2, sxx = (dn - 1) * dn * (2 * dn - 1) / 6;
      const double sxy = sky - double(k) * sy;
      const double mean = sy / dn, den = sxx - sx * sx / dn;
      const double slope = den > 0 ? (sxy - sx * sy / dn) / den : 0.0;
      const bool passes = mean > 0 && std::abs(slope * dn / mean) <= kDriftLimit &&
                          std::abs(mean - last_fit.mean) <= kDriftLimit * last_fit.mean;
      if (passes) best = k;
    }
    begin = best;
  }
  // The window's figures (the last third when the phase is not steady).
  double seconds = 0, ios = 0, rd = 0, wr = 0;
  std::uint64_t host = 0, nand = 0;
  for (std::size_t k = begin; k < n; ++k) {
    const Sample& s = samples[rows[k]];
    const double dt = s.time_s - s.start_s;
    seconds += dt;
    ios += s.iops * dt;
    rd += s.read_mbps * dt;
    wr += s.write_mbps * dt;
    host += s.host_units;
    nand += s.nand_units;
  }
  w.start_s = samples[rows[begin]].start_s;
  w.end_s = samples[rows[n - 1]].time_s;
  w.intervals = static_cast<std::uint32_t>(n - begin);
  if (seconds > 0) {
    w.iops = ios / seconds;
    w.read_mbps = rd / seconds;
    w.write_mbps = wr / seconds;
  }
  if (host) w.waf = double(nand) / double(host);
  w.mixes_regimes = !w.steady || (w.iops > 0 && std::abs(phase_iops - w.iops) > kMixLimit * w.iops);
  return w;
}

FioSteadyCheck fio_steady_check(const SteadyStateSpec& spec, const double* y, std::size_t n) {
  FioSteadyCheck c;
  if (n == 0) return c;
  const LineFit f = fit_line(y, n);
  c.mean = f.mean;
  c.slope = f.slope;
  for (std::size_t i = 0; i < n; ++i) c.max_deviation = std::max(c.max_deviation, std::abs(y[i] - f.mean));
  const double value = spec.slope() ? c.slope : c.max_deviation;
  c.criterion = spec.percent ? (c.mean > 0 ? 100.0 * value / c.mean : 0.0) : value;
  c.holds = std::abs(c.criterion) < spec.limit;
  return c;
}

nlohmann::json fio_steady_json(const FioSteadyState& s) {
  nlohmann::json j;
  j["ss"] = to_string(s.spec);
  j["duration"] = std::uint64_t(s.spec.duration_ps / kPicosPerSec);
  j["attained"] = s.attained ? 1 : 0;
  char crit[64];
  std::snprintf(crit, sizeof crit, s.spec.percent ? "%f%%" : "%f", s.criterion);
  j["criterion"] = crit;
  j["max_deviation"] = s.max_deviation;
  j["slope"] = s.slope;
  double iops_mean = 0, bw_mean = 0;
  nlohmann::json iops = nlohmann::json::array(), bw = nlohmann::json::array();
  for (double v : s.iops) {
    iops.push_back(std::uint64_t(std::llround(v)));
    iops_mean += v / double(s.iops.size());
  }
  for (double v : s.bw) {
    bw.push_back(std::uint64_t(std::llround(v / 1024)));
    bw_mean += v / 1024 / double(s.bw.size());
  }
  j["data"] = {{"bw_mean", std::uint64_t(std::llround(bw_mean))},
               {"iops_mean", std::uint64_t(std::llround(iops_mean))},
               {"iops", iops},
               {"bw", bw}};
  return j;
}

nlohmann::json steady_json(const SteadyWindow& w) {
  nlohmann::json j;
  j["judged"] = w.judged;
  j["intervals"] = w.intervals_total;
  if (!w.judged) {
    j["steady"] = nullptr;
    return j;
  }
  j["steady"] = w.steady;
  j["drift"] = w.drift;
  j["drift_limit"] = kDriftLimit;
  j["mixes_regimes"] = w.mixes_regimes;
  nlohmann::json win = {{"start_s", w.start_s}, {"end_s", w.end_s},         {"intervals", w.intervals},
                        {"iops", w.iops},       {"read_mbps", w.read_mbps}, {"write_mbps", w.write_mbps}};
  if (w.waf >= 0) {
    win["waf"] = w.waf;
  } else {
    win["waf"] = nullptr;
  }
  j[w.steady ? "window" : "last_third"] = win;
  return j;
}

namespace {

std::string fixed(double v, const char* fmt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

std::string steady_words(const nlohmann::json& steady, double phase_iops) {
  if (!steady.value("judged", false)) {
    return "steadiness not judged: " + std::to_string(steady.value("intervals", 0)) +
           " whole time-series intervals in the I/O (needs " + std::to_string(kMinSteadyIntervals) +
           "; a shorter sample_interval gives more)";
  }
  const bool is_steady = steady.value("steady", false);
  const nlohmann::json& win = steady.at(is_steady ? "window" : "last_third");
  const double drift = 100 * steady.value("drift", 0.0);
  std::string figures = fixed(win.value("iops", 0.0), "%.0f") + " IOPS";
  if (win.value("read_mbps", 0.0) > 0) figures += ", " + fixed(win.value("read_mbps", 0.0), "%.1f") + " MB/s read";
  if (win.value("write_mbps", 0.0) > 0) figures += ", " + fixed(win.value("write_mbps", 0.0), "%.1f") + " MB/s written";
  if (win.contains("waf") && win["waf"].is_number()) figures += ", WAF " + fixed(win["waf"].get<double>(), "%.2f");
  const std::string span =
      fixed(win.value("start_s", 0.0), "%.3f") + "-" + fixed(win.value("end_s", 0.0), "%.3f") + " s";
  const std::string drift_text = "IOPS drifted " + fixed(drift, "%+.1f") +
                                 " % over the last third of the phase, limit " + fixed(100 * kDriftLimit, "%.0f") +
                                 " %";
  const std::string mean = fixed(phase_iops, "%.0f") + " IOPS";
  if (!is_steady) {
    return "WARNING not steady: " + drift_text + "; the phase's mean (" + mean + ") mixes regimes; its last third (" +
           span + "): " + figures;
  }
  if (steady.value("mixes_regimes", false)) {
    return "WARNING steady only at the end (" + drift_text + "): the phase's mean (" + mean +
           ") mixes regimes; steady window " + span + ": " + figures;
  }
  return "steady (" + drift_text + "); steady window " + span + ": " + figures;
}

}  // namespace ssdlab
