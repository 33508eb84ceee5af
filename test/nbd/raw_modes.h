// The raw client's hostile and measuring modes (nbd_raw_client HOST PORT MODE ARGS...):
// a flood of big reads whose replies are not read (the server's memory is watched), idle
// sockets against a correct client, a connection limit, slow handshakes, QD1 reads checked
// against the modelled latency, and TRIMs for the statistics.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssdlab::nbd::raw {

inline const char* const kModesUsage =
    "modes:\n"
    "  flood PID CONNECTIONS READS BYTES MAX_GROWTH_MIB  READS reads of BYTES on each connection, replies\n"
    "        left unread; the server's (PID) VmHWM may grow by at most MAX_GROWTH_MIB; then all are read\n"
    "  alone BYTES                     one read larger than the server's in-flight bound is served (in pieces)\n"
    "  idle N WAIT_S                   N sockets that never speak, then a correct client within WAIT_S\n"
    "  maxconn N                       N sessions held open; the next connection is closed unserved\n"
    "  slowhs TIMEOUT_S                silent and dribbling handshakes are dropped after TIMEOUT_S;\n"
    "                                  an idle session after the handshake is not\n"
    "  paced MIN_US COUNT              writes, FLUSH, then COUNT QD1 4 KiB reads and a pipelined batch:\n"
    "                                  no reply sooner than MIN_US after its request, data as written\n"
    "  trims N                         N TRIMs of 64 KiB (and one refused)\n"
    "  mediaerror                      a drive whose flash reads are all uncorrectable: flushed data reads\n"
    "                                  as EIO without payload, twice; unwritten LBAs read as zeros; a\n"
    "                                  write is still accepted\n"
    "  hostile PID READS WRITES BYTES MAX_GROWTH_MIB SAFETY_S SOURCE\n"
    "                                  from SOURCE, READS connections each send a READ of BYTES never\n"
    "                                  read and WRITES a WRITE header of BYTES with 10 bytes of payload;\n"
    "                                  a correct client's requests are served within SAFETY_S each and the\n"
    "                                  server's (PID) VmHWM grows by at most MAX_GROWTH_MIB\n"
    "  idlepeer N SOURCE WAIT_S        N idle sessions from SOURCE; a correct client (from the default\n"
    "                                  address) is served within WAIT_S\n"
    "  pattern write|check SEED MIB    random writes (0.5-256 KiB, SEED) over MIB MiB of the export,\n"
    "                                  then every byte read back; check: the same writes expected, none made\n";

// Runs MODE with its arguments; the exit status (0: every check passed, 2: bad usage).
int run_mode(const std::vector<std::string>& args);

// raw_hostile.cpp
int hostile(const std::string& pid, std::uint32_t readers, std::uint32_t writers, std::uint32_t bytes,
            double max_growth_mib, double safety_s, const std::string& source);
int idle_peer(std::uint32_t n, const std::string& source, double wait_s);
// raw_pattern.cpp
int pattern_mode(bool write, std::uint64_t seed, std::uint32_t mib);

}  // namespace ssdlab::nbd::raw
