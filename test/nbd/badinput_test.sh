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
finish
