#!/usr/bin/env bash
# --pace realtime: no reply comes before its simulated time. The raw client writes 4 MiB,
# flushes it to flash and reads it back 4 KiB at a time (QD1, then 8 pipelined), timing each
# request from its send to the end of its reply. The drive reads slowly (tR 500 us), so every
# read costs at least 500 us of simulated time and so of wall time; the data must be as
# written. Since each wall latency is at least its simulated latency, the client's mean and
# maximum are at least the server's simulated ones. Nothing here bounds how late replies may be
# (other work on the cores makes them late): bench/pacing.sh measures that.
# usage: paced_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"
t_read_us=500

start_server paced --drive "$SRC/test/nbd/small-drive.yaml" -p nand.t_read=${t_read_us}us --pace realtime || exit 1
"$CLIENT" 127.0.0.1 "$PORT" paced $t_read_us 400 | tee "$TMP/client.out"
check "raw client: replies no sooner than t_read, in order, with the data" test "${PIPESTATUS[0]}" -eq 0
check "server exits 0" stop_server
tail -2 "$TMP/paced.log"
read_stats=$(sed -n '/"read": {/,/}/p' "$TMP/paced/summary.json")
sim_mean=$(echo "$read_stats" | field /dev/stdin mean)
sim_max=$(echo "$read_stats" | field /dev/stdin max)
count=$(echo "$read_stats" | field /dev/stdin count)
wall_mean=$(sed -n 's/.* mean_us=\([0-9.]*\).*/\1/p' "$TMP/client.out")
wall_max=$(sed -n 's/.* max_us=\([0-9.]*\).*/\1/p' "$TMP/client.out")
echo "wall (client): mean $wall_mean us, max $wall_max us; simulated (server): mean $sim_mean us, max $sim_max us" \
     "over $count reads"
check "the server saw the 408 reads" test "$count" = 408
# 0.001 us: the client prints three decimals
check "client mean >= simulated mean" awk -v w="$wall_mean" -v s="$sim_mean" 'BEGIN { exit !(s > 0 && w + 0.001 >= s) }'
check "client max >= simulated max" awk -v w="$wall_max" -v s="$sim_max" 'BEGIN { exit !(s > 0 && w + 0.1 >= s) }'
finish
