#!/usr/bin/env bash
# A client floods the server with big reads and never reads the replies: the server stops
# reading that connection's requests once its in-flight bytes reach the bound
# (--max-connection-bytes), and all connections together stop at --max-server-bytes plus 128 KiB
# each (a connection may always hold one piece, so that no client can stall another); its
# memory (VmHWM, from /proc) grows by no more than that plus slack, and every request is
# answered once the client reads. Reads larger than the bounds are served in pieces.
# usage: flood_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"
drive=$SRC/test/nbd/small-drive.yaml
conn_mib=32
server_mib=64
slack_mib=32  # allocator slack, buffers being freed while the next are filled
if [ -n "${SSDLAB_MEMORY_NOT_JUDGED:-}" ]; then
  echo "memory not judged: $SSDLAB_MEMORY_NOT_JUDGED (every request must still be answered)"
  slack_mib=100000
fi

start_server flood --drive "$drive" --pace none --max-connection-bytes ${conn_mib}MiB \
    --max-server-bytes ${server_mib}MiB || exit 1
# 3 connections x 16 reads x 16 MiB = 768 MiB asked for at once; held at most: the server's
# bound plus a piece of 128 KiB per connection.
"$CLIENT" 127.0.0.1 "$PORT" flood "$SERVER_PID" 3 16 $((16 << 20)) $((server_mib + 1 + slack_mib))
check "flood: memory bounded, every read answered" test $? -eq 0
"$CLIENT" 127.0.0.1 "$PORT" flood "$SERVER_PID" 1 16 $((8 << 20)) $((conn_mib + slack_mib))
check "flood on one connection: its own bound holds" test $? -eq 0
check "server exits 0" stop_server
tail -3 "$TMP/flood.log"

start_server small --drive "$drive" --pace none --max-connection-bytes 1MiB --max-server-bytes 2MiB || exit 1
"$CLIENT" 127.0.0.1 "$PORT" alone $((8 << 20))
check "an 8 MiB read with bounds of 1 and 2 MiB: served (in pieces)" test $? -eq 0
"$CLIENT" 127.0.0.1 "$PORT" flood "$SERVER_PID" 2 8 $((4 << 20)) $((8 + slack_mib))
check "reads larger than the bounds, several in flight: served in pieces" test $? -eq 0
check "server exits 0" stop_server

"$SSDLAB" serve --drive "$drive" --max-connection-bytes 0 --listen 127.0.0.1:0 --out "$TMP/zero" > "$TMP/zero.log" 2>&1
rc=$?
cat "$TMP/zero.log"
check "--max-connection-bytes 0 is refused (status $rc) before listening" \
  bash -c "[ $rc -ne 0 ] && ! grep -q 'listening on' '$TMP/zero.log'"
finish
