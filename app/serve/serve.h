// `ssdlab serve`: the emulated drive as an NBD export, for real programs (fio, qemu-io,
// nbdcopy, a file system through nbdfuse). Threads: the SystemC kernel runs in the main thread
// (this function), the NBD server on an Asio thread; requests cross into the kernel only
// through the bridge's inbox channel, replies cross back by posting to the Asio thread.
// See docs/nbd.md.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ssdlab {

struct ServeOptions {
  std::string drive_path;
  std::vector<std::string> overrides;      // -p key=value
  std::string listen = "127.0.0.1:10809";  // HOST:PORT (port 0: any free port)
  std::string socket_path;                 // a Unix socket instead of TCP
  std::string pace = "realtime";           // realtime | none
  std::string image_path;                  // empty: nothing kept
  std::string out_dir = "results/serve";
  std::string export_name;  // empty: the drive config's name
  double spin_us = 60;      // realtime: spin this long before an event (idle drive)
  // What clients may make the server hold (nbd::Limits): in-flight payload bytes per
  // connection and in all, connections in all and per peer (0: three quarters of the limit),
  // seconds to finish the handshake, seconds a session may stay idle (0: for ever).
  std::string max_connection_bytes = "64MiB";
  std::string max_server_bytes = "256MiB";
  unsigned max_connections = 64;
  unsigned max_connections_per_peer = 0;
  double handshake_timeout_s = 10;
  double idle_timeout_s = 3600;
};

// Serves until SIGINT/SIGTERM; returns the exit status: 0, or 1 when the image could not be
// saved at shutdown. Throws ConfigError for a bad config and std::runtime_error for other
// refusals (an image of another drive, an address in use).
int run_serve(const ServeOptions& options);

// The `serve` subcommand's options, bound to `options` (main.cpp; serve_cli.cpp).
CLI::App* add_serve_command(CLI::App& app, ServeOptions& options);

}  // namespace ssdlab
