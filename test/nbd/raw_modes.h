// The raw client's hostile and measuring modes (nbd_raw_client HOST PORT MODE ARGS...):
// a flood of big reads whose replies are not read (the server's memory is watched), idle
// sockets against a correct client, a connection limit, slow handshakes, QD1 reads checked
// against the modelled latency, and TRIMs for the statistics.
#pragma once

#include <string>
#include <vector>

namespace ssdlab::nbd::raw {

inline const char* const kModesUsage =
    "modes:\n"
    "  flood PID CONNECTIONS READS BYTES MAX_GROWTH_MIB  READS reads of BYTES on each connection, replies\n"
    "        left unread; the server's (PID) VmHWM may grow by at most MAX_GROWTH_MIB; then all are read\n"
    "  alone BYTES                     one read larger than the server's in-flight bound is served\n"
    "  idle N WAIT_S                   N sockets that never speak, then a correct client within WAIT_S\n"
    "  maxconn N                       N sessions held open; the next connection is closed unserved\n"
    "  slowhs TIMEOUT_S                silent and dribbling handshakes are dropped after TIMEOUT_S;\n"
    "                                  an idle session after the handshake is not\n"
    "  paced MIN_US COUNT              writes, FLUSH, then COUNT QD1 4 KiB reads and a pipelined batch:\n"
    "                                  no reply sooner than MIN_US after its request, data as written\n"
    "  trims N                         N TRIMs of 64 KiB (and one refused)\n";

// Runs MODE with its arguments; the exit status (0: every check passed, 2: bad usage).
int run_mode(const std::vector<std::string>& args);

}  // namespace ssdlab::nbd::raw
