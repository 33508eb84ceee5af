#!/usr/bin/env bash
# One definition of each figure in the serve summary: the phase's `trims` (what `ssdlab run`
# reports) counts the same TRIMs as the NBD section, and every latency object has the keys
# `ssdlab run` writes (mean p50 p99 p999 max).
# usage: counters_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"

start_server counters --drive "$SRC/test/nbd/small-drive.yaml" --pace none || exit 1
"$CLIENT" 127.0.0.1 "$PORT" trims 34
check "34 TRIMs" test $? -eq 0
check "server exits 0" stop_server
summary=$TMP/counters/summary.json
phase_trims=$(field "$summary" trims)
nbd_trims=$(sed -n '/"trim": {/,/}/p' "$summary" | field /dev/stdin count)
echo "phase trims: $phase_trims, NBD trim requests: $nbd_trims"
check "the phase counts the 34 TRIMs" test "$phase_trims" = 34
check "...as the NBD section does" test "$nbd_trims" = 34
p999=$(grep -c '"p999"' "$summary")
echo "latency objects: $(grep -c '"latency_us": {$\|_latency_us": {$' "$summary"), with p999: $p999"
check "every latency object has p999, as in ssdlab run" \
  test "$(grep -c '"latency_us": {$\|_latency_us": {$' "$summary")" -eq "$p999"
finish
