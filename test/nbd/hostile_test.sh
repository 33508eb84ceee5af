#!/usr/bin/env bash
# What hostile clients can make the server hold is bounded, and a correct client is served
# throughout: 60 connections each with one 32 MiB READ whose reply is never read and 60 with a
# 32 MiB WRITE header followed by 10 bytes (slowloris), all from 127.0.0.2, against
# --max-server-bytes 32MiB. The server's memory (VmHWM, from /proc) grows by at most that bound
# plus 128 KiB per connection (docs/nbd.md) and slack, and a correct client from 127.0.0.1 gets
# its 4 KiB, 1 MiB and 8 MiB writes and reads served (before the bounds: 11 MiB -> 1.93 GiB for
# the READs alone). Then idle sessions: 64 from another address leave room for a correct client
# (--max-connections-per-peer), 64 from its own address are closed after --idle-timeout 2.
# usage: hostile_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"
drive=$SRC/test/nbd/small-drive.yaml
server_mib=32
connections=130
slack_mib=32  # allocator slack, buffers being freed while the next are filled
bound_mib=$((server_mib + connections * 128 / 1024 + slack_mib))
if [ -n "${SSDLAB_MEMORY_NOT_JUDGED:-}" ]; then
  echo "memory not judged: $SSDLAB_MEMORY_NOT_JUDGED (every correct request must still be served)"
  bound_mib=100000
fi

start_server hostile --drive "$drive" --pace none --max-server-bytes ${server_mib}MiB \
    --max-connections $connections --max-connections-per-peer 125 || exit 1
"$CLIENT" 127.0.0.1 "$PORT" hostile "$SERVER_PID" 60 60 $((32 << 20)) $bound_mib 120 127.0.0.2
check "60 unread 32 MiB READs, 60 slowloris WRITE headers: memory bounded, a correct client served" test $? -eq 0
check "server exits 0" stop_server
grep -o '"pieced_requests": [0-9]*\|"peak_held_bytes": [0-9]*\|"memory_waits": [0-9]*' "$TMP/hostile/summary.json"
peak=$(field "$TMP/hostile/summary.json" peak_held_bytes)
check "payload bytes held at most --max-server-bytes + 128 KiB per connection ($peak)" \
  test "$peak" -le $(((server_mib << 20) + connections * (128 << 10)))
check "requests served in pieces counted" test "$(field "$TMP/hostile/summary.json" pieced_requests)" -ge 1

start_server idle --drive "$drive" --pace none --idle-timeout 2 || exit 1
"$CLIENT" 127.0.0.1 "$PORT" idlepeer 64 127.0.0.2 60
check "64 idle sessions from another peer: a correct client is served (per-peer limit 48 of 64)" test $? -eq 0
"$CLIENT" 127.0.0.1 "$PORT" idlepeer 64 127.0.0.1 60
check "64 idle sessions from the client's own address: it is served once they time out" test $? -eq 0
check "server exits 0" stop_server
check "idle sessions closed after --idle-timeout (idle_timeouts >= 48)" \
  test "$(field "$TMP/idle/summary.json" idle_timeouts)" -ge 48
check "connections beyond the per-peer limit refused (peer_refusals >= 16)" \
  test "$(field "$TMP/idle/summary.json" peer_refusals)" -ge 16
finish
