#!/usr/bin/env bash
# Malformed input over a raw socket (nbd_raw_client): NBD errors for bad requests, closed
# connections for bad handshakes, and the server keeps serving throughout.
# usage: badinput_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"

start_server bad --drive "$SRC/test/nbd/small-drive.yaml" --pace none || exit 1
"$CLIENT" 127.0.0.1 "$PORT"
check "raw client: every case as expected" test $? -eq 0
check "the server is still running" kill -0 "$SERVER_PID"
check "server exits 0 on SIGTERM" stop_server
tail -3 "$TMP/bad.log"
check "refused requests counted" test "$(field "$TMP/bad/summary.json" rejected_requests)" -ge 18
check "bad handshakes counted" test "$(field "$TMP/bad/summary.json" bad_handshakes)" -ge 5
check "clients gone mid-request counted" test "$(field "$TMP/bad/summary.json" lost_mid_request)" -ge 1
# A save killed part-way leaves IMAGE.tmp.PID: the next server on that image removes it, and
# keeps the temporary file of a saver that is still alive (PID 1).
bash -c 'exit 0' & dead=$!; wait "$dead"
head -c 1048576 /dev/zero > "$TMP/drive.img.tmp.$dead"
head -c 4096 /dev/zero > "$TMP/drive.img.tmp.1"
start_server stale --drive "$SRC/test/nbd/small-drive.yaml" --pace none --image "$TMP/drive.img" || exit 1
check "a dead saver's temporary image is removed at start" test ! -e "$TMP/drive.img.tmp.$dead"
check "...and named in the log" grep -q "removed .*drive.img.tmp.$dead" "$TMP/stale.log"
check "a live saver's temporary image is kept" test -e "$TMP/drive.img.tmp.1"
check "server with the new image exits 0 on SIGTERM" stop_server
finish
