// `ssdlab serve`: assembles drive, bridge and NBD server, then runs the kernel in this thread,
// paced against the wall clock or as fast as it goes.
#include "app/serve/serve.h"

#include <signal.h>
#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/run/phase_meter.h"
#include "app/run/report.h"
#include "app/serve/serve_bridge.h"
#include "app/serve/serve_pacing.h"
#include "base/config/config_loader.h"
#include "base/core/units.h"
#include "base/time/timeline.h"

namespace ssdlab {

namespace {

double us(double ps) { return ps / double(kPicosPerUs); }

// The command line's bounds on what clients may make the server hold; a bad one is refused
// naming its option.
nbd::Limits serve_limits(const ServeOptions& o) {
  nbd::Limits l;
  auto bytes = [](const std::string& option, const std::string& text) {
    std::uint64_t v = 0;
    try {
      v = parse_size(text);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(option + ": " + e.what());
    }
    if (v == 0) throw std::runtime_error(option + " must be above 0, got '" + text + "'");
    return v;
  };
  l.connection_bytes = bytes("--max-connection-bytes", o.max_connection_bytes);
  l.server_bytes = bytes("--max-server-bytes", o.max_server_bytes);
  if (o.max_connections == 0) throw std::runtime_error("--max-connections must be at least 1");
  l.max_connections = o.max_connections;
  if (!(o.handshake_timeout_s > 0) || o.handshake_timeout_s > 86400) {
    throw std::runtime_error("--handshake-timeout must be between 0 and 86400 seconds, got " +
                             std::to_string(o.handshake_timeout_s));
  }
  l.handshake_timeout = std::chrono::milliseconds(std::max<long long>(1, std::llround(o.handshake_timeout_s * 1000)));
  if (l.connection_bytes < nbd::kPieceBytes) {
    throw std::runtime_error("--max-connection-bytes must be at least " + format_size(nbd::kPieceBytes) +
                             " (a piece of a request), got '" + o.max_connection_bytes + "'");
  }
  l.max_connections_per_peer =
      o.max_connections_per_peer != 0 ? o.max_connections_per_peer : std::max(1u, o.max_connections * 3 / 4);
  if (!(o.idle_timeout_s >= 0) || o.idle_timeout_s > 864000) {
    throw std::runtime_error("--idle-timeout must be between 0 (never) and 864000 seconds, got " +
                             std::to_string(o.idle_timeout_s));
  }
  l.idle_timeout = std::chrono::milliseconds(std::llround(o.idle_timeout_s * 1000));
  return l;
}

// SIGINT or SIGTERM before the NBD server handles them (while the drive is built and its image
// restored): remembered here, and the restore stops.
std::atomic<bool> g_early_stop{false};
std::atomic<int> g_early_signal{0};
void on_early_signal(int signo) {
  g_early_signal.store(signo);
  g_early_stop.store(true);
}
void catch_early_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_early_signal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}
int stopped_before_serving(const ServeOptions& o, const char* when) {
  std::printf("%s %s: stopped before serving%s\n", g_early_signal.load() == SIGINT ? "SIGINT" : "SIGTERM", when,
              o.image_path.empty() ? "" : ("; " + o.image_path + " is unchanged").c_str());
  std::fflush(stdout);
  return 0;
}

// One line when realtime pacing fell behind the wall clock: clients then measured lag on top of
// the model's latencies. Empty when it kept up (under 1 % of steps late and no lag over 1 ms).
std::string pacing_note(const Pacer& pacer) {
  if (!pacer.realtime() || pacer.steps() == 0) return {};
  const double share = double(pacer.late_steps()) / double(pacer.steps());
  const double lag_ms = double(pacer.max_lag()) / double(kPicosPerMs);
  if (share < 0.01 && lag_ms <= 1.0) return {};
  char line[400];
  std::snprintf(line, sizeof line,
                "pacing ran late: %.1f %% of %llu kernel steps ran more than 20 us behind the wall clock, at most "
                "%.1f ms: clients measured that lag on top of the model (its latencies are in summary.json; "
                "figures come from `ssdlab run`)",
                100.0 * share, static_cast<unsigned long long>(pacer.steps()), lag_ms);
  return line;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Everything the hooks need, alive for the whole run.
struct Session {
  Session(const ServeOptions& o, const DriveConfig& c, Ssd& s, Pacer& p) : options(o), config(c), ssd(s), pacer(p) {}

  const ServeOptions& options;
  const DriveConfig& config;
  Ssd& ssd;
  Pacer& pacer;
  PhaseMeter meter;
  WallClock::time_point wall_start = WallClock::now();
  nbd::Server* server = nullptr;
  ServeBridge* bridge = nullptr;

  bool save() {
    const auto t0 = WallClock::now();
    bool ok = true;
    try {
      const ImageInfo info = ssd.control().save_image(options.image_path);
      const double ms = std::chrono::duration<double, std::milli>(WallClock::now() - t0).count();
      std::printf("image %s saved: %llu blocks of data, %.1f MiB, %.0f ms\n", options.image_path.c_str(),
                  static_cast<unsigned long long>(info.data_blocks), double(info.file_bytes) / double(1 << 20), ms);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ssdlab serve: image not saved: %s\n", e.what());
      ok = false;
    }
    pacer.shift(WallClock::now() - t0);  // simulated time stood still meanwhile
    return ok;
  }

  void stats() {
    const auto t0 = WallClock::now();
    PhaseResult r;
    r.name = "serve";
    r.kind = "serve";
    meter.end(ssd, r);
    r.io = bridge->io_stats();
    r.wall_seconds = std::chrono::duration<double>(t0 - wall_start).count();
    print_table(std::cout, {r});
    const NbdStats& n = bridge->nbd_stats();
    const nbd::ServerCounters& c = server->counters();
    nlohmann::json requests;
    for (std::size_t k = 0; k < NbdStats::kKinds; ++k) {
      requests[nbd::to_string(static_cast<nbd::IoKind>(k))] = {{"count", n.requests[k]},
                                                               {"bytes", n.bytes[k]},
                                                               {"errors", n.errors[k]},
                                                               {"latency_us", latency_json(n.latency_ps[k])}};
    }
    nlohmann::json nj = {
        {"endpoint", server->endpoint()},
        {"pace", options.pace},
        {"export_bytes", config.controller.user_bytes},
        {"connections", c.connections.load()},
        {"refused_connections", c.refused_connections.load()},
        {"peer_refusals", c.peer_refusals.load()},
        {"handshake_timeouts", c.handshake_timeouts.load()},
        {"idle_timeouts", c.idle_timeouts.load()},
        {"accept_backoffs", c.accept_backoffs.load()},
        {"memory_waits", c.memory_waits.load()},
        {"pieced_requests", c.pieced_requests.load()},
        {"broken_replies", c.broken_replies.load()},
        {"peak_held_bytes", c.peak_held_bytes.load()},
        {"limits",
         {{"connection_bytes", server->limits().connection_bytes},
          {"server_bytes", server->limits().server_bytes},
          {"piece_bytes", nbd::kPieceBytes},
          {"max_connections", server->limits().max_connections},
          {"max_connections_per_peer", server->limits().max_connections_per_peer},
          {"handshake_timeout_s", double(server->limits().handshake_timeout.count()) / 1e3},
          {"idle_timeout_s", double(server->limits().idle_timeout.count()) / 1e3}}},
        {"bad_handshakes", c.bad_handshakes.load()},
        {"rejected_requests", c.rejected.load()},
        {"lost_mid_request", c.lost_mid_request.load()},
        {"requests", requests},
        {"image", options.image_path},
        {"image_saves", n.image_saves},
        {"image_save_failures", n.image_save_failures},
        {"reply_handover_us",
         {{"mean", c.handovers ? double(c.handover_ns_sum.load()) / 1e3 / double(c.handovers.load()) : 0.0},
          {"max", double(c.handover_ns_max.load()) / 1e3}}},
        {"request_pickup_us",
         {{"mean", n.pickups ? double(n.pickup_ns_sum) / 1e3 / double(n.pickups) : 0.0},
          {"max", double(n.pickup_ns_max) / 1e3}}},
        {"pacing",
         {{"steps", pacer.steps()},
          {"late_steps", pacer.late_steps()},
          {"max_lag_us", us(double(pacer.max_lag()))},
          {"reply_late_us", {{"mean", us(pacer.reply_late_mean())}, {"max", us(double(pacer.reply_late_max()))}}}}}};
    std::printf(
        "nbd: %llu connections, %llu read / %llu write / %llu trim / %llu flush requests, %llu refused; "
        "read latency %.1f us mean, write %.1f us (simulated)\n",
        static_cast<unsigned long long>(c.connections.load()), static_cast<unsigned long long>(n.requests[0]),
        static_cast<unsigned long long>(n.requests[1]), static_cast<unsigned long long>(n.requests[2]),
        static_cast<unsigned long long>(n.requests[3]), static_cast<unsigned long long>(c.rejected.load()),
        us(n.latency_ps[0].mean()), us(n.latency_ps[1].mean()));
    std::fflush(stdout);
    ScenarioSpec spec;
    spec.name = "serve";
    spec.path = options.drive_path;
    spec.seed = 0;
    nlohmann::json j = nlohmann::json::parse(summary_json(spec, config, {r}));
    j["nbd"] = nj;
    try {
      write_file(std::filesystem::path(options.out_dir) / "summary.json", j.dump(2) + "\n");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ssdlab serve: %s\n", e.what());
    }
    pacer.shift(WallClock::now() - t0);
  }
};

// The Asio side hands requests over through the inbox.
class InboxBackend : public nbd::Backend {
 public:
  explicit InboxBackend(Inbox& inbox) : m_inbox(inbox) {}
  void submit(nbd::IoPtr io) override {
    InboxItem item;
    item.arrival = io->arrival;
    item.io = std::move(io);
    m_inbox.post(std::move(item));
  }

 private:
  Inbox& m_inbox;
};

}  // namespace

int run_serve(const ServeOptions& options) {
  if (options.pace != "realtime" && options.pace != "none") {
    throw std::runtime_error("--pace must be realtime or none, got '" + options.pace + "'");
  }
  const nbd::Limits limits = serve_limits(options);
  catch_early_signals();
  const DriveConfig config = load_drive_config(options.drive_path, options.overrides);
  Pacer pacer(options.pace == "realtime");
  Ssd ssd("ssd", config, /*keep_data=*/true);
  // Requests arrive from outside the simulation at SystemC's current time: the drive must not
  // have run ahead of it.
  ssd.timeline.set_lookahead(false);
  Session session{options, config, ssd, pacer};
  ServeHooks hooks;
  hooks.reply = [&session, &pacer](nbd::IoPtr io) {
    pacer.note_reply(now_picos());
    session.server->complete(std::move(io));
  };
  hooks.sim_time_of = [&pacer](WallClock::time_point t) { return pacer.sim_time_of(t); };
  hooks.save_image = [&session] { return session.save(); };
  hooks.stats = [&session] { session.stats(); };
  ServeBridge bridge("serve", ssd, !options.image_path.empty(), hooks);
  session.bridge = &bridge;
  bridge.register_stats(ssd.stats.group("nbd"));

  if (g_early_stop) return stopped_before_serving(options, "while the drive was built");
  if (!options.image_path.empty()) {
    std::vector<std::string> removed;
    if (std::filesystem::exists(options.image_path)) {
      ImageInfo info;
      try {
        info = ssd.control().load_image(options.image_path, &g_early_stop);
      } catch (const ImageLoadInterrupted&) {
        return stopped_before_serving(options, "during the image restore");
      }
      removed = info.removed_temporaries;
      std::printf("image %s restored: %llu blocks of data, %llu host units written before\n",
                  options.image_path.c_str(), static_cast<unsigned long long>(info.data_blocks),
                  static_cast<unsigned long long>(ssd.controller.ftl().stats().host_units_written));
    } else {
      removed = remove_stale_temporaries(options.image_path);
      std::printf("image %s: new (saved on FLUSH and at shutdown)\n", options.image_path.c_str());
    }
    for (const std::string& name : removed) std::printf("removed %s, left by a save that was killed\n", name.c_str());
  }
  std::filesystem::create_directories(options.out_dir);
  write_file(std::filesystem::path(options.out_dir) / "config.yaml", effective_config_yaml(config));

  nbd::Export ex;
  ex.name = options.export_name.empty() ? config.name : options.export_name;
  ex.description = config.description;
  ex.size = config.controller.user_bytes;
  ex.flags = nbd::kTxHasFlags | nbd::kTxSendFlush | nbd::kTxSendFua | nbd::kTxCanMultiConn;
  if (config.controller.trim) ex.flags |= nbd::kTxSendTrim;
  ex.min_block = kSectorBytes;
  ex.preferred_block = std::max<std::uint32_t>(4096, config.controller.mapping_unit_bytes);
  ex.max_block = 32u << 20;
  InboxBackend backend(bridge.inbox);
  nbd::Server server(ex, backend, limits);
  session.server = &server;
  if (!options.socket_path.empty()) {
    server.listen_unix(options.socket_path);
  } else {
    server.listen_tcp(options.listen);
  }
  bool stopping = false;  // Asio thread only
  server.handle_signals([&](int signo) {
    const InboxItem::Kind kind = signo == SIGUSR1 ? InboxItem::Kind::kStats : InboxItem::Kind::kShutdown;
    if (kind == InboxItem::Kind::kShutdown) {
      if (stopping) return;
      stopping = true;
      std::printf("%s: finishing requests in flight, then stopping\n", signo == SIGINT ? "SIGINT" : "SIGTERM");
      std::fflush(stdout);
      server.stop_intake();  // after this no request reaches the inbox
    }
    InboxItem item;
    item.kind = kind;
    item.arrival = WallClock::now();
    bridge.inbox.post(std::move(item));
  });

  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration done, processes initialised
  session.meter.begin(ssd);
  pacer.anchor(now_picos());
  const std::string scheme =
      options.socket_path.empty() ? "nbd://" + server.endpoint() : "nbd+unix:///?socket=" + options.socket_path;
  std::printf("ssdlab serve: drive %s, %s (%llu bytes), pace %s, export '%s' at %s\n", config.name.c_str(),
              format_size(config.controller.user_bytes).c_str(),
              static_cast<unsigned long long>(config.controller.user_bytes), options.pace.c_str(), ex.name.c_str(),
              scheme.c_str());
  // From here the server's signal handling has replaced catch_early_signals(): a signal that came
  // before stops us now, any later one reaches the handler above.
  if (g_early_stop) return stopped_before_serving(options, "before the server started");
  std::printf("listening on %s\n", server.endpoint().c_str());
  std::fflush(stdout);
  server.set_busy_poll(pacer.realtime());
  server.start();

  ::prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  if (pacer.realtime()) {
    const auto spin = std::chrono::duration_cast<WallClock::duration>(
        std::chrono::duration<double, std::micro>(std::max(0.0, options.spin_us)));
    run_realtime(bridge, pacer, spin);
  } else {
    run_unpaced(bridge);
  }
  server.shutdown();
  const std::string late = pacing_note(pacer);
  if (!late.empty()) std::printf("%s\n", late.c_str());
  std::printf("stopped; statistics in %s\n", (std::filesystem::path(options.out_dir) / "summary.json").c_str());
  std::fflush(stdout);
  if (bridge.shutdown_save_failed()) {
    std::fprintf(stderr,
                 "ssdlab serve: the image %s could not be saved at shutdown: it holds the drive as last saved, what "
                 "was written since is lost\n",
                 options.image_path.c_str());
    return 1;
  }
  return 0;
}

}  // namespace ssdlab
