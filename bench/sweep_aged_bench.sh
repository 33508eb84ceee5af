#!/bin/bash
# A 20-point sweep on an aged 256 GiB drive, with and without snapshots (issue 25).
# With: the sweep ages the drive once (bench/aging/aged256-age.yaml: fill + 2x random
# overwrite) and every point starts from its image (--load-image). Without: every point's
# scenario ages its own drive first. Each point then measures 200,000 random 4 KiB writes at QD32.
# Both sweeps run with -j 2 (both cores); printed: wall and CPU seconds of each, and the ratio.
# With SIMULATED=1 a third sweep ages by simulation write by write (as a hybrid FTL or a limited
# mapping cache needs: docs/aging.md) once and restores it per point; without snapshots that
# aging would run at every point (its time is in the aging run's wall.json).
# usage: bench/sweep_aged_bench.sh   env: SSDLAB (default build/ssdlab), OUT (default: temporary)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ssdlab=${SSDLAB:-$(dirname "$here")/build/ssdlab}
out=${OUT:-$(mktemp -d /var/tmp/ssdlab-sweepaged.XXXXXX)}
mkdir -p "$out"
echo "ssdlab $("$ssdlab" --version | head -1), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), results in $out"
variants="snap nosnap"
[ "${SIMULATED:-0}" = 1 ] && variants="$variants snap-simulated"
for v in $variants; do
  rm -rf "$out/$v"
  /usr/bin/time -f "%e %U %S" -o "$out/$v.time" \
    "$ssdlab" sweep "$here/aging/sweep-aged256-$v.yaml" --out "$out/$v" -j 2 > "$out/$v.log" 2>&1
  "$ssdlab" sweep collect "$out/$v" > /dev/null
done
python3 - "$out" <<'PY'
import csv, sys
out = sys.argv[1]
import glob, json, os
names = [v for v in ("snap", "nosnap", "snap-simulated") if os.path.exists(f"{out}/{v}.time")]
t = {v: list(map(float, open(f"{out}/{v}.time").read().split())) for v in names}
rows = {v: list(csv.DictReader(open(f"{out}/{v}/results.csv"))) for v in names}
print()
print("| sweep | points done | wall s | CPU s (user + sys) | mean IOPS of the points |")
print("|---|---:|---:|---:|---:|")
labels = {"snap": "aged once (replication), restored per point", "nosnap": "each point ages its own drive (replication)",
          "snap-simulated": "aged once (simulated), restored per point"}
for v in names:
    label = labels[v]
    done = [r for r in rows[v] if r["phase"] == "measured"]
    iops = [float(r["iops"]) for r in done]
    mean = sum(iops) / len(iops) if iops else float("nan")
    print(f"| {label} | {len(done)} | {t[v][0]:.1f} | {t[v][1] + t[v][2]:.1f} | {mean:.0f} |")
if "snap-simulated" in names:
    age = json.load(open(glob.glob(f"{out}/snap-simulated/age/*/wall.json")[0]))["wall_seconds"]
    print(f"\nsimulated aging run: {age:.1f} s wall; without snapshots 20 points would age 20 times: about "
          f"{20 * age / 2:.0f} s wall on 2 cores")
print(f"\nwithout / with snapshots: wall {t['nosnap'][0] / t['snap'][0]:.2f}x, CPU {(t['nosnap'][1] + t['nosnap'][2]) / (t['snap'][1] + t['snap'][2]):.2f}x")
PY
