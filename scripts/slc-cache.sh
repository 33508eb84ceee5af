#!/usr/bin/env bash
# The SLC cache (docs/slc-cache.md): runs scenarios/slc/slc-cache-cliff.yaml and
# scenarios/slc/slc-cache-full-drive.yaml on the default drive with the cache off, static
# (16 MiB: what its spare allows) and dynamic (64 MiB), and prints each phase's throughput, the
# steady window of the phases that have one, WAF and the cache's folds side by side.
#   usage: scripts/slc-cache.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
bin=$(realpath "${1:-$(dirname "$0")/../build}")/ssdlab
out=$(realpath -m "${2:-$(mktemp -d)}")
cd "$(dirname "$0")/.."
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
declare -A modes=([off]="-p controller.slc_cache.mode=off"
                  [static]="-p controller.slc_cache.mode=static -p controller.slc_cache.size=16MiB"
                  [dynamic]="")
for s in slc-cache-cliff slc-cache-full-drive; do
  for m in off static dynamic; do
    # shellcheck disable=SC2086
    "$bin" run "scenarios/slc/$s.yaml" --out "$out/$s/$m" -q --no-plots ${modes[$m]}
  done
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
modes = ("off", "static", "dynamic")
for s in ("slc-cache-cliff", "slc-cache-full-drive"):
    runs = [json.load(open(f"{out}/{s}/{m}/summary.json")) for m in modes]
    print(s)
    print("%-14s" % "phase" + "".join(" %45s" % m for m in modes))
    print("%-14s" % "" + "".join(" %45s" % "MB/s steady   IOPS   WAF  folds  fold_units" for _ in modes))
    for k, phase in enumerate(runs[0]["phases"]):
        if phase["kind"] not in ("job", "idle"):
            continue
        row = "%-14s" % phase["name"]
        for r in runs:
            p = r["phases"][k]
            slc = p["stats"]["drive"]["controller"]["ftl"].get("slc", {})
            folds, units = slc.get("folds", 0), slc.get("fold_units", 0)
            win = (p.get("steady_state") or {}).get("window") or {}
            steady = win.get("write_mbps")
            waf = p.get("waf")
            row += " %45s" % ("%6.1f %6s %6.0f %5s %6d %11d" % (
                p.get("write_mbps", 0), "%.1f" % steady if steady else "-", p.get("iops", 0),
                "%.2f" % waf if isinstance(waf, (int, float)) else "-", folds or 0, units or 0))
        print(row)
    print()
PY
