#!/usr/bin/env bash
# Writes a synthetic MSR Cambridge trace for the bench's replay row (not committed: made at
# bench time). One 4 KiB request per line, uniform random 4 KiB-aligned offsets in
# [0, SPAN_BYTES), READ_PERCENT % reads, 10 us apart:
#   bench/make_msr_trace.sh LINES OUT SPAN_BYTES [READ_PERCENT=50] [SEED=1]
set -euo pipefail
lines=$1 out=$2 span=$3 reads=${4:-50} seed=${5:-1}
awk -v n="$lines" -v blocks="$((span / 4096))" -v reads="$reads" -v seed="$seed" 'BEGIN {
  srand(seed)
  for (i = 0; i < n; i++) {
    off = int(rand() * blocks) * 4096
    op = (rand() * 100 < reads) ? "Read" : "Write"
    printf "12816637%010.0f,bench,0,%s,%.0f,4096,0\n", i * 100, op, off  # FILETIME ticks of 2007
  }
}' >"$out.tmp"
mv "$out.tmp" "$out"
