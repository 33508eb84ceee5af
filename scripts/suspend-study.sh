#!/usr/bin/env bash
# Program/erase suspend (docs/suspend.md): runs scenarios/suspend/reads-behind-gc.yaml on the
# default drive with suspend off and on, each without and with read priority over GC, and prints
# the mixed phase's read latency (p50, p99, p99.9, max), IOPS and the dies' suspensions.
#   usage: scripts/suspend-study.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
bin=$(realpath "${1:-$(dirname "$0")/../build}")/ssdlab
out=$(realpath -m "${2:-$(mktemp -d)}")
cd "$(dirname "$0")/.."
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
declare -A runs=([plain]=""
                 [suspend]="-p nand.suspend.erase=true -p nand.suspend.program=true"
                 [priority]="-p controller.scheduler.read_priority=over_gc"
                 [both]="-p nand.suspend.erase=true -p nand.suspend.program=true -p controller.scheduler.read_priority=over_gc")
order="plain suspend priority both"
for r in $order; do
  # shellcheck disable=SC2086
  "$bin" run scenarios/suspend/reads-behind-gc.yaml --out "$out/$r" -q --no-plots ${runs[$r]}
done
python3 - "$out" $order <<'PY'
import json, sys
out, names = sys.argv[1], sys.argv[2:]
print("%-10s %9s %9s %9s %9s %9s %9s %10s" % ("run", "rd p50", "rd p99", "rd p99.9", "rd max", "IOPS", "WAF", "suspends"))
for n in names:
    s = json.load(open(f"{out}/{n}/summary.json"))
    p = [x for x in s["phases"] if x["name"] == "mixed"][0]
    r = p["read_latency_us"]
    dies = [d for ch in p["stats"]["drive"]["nand"]["channel"] for d in ch["die"]]
    sus = sum(d.get("suspends", 0) for d in dies)
    print("%-10s %9.0f %9.0f %9.0f %9.0f %9.0f %9.2f %10d" % (n, r["p50"], r["p99"], r["p999"], r["max"], p["iops"], p["waf"], sus))
PY
