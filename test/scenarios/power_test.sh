#!/bin/bash
# cli:power: power and energy in a run (issue 26, docs/power.md). The Vertex's calibration
# scenario meets its two fresh figures; D12's three drives draw more under every load than idle,
# the drive without DRAM least when idle, and the JMicron's slow random writes cost it far more
# energy per request; the time series, console, explain and plot carry power; link power states
# delay a command by their exit latency; bad power and link keys are errors naming the key.
# usage: power_test.sh SSDLAB SOURCE_DIR
set -euo pipefail
ssdlab=$1 src=$2
tmp=$(mktemp -d /tmp/ssdlab-power.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

# Calibration: 0.5 W idle and 2.0 W on a fresh sequential write, within 2 %.
"$ssdlab" run "$src/scenarios/calibration/vertex-30g-power.yaml" --no-plots -o "$tmp/cal" > "$tmp/cal.txt"
grep -q '^power (docs/power.md)' "$tmp/cal.txt" || fail "no power table on the console"
python3 - "$tmp/cal/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for p in s["phases"]:
    for e in p.get("expect", []):
        assert e["metric"] == "power_w", e
        assert abs(e["simulated"] / e["document"] - 1) < 0.02, (p["name"], e)
idle = [p for p in s["phases"] if p["name"] == "idle"][0]["power"]
assert idle["parts_j"]["nand_array"] == 0 and idle["energy_per_io_uj"] is None, idle
PY
head -1 "$tmp/cal/timeseries.csv" | grep -q ',power_w$' || fail "timeseries.csv has no power_w column"

# D12 on three presets.
bash "$src/scripts/power-d12.sh" "$(dirname "$ssdlab")" "$tmp/d12" > "$tmp/d12.txt"
cat "$tmp/d12.txt"
python3 - "$tmp/d12" <<'PY'
import json, sys
d = sys.argv[1]
runs = {k: json.load(open(f"{d}/{k}/summary.json")) for k in ("vertex-30g-fw1275", "jmicron-jmf602-bast", "crucial-m225")}
ph = lambda k, name: [p for p in runs[k]["phases"] if p["name"] == name][0]
for k, s in runs.items():
    idle = ph(k, "idle")["power"]["average_w"]
    for p in s["phases"]:
        if p["kind"] == "job":
            w = p["power"]["average_w"]
            assert w > idle, (k, p["name"], w, idle)
            assert p["power"]["peak_w"] >= w * 0.99, (k, p["name"])  # the peak interval is no lower than the mean
            parts = p["power"]["parts_j"]
            assert abs(sum(parts.values()) - p["power"]["energy_j"]) < 1e-9 * max(1, p["power"]["energy_j"]), (k, p["name"])
# No DRAM: the JMicron idles lower.
assert ph("jmicron-jmf602-bast", "idle")["power"]["average_w"] < ph("vertex-30g-fw1275", "idle")["power"]["average_w"]
assert ph("jmicron-jmf602-bast", "idle")["power"]["parts_j"]["dram"] == 0
# Energy per random write: the block-mapped JMicron merges a block per few writes.
v, j = (ph(k, "rand_write_4k")["power"]["energy_per_io_uj"] for k in ("vertex-30g-fw1275", "jmicron-jmf602-bast"))
assert j > 5 * v, (v, j)
PY

# Link power management: QD1 reads 5 ms apart on the scaled-fast drive sleep between requests; each
# wakes from Slumber (10 ms); explain names it.
cat > "$tmp/think.yaml" <<YAML
name: think
drive: $src/configs/scaled-fast.yaml
seed: 1
sample_interval: 100ms
overrides: {host.link_pm.partial_after: 100us, host.link_pm.slumber_after: 1ms, power.enabled: true}
phases:
  - {name: fill, fill: 10%}
  - {name: qd1, job: {rw: randread, bs: 4k, iodepth: 1, size: 10%, io_size: 200KiB, thinktime: 5ms}}
YAML
"$ssdlab" run "$tmp/think.yaml" -q -o "$tmp/think"
python3 - "$tmp/think/summary.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][-1]
link = p["power"]["link"]
assert link["slumber_wakes"] == p["reads"] == 50, link
lat = p["read_latency_us"]["clat_percentiles_us"]["1.000000"]
assert lat > 10000, p["read_latency_us"]  # every read waited 10 ms for the link
assert abs(p["anatomy_us"]["read"]["mean"]["link_wake"] - 10000) < 1e-6, p["anatomy_us"]["read"]["mean"]
PY
grep -q 'wake from Partial or Slumber' "$tmp/think/explain.txt" || fail "explain does not name the link's wake-ups"
[ -s "$tmp/think/plots/power.png" ] || echo "NOTE: no power.png (matplotlib missing?)"

# Bad input names the key.
expect_error() {  # expect_error PATTERN ARGS...
  local pattern=$1
  shift
  local out rc=0
  out=$("$ssdlab" info "$src/configs/scaled-fast.yaml" "$@" 2>&1) || rc=$?
  [ "$rc" = 2 ] || fail "rc $rc for $* (expected 2): $out"
  grep -q -- "$pattern" <<< "$out" || fail "no '$pattern' in: $out"
}
expect_error "host.link_pm.slumber_after.*must be longer than partial_after" -p host.link_pm.partial_after=1ms -p host.link_pm.slumber_after=1ms
expect_error "power.nand.vcc" -p power.nand.vcc=-1
expect_error "power.controller.idle" -p power.controller.idle=abc
expect_error "did you mean 'energy_per_byte'" -p power.controller.energy_per_bytes=1
echo "cli:power OK"
