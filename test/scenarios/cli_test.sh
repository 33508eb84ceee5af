#!/usr/bin/env bash
# Command-line behaviour: info, run outputs, determinism, overrides, error messages.
# usage: cli_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
. "$(dirname "$0")/lib.sh"

"$bin" info "$src/configs/scaled-fast.yaml" > "$tmp/info.txt"
check "info prints capacities and ceilings" grep -q "user capacity" "$tmp/info.txt"
# The link ceiling follows from the line rate: 3 Gb/s with 8b/10b coding carries at most 300 MB/s;
# the frames (SOF, CRC, EOF and two 20-Dword handshakes each: ~2 % of an 8 KiB Data FIS) and the
# ALIGN pair in every 256 Dwords (0.8 %) take ~3 % of it (290.2 MB/s for 128 KiB reads,
# docs/sata-link.md); twice the line rate gives twice the ceiling.
link3=$(sed -nE 's/.*ceilings \(MB\/s\)  link read ([0-9.]+),.*/\1/p' "$tmp/info.txt")
link6=$("$bin" info "$src/configs/scaled-fast.yaml" -p host.sata=6Gbps | sed -nE 's/.*ceilings \(MB\/s\)  link read ([0-9.]+),.*/\1/p')
check "info names the link ceiling: below 8b/10b's 300 MB/s at 3 Gb/s by the frames and ALIGNs' ~3 %" \
  awk -v a="${link3:-0}" 'BEGIN { exit !(a < 291 && a > 289) }'
check "info: twice the line rate, twice the link ceiling" \
  awk -v a="${link3:-0}" -v b="${link6:-0}" 'BEGIN { exit !(a > 0 && b > 1.999 * a && b < 2.001 * a) }'

"$bin" run "$src/test/scenarios/smoke.yaml" --out "$tmp/a" --quiet
check "run writes summary.json" test -s "$tmp/a/summary.json"
check "run writes timeseries.csv with a header and samples" \
  bash -c "head -1 '$tmp/a/timeseries.csv' | grep -q '^time_s,phase,read_mbps,write_mbps,iops,free_blocks,waf,gc_erases,map_hit_rate,buffer_dirty_units,die_busy,p50_us,p99_us$' && [ \$(wc -l < '$tmp/a/timeseries.csv') -gt 5 ]"
check "run writes the effective config" grep -q "^name: \"\?scaled-fast" "$tmp/a/config.yaml"
for key in '"phases"' '"name"' '"read_mbps"' '"write_mbps"' '"iops"' '"latency_us"' '"mean"' '"p50"' \
           '"p99"' '"p999"' '"max"' '"waf"' '"gc_erases"' \
           '"stats"' '"catalogue"' '"busy_fraction"' '"hit_rate"'; do
  check "summary.json has $key" grep -q "$key" "$tmp/a/summary.json"
done

"$bin" run "$src/test/scenarios/smoke.yaml" --out "$tmp/b" --quiet
check "same seed and config give identical summary.json" cmp -s "$tmp/a/summary.json" "$tmp/b/summary.json"
check "...and identical timeseries.csv" cmp -s "$tmp/a/timeseries.csv" "$tmp/b/timeseries.csv"
"$bin" run "$src/test/scenarios/smoke.yaml" --out "$tmp/c" --quiet --seed 8
check "another seed gives other results" bash -c "! cmp -s '$tmp/a/summary.json' '$tmp/c/summary.json'"

"$bin" run "$src/test/scenarios/smoke.yaml" --out "$tmp/d" --quiet -p controller.op=0.28
check "-p overrides reach the effective config" grep -q "^  op: 0.28" "$tmp/d/config.yaml"
check "-p overrides change the drive" bash -c "! grep -q \"\$(grep user_bytes '$tmp/a/summary.json')\" '$tmp/d/summary.json'"

sed 's/  channels: 4 /  chanels: 4 /' "$src/configs/scaled-fast.yaml" > "$tmp/typo.yaml"
"$bin" info "$tmp/typo.yaml" 2> "$tmp/err.txt"
check "a config typo exits with status 2" test $? -eq 2
check "...naming file, line and key" grep -q "typo.yaml:[0-9]*: nand.chanels: unknown key" "$tmp/err.txt"
"$bin" run "$src/test/scenarios/smoke.yaml" --quiet --out "$tmp/e" -p controller.gc.free_blocks_low=9 2> "$tmp/err2.txt"
check "inverted GC thresholds are refused" grep -q "free_blocks" "$tmp/err2.txt"

finish
