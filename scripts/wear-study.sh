#!/usr/bin/env bash
# Wear-levelling study (docs/wear.md): runs scenarios/wear/wear-levelling-zipf.yaml once per
# controller.wear_leveling.mode and prints, per zipf phase, the erase counts (min / mean / max),
# the P/E spread, static wear levelling's cold-block migrations, WAF, IOPS and the lifetime
# estimate (TBW and its wear-levelling factor).   usage: scripts/wear-study.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/ssdlab
out=${2:-$(mktemp -d)}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
printf '%-8s %-7s %5s %7s %5s %6s %9s %6s %8s %8s %5s\n' mode phase min mean max spread wl_blocks waf iops tbw_TB wlf
for mode in none dynamic static; do
  dir="$out/$mode"
  "$bin" run scenarios/wear/wear-levelling-zipf.yaml --out "$dir" -q --no-plots -p controller.wear_leveling.mode=$mode
  python3 - "$dir/summary.json" "$mode" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for p in s["phases"]:
    if not p["name"].startswith("zipf"):
        continue
    w, life = p["wear"], p["wear"]["lifetime"]
    ec = w["erase_count"]
    print("%-8s %-7s %5.0f %7.1f %5.0f %6.0f %9s %6.3f %8.0f %8.2f %5.2f" % (
        sys.argv[2], p["name"], ec["min"], ec["mean"], ec["max"], w["spread"], w.get("wl_victims", "-"), p["waf"],
        p["iops"], life["tbw_bytes"] / 1e12, life["wear_levelling_factor"]))
PY
done
