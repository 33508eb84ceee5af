#!/bin/bash
# cli:aging: precondition by replication from the command line (docs/aging.md): the method is
# chosen and reported (summary.json, console), asking for it where it cannot apply is an error
# naming the file and line, a mistyped method too, and on a drive too small to gain `auto`
# simulates with the reason given. The state's agreement with simulation is checked by the unit
# tests ([replicate]) and measured by bench/age_check.sh.
# usage: aging_test.sh SSDLAB SOURCE_DIR
set -euo pipefail
ssdlab=$1 src=$2
tmp=$(mktemp -d /tmp/ssdlab-aging.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
field() { python3 -c "import json,sys; d=json.load(open('$1')); print(eval('d' + sys.argv[1]))" "$2"; }

scenario() {  # NAME METHOD [OVERRIDES]
  cat > "$tmp/$1.yaml" <<YAML
name: $1
drive: $src/configs/scaled-fast.yaml
${3:-}
seed: 3
phases:
  - name: aged
    precondition: {fill: 100%, random: 150%, method: $2}
  - name: after
    job: {rw: randwrite, bs: 4k, iodepth: 8, size: 100%, number_ios: 20000, norandommap: true}
YAML
}

# replicate on the scaled-fast drive (16 dies): 2 copies of an 8-die group, said so
scenario rep replicate
"$ssdlab" run "$tmp/rep.yaml" --no-plots -o "$tmp/rep" > "$tmp/rep.out"
[ "$(field "$tmp/rep/summary.json" "['phases'][0]['precondition']['method']")" = replicated ] || fail "not replicated"
[ "$(field "$tmp/rep/summary.json" "['phases'][0]['precondition']['replicas']")" = 2 ] || fail "replicas"
[ "$(field "$tmp/rep/summary.json" "['phases'][0]['precondition']['group_dies']")" = 8 ] || fail "group dies"
grep -q "aged by replication: one group of 8 dies aged, copied 2 times" "$tmp/rep.out" || fail "console line"
# the same with simulation: its GC work per host write within 5 % on this small drive
scenario sim simulate
"$ssdlab" run "$tmp/sim.yaml" --no-plots -q -o "$tmp/sim"
python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
a = json.load(open(f"{t}/sim/summary.json"))["phases"]
b = json.load(open(f"{t}/rep/summary.json"))["phases"]
assert a[0]["precondition"]["method"] == "simulated" and "simulated_because" not in a[0]["precondition"], a[0]["precondition"]
wa, wb = a[0]["waf"], b[0]["waf"]
assert abs(wb - wa) / wa < 0.05, f"aging WAF {wa} simulated vs {wb} replicated"
ja, jb = a[1]["waf"], b[1]["waf"]
assert abs(jb - ja) / ja < 0.05, f"next writes' WAF {ja} vs {jb}"
print(f"aging WAF {wa:.3f} vs {wb:.3f}; next writes' WAF {ja:.3f} vs {jb:.3f}, IOPS {a[1]['iops']:.0f} vs {b[1]['iops']:.0f}")
PY
# auto on a drive below 2^24 units: simulated, and why (no console line for it)
scenario auto auto
"$ssdlab" run "$tmp/auto.yaml" --no-plots -o "$tmp/auto" > "$tmp/auto.out"
[ "$(field "$tmp/auto/summary.json" "['phases'][0]['precondition']['method']")" = simulated ] || fail "auto replicated"
field "$tmp/auto/summary.json" "['phases'][0]['precondition']['simulated_because']" | grep -q "2^24" || fail "no reason"
! grep -q "aged by" "$tmp/auto.out" || fail "console speaks of the aging method on a small drive"
cmp <(field "$tmp/auto/summary.json" "['phases'][1]") <(field "$tmp/sim/summary.json" "['phases'][1]") || fail "auto differs from simulate"
# replicate where it cannot apply: an error naming the file and the phase's line
scenario hyb replicate "overrides: {controller.ftl: hybrid}"
set +e
"$ssdlab" run "$tmp/hyb.yaml" --no-plots -q -o "$tmp/hyb" 2> "$tmp/hyb.err"
rc=$?
set -e
[ $rc = 2 ] || fail "hybrid + replicate exit $rc"
grep -q "hyb.yaml:[0-9]*: phase 'aged': precondition by replication: the hybrid FTL" "$tmp/hyb.err" || fail "$(cat "$tmp/hyb.err")"
# a mistyped method
scenario typo replicat
set +e
"$ssdlab" run "$tmp/typo.yaml" --no-plots -q -o "$tmp/typo" 2> "$tmp/typo.err"
rc=$?
set -e
[ $rc = 2 ] || fail "typo exit $rc"
grep -q "typo.yaml:7: phases\[0\].precondition.method: expected auto, simulate or replicate, got 'replicat'" "$tmp/typo.err" ||
  fail "$(cat "$tmp/typo.err")"
echo "cli:aging: ok"
