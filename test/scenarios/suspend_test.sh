#!/bin/bash
# cli:suspend: program/erase suspend at steady state (docs/suspend.md). With read priority, the
# dies' suspensions cut the reads' median and p99.9 further; without it the dies' queues leave
# suspend little to do; with suspend off no die counts a suspension; `info` prints the setting;
# the same seed gives the same figures; a bad key is an error naming it.
# usage: suspend_test.sh SSDLAB SOURCE_DIR
set -euo pipefail
ssdlab=$1 src=$2
tmp=$(mktemp -d /tmp/ssdlab-suspend.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

bash "$src/scripts/suspend-study.sh" "$(dirname "$ssdlab")" "$tmp/runs" > "$tmp/table.txt"
cat "$tmp/table.txt"
python3 - "$tmp/runs" <<'PY'
import json, sys
d = sys.argv[1]
def mixed(n):
    s = json.load(open(f"{d}/{n}/summary.json"))
    return [p for p in s["phases"] if p["name"] == "mixed"][0]
def suspends(p):
    return sum(x.get("suspends", 0) for ch in p["stats"]["drive"]["nand"]["channel"] for x in ch["die"])
plain, sus, prio, both = (mixed(n) for n in ("plain", "suspend", "priority", "both"))
assert "suspends" not in plain["stats"]["drive"]["nand"]["channel"][0]["die"][0]
assert suspends(both) > 1000 and suspends(sus) > 0, (suspends(both), suspends(sus))
r = lambda p, q: p["read_latency_us"][q]
# Both together: the median and p99.9 below read priority's alone.
assert r(both, "p50") < 0.8 * r(prio, "p50"), (r(both, "p50"), r(prio, "p50"))
assert r(both, "p999") < r(prio, "p999"), (r(both, "p999"), r(prio, "p999"))
# Suspend alone: the queues, not the op in progress, hold the reads: p99 within 10 % of plain.
assert abs(r(sus, "p99") / r(plain, "p99") - 1) < 0.1, (r(sus, "p99"), r(plain, "p99"))
PY
"$ssdlab" run "$src/scenarios/suspend/reads-behind-gc.yaml" -q --no-plots -o "$tmp/again" \
  -p nand.suspend.erase=true -p nand.suspend.program=true -p controller.scheduler.read_priority=over_gc > /dev/null
python3 - "$tmp/runs/both/summary.json" "$tmp/again/summary.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["phases"] for f in sys.argv[1:])
for x, y in zip(a, b):
    assert x["stats"] == y["stats"] and x.get("read_latency_us") == y.get("read_latency_us"), x["name"]
PY
"$ssdlab" info "$src/configs/scaled-fast.yaml" -p nand.suspend.erase=true | grep -q '^suspend          host reads suspend erases (500us), up to 4 reads per op' \
  || fail "info prints no suspend line"
"$ssdlab" info "$src/configs/scaled-fast.yaml" | grep -q '^suspend' && fail "info prints suspend when it is off"
set +e
out=$("$ssdlab" info "$src/configs/scaled-fast.yaml" -p nand.suspend.max_per_op=0 2>&1)
rc=$?
set -e
[ $rc -eq 2 ] && echo "$out" | grep -q 'nand.suspend.max_per_op' || fail "max_per_op 0: exit $rc: $out"
echo "cli:suspend passed"
