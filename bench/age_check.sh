#!/bin/bash
# Fast aging by replication against simulated aging (issue 25, docs/aging.md).
#
# For each drive: the drive is filled and overwritten at random (2x its capacity, 4 KiB, drawn
# with replacement) once by simulation (every write through the whole FTL) and once by
# replication (one die group aged, its state copied), then the next 1 M 4 KiB random writes
# (QD32) are simulated in time on each. Printed: the aging's CPU seconds, the state it left
# (free blocks, mean valid units of closed blocks, the valid-count histograms' distance), and
# the next writes' IOPS, WAF, mean and p99 latency, with replication's difference in %.
#
# usage: bench/age_check.sh [--replicate-only | --report-only] [DRIVE.yaml ...]
#        --report-only prints the table of the runs already in OUT
#        (default: bench/drives/bench64g.yaml bench/drives/bench512g.yaml)
# env:   SSDLAB=path/to/ssdlab (default build/ssdlab), OUT=folder (default: a temporary one)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
ssdlab=${SSDLAB:-$root/build/ssdlab}
simulate=1 run=1
if [ "${1:-}" = "--replicate-only" ]; then
  simulate=0
  shift
elif [ "${1:-}" = "--report-only" ]; then
  run=0
  shift
fi
drives=("$@")
[ ${#drives[@]} -gt 0 ] || drives=("$here/drives/bench64g.yaml" "$here/drives/bench512g.yaml")
out=${OUT:-$(mktemp -d /var/tmp/ssdlab-agecheck.XXXXXX)}
mkdir -p "$out"
echo "ssdlab $("$ssdlab" --version 2>/dev/null | head -1), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), results in $out"

for drive in "${drives[@]}"; do
  [ $run = 1 ] || break
  name=$(basename "$drive" .yaml)
  methods=(replicate)
  [ $simulate = 1 ] && methods=(simulate replicate)
  for m in "${methods[@]}"; do
    scenario="$here/aging/check-$m.yaml"
    if [ $m = replicate ]; then  # the aging alone, for its CPU seconds (simulated aging: its phase's wall)
      sed '/name: next1m/,$d' "$scenario" > "$out/$name-$m-age.yaml"
      sed -i "s|^drive: .*|drive: $(realpath "$drive")|" "$out/$name-$m-age.yaml"
      /usr/bin/time -f "%U %S %e %M" -o "$out/$name-$m-age.time" \
        "$ssdlab" run "$out/$name-$m-age.yaml" --no-plots -q -o "$out/$name-$m-age" > /dev/null
    fi
    # The aging and the next 1 M writes (the console's table gives each phase's wall seconds).
    /usr/bin/time -f "%U %S %e %M" -o "$out/$name-$m.time" \
      "$ssdlab" run "$scenario" --drive "$drive" --no-plots -o "$out/$name-$m" > "$out/$name-$m.console"
    cp "$out/$name-$m/summary.json" "$out/$name-$m.summary.json"
  done
done

python3 - "$out" "${drives[@]}" <<'EOF'
import json, os, sys
out, drives = sys.argv[1], sys.argv[2:]
def load(name, m):
    p = os.path.join(out, f"{name}-{m}.summary.json")
    if not os.path.exists(p): return None
    d = json.load(open(p))
    aged, nxt = d["phases"][0], d["phases"][1]
    t = open(os.path.join(out, f"{name}-{m}.time")).read().split()
    wall = next(float(l.split()[-1]) for l in open(os.path.join(out, f"{name}-{m}.console")) if l.startswith("aged "))
    ta = os.path.join(out, f"{name}-{m}-age.time")
    cpu = sum(map(float, open(ta).read().split()[:2])) if os.path.exists(ta) else None
    h = aged["precondition"]["valid_histogram"]
    n = sum(h)
    mean = sum(v * c for v, c in enumerate(h)) / n if n else 0
    return dict(cpu=cpu, wall=wall, total_cpu=float(t[0]) + float(t[1]), rss=int(t[3]) // 1024, pc=aged["precondition"], hist=h, n=n,
                mean_valid=mean, free=aged["precondition"]["free_blocks"], iops=nxt["iops"], waf=nxt["waf"],
                lat=nxt["latency_us"]["mean"], p99=nxt["latency_us"]["p99"])
def pct(a, b): return f"{100.0 * (b - a) / a:+.2f} %" if a else "-"
print()
print("| drive | method | aging wall s (phase) | aging alone CPU s | whole run CPU s | peak RSS MiB | copies x group dies | free blocks | mean valid units | next 1 M: IOPS | WAF | mean lat us | p99 us |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for drive in drives:
    name = os.path.splitext(os.path.basename(drive))[0]
    s, r = load(name, "simulate"), load(name, "replicate")
    for m, x in (("simulate", s), ("replicate", r)):
        if not x: continue
        pc = x["pc"]
        cg = f"{pc.get('replicas', 1)} x {pc.get('group_dies', '-')}" if pc["method"] == "replicated" else "-"
        cpu = f"{x['cpu']:.2f}" if x["cpu"] is not None else "-"
        print(f"| {name} | {m} | {x['wall']:.2f} | {cpu} | {x['total_cpu']:.1f} | {x['rss']} | {cg} | {x['free']} | {x['mean_valid']:.2f} | "
              f"{x['iops']:.0f} | {x['waf']:.3f} | {x['lat']:.1f} | {x['p99']:.1f} |")
    if s and r:
        hs = [c / s["n"] for c in s["hist"]]
        hr = [c / r["n"] for c in r["hist"]]
        l1 = sum(abs(a - b) for a, b in zip(hs, hr))
        # CDF distance (Kolmogorov-Smirnov) of the valid-count distributions
        ca = cb = ks = 0.0
        for a, b in zip(hs, hr):
            ca += a; cb += b; ks = max(ks, abs(ca - cb))
        print(f"| {name} | replicate vs simulate | {s['wall'] / r['wall']:.0f}x faster | | | | | {pct(s['free'], r['free'])} | "
              f"{pct(s['mean_valid'], r['mean_valid'])} (KS {ks:.4f}, L1 {l1:.3f}) | {pct(s['iops'], r['iops'])} | "
              f"{pct(s['waf'], r['waf'])} | {pct(s['lat'], r['lat'])} | {pct(s['p99'], r['p99'])} |")
EOF
