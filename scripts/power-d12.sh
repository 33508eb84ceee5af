#!/usr/bin/env bash
# D12, power idle and under load (docs/power.md): runs scenarios/power/d12-idle-vs-load.yaml on
# the Vertex (Indilinx Barefoot, the documents' firmware), a JMicron JMF602 drive (the OCZ Core
# V2's controller, block-mapped as the evidence says) and a Crucial M225 (Barefoot, 64 GB), and
# prints each phase's average power, throughput and energy per request side by side.
#   usage: [EXTRA="-p KEY=VALUE ..."] scripts/power-d12.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
bin=$(realpath "${1:-$(dirname "$0")/../build}")/ssdlab
out=$(realpath -m "${2:-$(mktemp -d)}")
cd "$(dirname "$0")/.."
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
scenario=scenarios/power/d12-idle-vs-load.yaml
drives="vertex-30g-fw1275 jmicron-jmf602-bast crucial-m225"
for d in $drives; do
  "$bin" run "$scenario" --drive "configs/$d.yaml" --out "$out/$d" -q --no-plots ${EXTRA:-}
done
python3 - "$out" $drives <<'PY'
import json, sys
out, drives = sys.argv[1], sys.argv[2:]
runs = [json.load(open(f"{out}/{d}/summary.json")) for d in drives]
print("%-14s" % "phase" + "".join("%30s" % d for d in drives))
print("%-14s" % "" + "".join("%30s" % "W     MB/s    uJ/IO" for _ in drives))
for k, phase in enumerate(runs[0]["phases"]):
    if phase["kind"] not in ("idle", "job"):
        continue
    row = "%-14s" % phase["name"]
    for r in runs:
        p = r["phases"][k]
        pw = p["power"]
        mb = p.get("read_mbps", 0) + p.get("write_mbps", 0)
        per_io = pw.get("energy_per_io_uj")
        row += "%30s" % ("%.3f %8.1f %8s" % (pw["average_w"], mb, "%.0f" % per_io if per_io else "-"))
    print(row)
PY
