// `ssdlab serve`'s command line (serve.h): its options and its help.
#include <CLI/CLI.hpp>

#include "app/serve/serve.h"

namespace ssdlab {

CLI::App* add_serve_command(CLI::App& app, ServeOptions& o) {
  CLI::App* cmd =
      app.add_subcommand("serve", "serve the drive over NBD (fio, qemu-io, nbdcopy, nbdfuse) until SIGINT/SIGTERM");
  cmd->footer(
      "Serving is for functional use and demonstrations: real programs on the modelled drive. With --pace realtime "
      "a client's latency is the modelled one plus its own cost, the loopback and whatever lag the host adds (the "
      "exit line says when pacing ran late). The drive's figures come from `ssdlab run` (and the simulated "
      "latencies in summary.json), not from what a client measures. See docs/nbd.md.");
  cmd->add_option("--drive,-d", o.drive_path, "drive config YAML (configs/*.yaml)")->required();
  cmd->add_option("-p,--param", o.overrides, "override a drive config key");
  auto* listen_opt =
      cmd->add_option("--listen,-l", o.listen, "TCP address HOST:PORT (port 0: any free port)")->capture_default_str();
  cmd->add_option("--socket,-s", o.socket_path, "serve on a Unix socket instead of TCP")->excludes(listen_opt);
  cmd->add_option("--pace", o.pace,
                  "realtime: completions at their simulated time on the wall clock; none: as fast as possible")
      ->capture_default_str()
      ->check(CLI::IsMember({"realtime", "none"}));
  cmd->add_option("--image,-i", o.image_path,
                  "keep the drive in FILE: restored at start, saved on FLUSH and at shutdown");
  cmd->add_option("--out,-o", o.out_dir, "statistics directory (summary.json, config.yaml)")->capture_default_str();
  cmd->add_option("--export-name", o.export_name, "NBD export name (default: the drive's name)");
  cmd->add_option("--spin-us", o.spin_us, "realtime: microseconds busy-waited before each event instead of sleeping")
      ->capture_default_str();
  cmd->add_option("--max-connection-bytes", o.max_connection_bytes,
                  "READ/WRITE bytes one connection may hold (at least 128KiB); then its requests wait")
      ->capture_default_str();
  cmd->add_option("--max-server-bytes", o.max_server_bytes,
                  "READ/WRITE bytes all connections together may hold, beyond 128KiB each; larger requests are "
                  "served in pieces")
      ->capture_default_str();
  cmd->add_option("--max-connections", o.max_connections, "further connections are closed at once")
      ->capture_default_str();
  cmd->add_option("--max-connections-per-peer", o.max_connections_per_peer,
                  "connections from one address (Unix socket: one process); 0: three quarters of "
                  "--max-connections")
      ->capture_default_str();
  cmd->add_option("--handshake-timeout", o.handshake_timeout_s, "seconds a client has to finish the NBD handshake")
      ->capture_default_str();
  cmd->add_option("--idle-timeout", o.idle_timeout_s,
                  "seconds a session may send nothing and read none of its replies before it is closed (0: never)")
      ->capture_default_str();
  return cmd;
}

}  // namespace ssdlab
