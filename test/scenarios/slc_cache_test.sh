#!/bin/bash
# cli:slc_cache: the SLC cache (docs/slc-cache.md). On the scaled-fast drive a dynamic 64 MiB cache
# takes a burst at well above the full-block speed, the same write beyond it runs at the
# full-block speed (the cliff), idle time folds the cache and the speed returns; on a full drive
# the dynamic cache vanishes and a static one costs WAF; `info` prints the cache; the scenario
# is the same run twice (same seed); a bad key is an error naming it.
# usage: slc_cache_test.sh SSDLAB SOURCE_DIR
set -euo pipefail
ssdlab=$1 src=$2
tmp=$(mktemp -d /tmp/ssdlab-slc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

bash "$src/scripts/slc-cache.sh" "$(dirname "$ssdlab")" "$tmp/runs" > "$tmp/table.txt"
cat "$tmp/table.txt"
python3 - "$tmp/runs" <<'PY'
import json, sys
d = sys.argv[1]
run = lambda s, m: {p["name"]: p for p in json.load(open(f"{d}/{s}/{m}/summary.json"))["phases"]}
slc = lambda p: p["stats"]["drive"]["controller"]["ftl"].get("slc", {})
off, dyn, sta = (run("slc-cache-cliff", m) for m in ("off", "dynamic", "static"))
full_mb = off["burst"]["steady_state"]["window"]["write_mbps"]
# The cliff: into the cache well above the full-block speed, beyond it at the full-block speed.
assert dyn["in_cache"]["write_mbps"] > 1.8 * full_mb, (dyn["in_cache"]["write_mbps"], full_mb)
assert dyn["burst"]["steady_state"]["mixes_regimes"], dyn["burst"]["steady_state"]
assert abs(dyn["burst"]["steady_state"]["window"]["write_mbps"] / full_mb - 1) < 0.02
assert abs(dyn["beyond_cache"]["steady_state"]["window"]["write_mbps"] / full_mb - 1) < 0.02
# Idle time folded the whole dynamic cache (16 blocks on each of 16 dies), the static one's 4.
assert slc(dyn["idle"])["folds"] == 256 and slc(dyn["idle"])["fold_units"] == 256 * 64, slc(dyn["idle"])
assert slc(sta["idle"])["folds"] == 64, slc(sta["idle"])
assert dyn["idle"]["gc_erases"] == 256 and off["idle"]["gc_erases"] == 0
# 48 MiB into the cache (a part may still be in the write buffer at the phase end).
assert 0.9 * 48 * 256 < slc(dyn["in_cache"])["units_written"] <= 48 * 256, slc(dyn["in_cache"])
assert "slc" not in off["burst"]["stats"]["drive"]["controller"]["ftl"]
# A smaller cache gives less: static 16 MiB between none and 64 MiB.
assert off["in_cache"]["write_mbps"] < sta["in_cache"]["write_mbps"] < dyn["in_cache"]["write_mbps"]
# Full drive: the dynamic cache opens nothing at steady state; the static one folds and costs WAF.
foff, fdyn, fsta = (run("slc-cache-full-drive", m) for m in ("off", "dynamic", "static"))
assert slc(fdyn["rand_write_2"])["blocks_opened"] == 0, slc(fdyn["rand_write_2"])
assert abs(fdyn["rand_write_2"]["waf"] / foff["rand_write_2"]["waf"] - 1) < 0.03
assert fsta["rand_write_2"]["waf"] > 1.3 * foff["rand_write_2"]["waf"]
assert slc(fsta["rand_write_2"])["folds"] > 1000
PY

# Same seed, same figures.
"$ssdlab" run "$src/scenarios/slc/slc-cache-cliff.yaml" -q --no-plots -o "$tmp/again" > /dev/null
python3 - "$tmp/runs/slc-cache-cliff/dynamic/summary.json" "$tmp/again/summary.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["phases"] for f in sys.argv[1:])
for x, y in zip(a, b):
    assert (x["write_mbps"], x["stats"]) == (y["write_mbps"], y["stats"]), x["name"]
PY

"$ssdlab" info "$src/configs/scaled-fast.yaml" -p controller.slc_cache.mode=dynamic -p controller.slc_cache.size=64MiB \
  | grep -q '^SLC cache        dynamic, 64MiB: 16 SLC-mode blocks/die of 256KiB' || fail "info prints no SLC cache line"
"$ssdlab" info "$src/configs/scaled-fast.yaml" | grep -q '^SLC cache' && fail "info prints a cache that is off"

# Bad keys: named.
set +e
out=$("$ssdlab" info "$src/configs/scaled-fast.yaml" -p controller.slc_cache.mode=static -p controller.slc_cache.size=32MiB 2>&1)
rc=$?
set -e
[ $rc -eq 2 ] || fail "a static cache beyond the spare: exit $rc"
echo "$out" | grep -q 'controller.slc_cache.size: 32MiB is 8 SLC-mode blocks per die' || fail "no error naming the size: $out"
set +e
out=$("$ssdlab" info "$src/configs/scaled-fast.yaml" -p controller.slc_cache.mode=dynamic 2>&1)
rc=$?
set -e
[ $rc -eq 2 ] && echo "$out" | grep -q 'controller.slc_cache.size: must be above 0' || fail "size 0: exit $rc: $out"
echo "cli:slc_cache passed"
