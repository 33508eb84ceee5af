#!/usr/bin/env bash
# GC-policy study under zipf:1.2 (docs/gc-policy-study.md): runs scenarios/studies/gc-policy-zipf.yaml
# once per victim policy (and GC write placement) and prints the measured phase's WAF, GC erases,
# write IOPS and p99 latency.   usage: scripts/gc-policy-study.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/ssdlab
out=${2:-$(mktemp -d)}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
printf '%-14s %-9s %7s %10s %10s %10s\n' policy placement waf gc_erases iops p99_us
for dest in separate shared; do
  for policy in greedy cost_benefit fifo random d_choice; do
    dir="$out/$policy-$dest"
    "$bin" run scenarios/studies/gc-policy-zipf.yaml --out "$dir" -q --no-plots \
      -p controller.gc.policy=$policy -p controller.gc.destination=$dest
    python3 - "$dir/summary.json" "$policy" "$dest" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
p = [p for p in s["phases"] if p["name"] == "measured"][0]
print("%-14s %-9s %7.3f %10d %10.0f %10.1f" % (sys.argv[2], sys.argv[3], p["waf"], p["gc_erases"], p["iops"],
      p["latency_us"]["p99"]))
PY
  done
done
