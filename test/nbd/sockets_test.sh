#!/usr/bin/env bash
# Connections that hold on to the server: silent and dribbling handshakes are dropped after
# --handshake-timeout (an idle session after the handshake is kept: --idle-timeout is an hour by
# default); --max-connections closes the extra ones at once; 100 silent sockets
# against a server allowed 64 file descriptors do not lock out a correct client, and the
# server backs off on EMFILE instead of spinning in accept().
# usage: sockets_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"
drive=$SRC/test/nbd/small-drive.yaml

start_server slow --drive "$drive" --pace none --handshake-timeout 1 || exit 1
"$CLIENT" 127.0.0.1 "$PORT" slowhs 1
check "slow handshakes dropped, idle sessions kept" test $? -eq 0
check "server exits 0" stop_server
check "handshake timeouts counted" test "$(field "$TMP/slow/summary.json" handshake_timeouts)" -ge 2

start_server max --drive "$drive" --pace none --max-connections 4 --max-connections-per-peer 4 || exit 1
"$CLIENT" 127.0.0.1 "$PORT" maxconn 4
check "--max-connections 4: the fifth connection is closed, served once a slot frees" test $? -eq 0
check "server exits 0" stop_server
check "refused connections counted" test "$(field "$TMP/max/summary.json" refused_connections)" -ge 1

# One peer may take every connection here (the per-peer limit is tested in hostile_test.sh).
FD_LIMIT=64 start_server fds --drive "$drive" --pace none --handshake-timeout 1 --max-connections-per-peer 64 || exit 1
cpu0=$(cpu_ticks "$SERVER_PID")
t0=$(date +%s.%N)
"$CLIENT" 127.0.0.1 "$PORT" idle 100 60
check "100 silent sockets, fd limit 64: a correct client is still served" test $? -eq 0
cpu=$(( $(cpu_ticks "$SERVER_PID") - cpu0 ))
wall=$(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { print t1 - t0 }')
hz=$(getconf CLK_TCK)
echo "server CPU meanwhile: $cpu ticks of 1/$hz s in $wall s"
check "the server did not spin while out of file descriptors (CPU < half the time)" \
  awk -v c="$cpu" -v hz="$hz" -v w="$wall" 'BEGIN { exit !(c / hz < 0.5 * w) }'
check "server exits 0" stop_server
cat "$TMP/fds.log"
check "running out of file descriptors is logged" grep -q "accept.*Too many open files" "$TMP/fds.log"
finish
