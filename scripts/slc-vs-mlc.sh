#!/usr/bin/env bash
# D11, SLC against MLC on the same controller (docs/reliability.md): runs
# scenarios/studies/slc-vs-mlc-vertex.yaml on the Vertex preset (Samsung 51 nm MLC) and on its
# twin with Samsung K9F8G08U0M SLC dies (datasheet values, nothing fitted), and prints each job
# phase's throughput, WAF and the ratio, then the lifetime (TBW) of the used random-write phase.
#   usage: [EXTRA="-p KEY=VALUE ..."] scripts/slc-vs-mlc.sh [BUILD_DIR] [OUT_DIR]   (EXTRA: on both drives)
set -euo pipefail
bin=$(realpath "${1:-$(dirname "$0")/../build}")/ssdlab
out=$(realpath -m "${2:-$(mktemp -d)}")
cd "$(dirname "$0")/.."
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
scenario=scenarios/studies/slc-vs-mlc-vertex.yaml
"$bin" run "$scenario" --out "$out/mlc" -q --no-plots ${EXTRA:-}
# K9F8G08U0M: 4 KiB pages, 64 per block, tR 25 us (max), tPROG 200 us (typ), tBERS 1.5 ms (typ),
# 100,000 P/E.
"$bin" run "$scenario" --out "$out/slc" -q --no-plots ${EXTRA:-} -p nand.cell=SLC -p nand.pages_per_block=64 \
  -p nand.t_read=25us -p nand.t_prog=200us -p nand.t_erase=1.5ms -p nand.endurance=100000
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
mlc, slc = (json.load(open(f"{out}/{k}/summary.json")) for k in ("mlc", "slc"))
print("%-17s %9s %8s %6s %9s %8s %6s %7s" % ("phase", "MLC MB/s", "IOPS", "WAF", "SLC MB/s", "IOPS", "WAF", "SLC/MLC"))
for a, b in zip(mlc["phases"], slc["phases"]):
    if a["kind"] != "job":
        continue
    mb = lambda p: p.get("read_mbps", 0) + p.get("write_mbps", 0)
    waf = lambda p: "%.2f" % p["waf"] if p.get("waf") else "-"
    print("%-17s %9.1f %8.0f %6s %9.1f %8.0f %6s %+6.0f%%" % (a["name"], mb(a), a["iops"], waf(a), mb(b), b["iops"],
                                                          waf(b), 100 * (b["iops"] / a["iops"] - 1)))
la, lb = mlc["phases"][-1]["wear"]["lifetime"], slc["phases"][-1]["wear"]["lifetime"]
print("user capacity: MLC %.1f GB, SLC %.1f GB" % (mlc["user_bytes"] / 1e9, slc["user_bytes"] / 1e9))
print("TBW at the used random-write phase's WAF: MLC %.1f TB, SLC %.1f TB (%.1fx)" % (
    la["tbw_bytes"] / 1e12, lb["tbw_bytes"] / 1e12, lb["tbw_bytes"] / la["tbw_bytes"]))
PY
