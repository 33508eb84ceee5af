#!/usr/bin/env bash
# A/B of two ssdlab_bench binaries, alternating A and B each round (absolute rates differ
# between machines and moments by up to 2x; alternating pairs the two under the same load).
#
#   ROUNDS=10 bench/ab.sh A_BENCH B_BENCH "seqwrite -n 300000" "randread -n 3000000" ...
#
# Prints one line per run, then per row the medians of req/CPU-s and the paired ratios B/A.
set -uo pipefail
cd "$(dirname "$0")/.."
a=$1 b=$2
shift 2
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
out=$(mktemp)
for round in $(seq 1 "${ROUNDS:-8}"); do
  for row in "$@"; do
    for side in A B; do
      bin=$a
      [ "$side" = B ] && bin=$b
      # shellcheck disable=SC2086 # the row is a workload and its options
      rate=$("$bin" $row 2>/dev/null | tail -1 | python3 -c "import sys, json; print(round(json.load(sys.stdin)['req_per_cpu_s']))")
      echo "$round ${row%% *} $side ${rate:-0}" | tee -a "$out"
    done
  done
done
python3 - "$out" <<'PY'
import statistics as st, sys
d = {}
for line in open(sys.argv[1]):
    _, row, side, rate = line.split()
    d.setdefault((row, side), []).append(int(rate))
for row in dict.fromkeys(k[0] for k in d):
    a, b = d[(row, 'A')], d[(row, 'B')]
    paired = sorted(y / x for x, y in zip(a, b) if x)
    print(f"{row}: A median {st.median(a):,.0f}, B median {st.median(b):,.0f} req/CPU-s, "
          f"B/A {st.median(b) / st.median(a):.3f}; paired B/A median {st.median(paired):.3f} "
          f"({paired[0]:.2f}-{paired[-1]:.2f})")
PY
rm -f "$out"
