#!/usr/bin/env bash
# Issue 23, replays that silently did something else: --speed below 1 overflowing the issue
# time, an idle gap in the trace taken for a stall, a request larger than the drive cut to fit,
# a trace without a request replayed as nothing; and `ssdlab replay`'s instruments (--seed,
# --latency-log, --vcd, --trace) and latency from the trace's arrival times.
#   replay_bounds_test.sh SSDLAB SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/test/scenarios/lib.sh"
traces="$src/test/data/traces"
drive="$(cd "$src" && pwd)/configs/scaled-fast.yaml"

field() { python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['phases'][0]; print($2)" "$1/summary.json"; }
replay() {  # replay OUT TRACE [options...]: stdout and stderr to $tmp/OUT.log, exit status kept
  local out=$1
  shift
  timeout 120 "$bin" replay "$@" --drive "$drive" --out "$tmp/$out" --no-plots >"$tmp/$out.log" 2>&1
}
# MSR lines: FILETIME ticks of 100 ns.
t0=128166372003061629
hour=36000000000
msr() { echo "$1,hm,0,$2,$3,$4,100"; }

# The idle gap: two reads two hours apart, replayed at the trace's times. The stall detector
# counted the asked-for idle time as a stall ("completed no request for 3600 s", exit 1).
{ msr $t0 Read 0 4096; msr $((t0 + 2 * hour)) Read 8192 4096; } >"$tmp/gap.csv"
cat >"$tmp/gap.yaml" <<YAML
drive: $drive
sample_interval: 1s
phases:
  - replay: {trace: gap.csv, timing: trace}
YAML
"$bin" run "$tmp/gap.yaml" --out "$tmp/gap" -q --no-plots >"$tmp/gap.log" 2>&1
rc=$?
cat "$tmp/gap.log"
check "a 2 h gap in a trace-timed replay is idle time, not a stall (exit 0)" test "$rc" = 0
check "... both reads replayed, the second 2 h after the first" \
  test "$(field "$tmp/gap" '(p["reads"], round(p["sim_seconds"]))' 2>/dev/null)" = "(2, 7200)"

if [ -n "${SSDLAB_SANITIZER_BUILD:-}" ]; then
  echo "skip mid-run errors (speed overflow, a request larger than the drive): sanitizer build (replay_test.sh)"
else
  # --speed 1e-3 on a week-long gap: the issue time overflowed 2^64 ps and the replay
  # "finished" in 0.001 s at 70 k IOPS, exit 0.
  { msr $t0 Read 0 4096; msr $((t0 + 168 * hour)) Read 8192 4096; } >"$tmp/week.csv"
  replay slow "$tmp/week.csv" --timing trace --speed 1e-3
  rc=$?
  cat "$tmp/slow.log"
  check "--speed 1e-3 on a week-long gap: exit 2" test "$rc" = 2
  check "... naming the line and the limit" grep -q "week.csv:2: .*past the simulator's limit of 100 days" "$tmp/slow.log"

  # A request of 4 EiB was cut to the drive's size under the default lba: wrap.
  { msr $t0 Read 0 4096; msr $t0 Write 0 4611686018427387904; } >"$tmp/huge.csv"
  replay huge "$tmp/huge.csv"
  rc=$?
  cat "$tmp/huge.log"
  check "a 4 EiB request: exit 2" test "$rc" = 2
  check "... refused with file and line" grep -q "huge.csv:2: 4611686018427387904 bytes is larger than the drive" "$tmp/huge.log"
fi

# No request in the file: -f msr ran 0 requests and exited 0; guessed, another message.
replay none_f "$traces/msr_header_only.csv" -f msr
rc=$?
cat "$tmp/none_f.log"
check "no request, format given: exit 2, 'no request in FILE'" \
  bash -c '[ "$1" = 2 ] && grep -q "msr_header_only.csv: no request in .*msr_header_only.csv" "$2"' _ "$rc" "$tmp/none_f.log"
replay none_g "$traces/msr_header_only.csv"
rc=$?
cat "$tmp/none_g.log"
check "no request, format guessed: the same" \
  bash -c '[ "$1" = 2 ] && grep -q "msr_header_only.csv: no request in .*msr_header_only.csv" "$2"' _ "$rc" "$tmp/none_g.log"

# `run`'s instruments on `replay`, and latency from arrival in trace timing: at 10^5 times the
# trace's speed the sample's requests arrive nearly together and one at a time goes out
# (--iodepth 1), so the later ones wait and their latency from arrival exceeds that from issue.
replay inst "$traces/msr_sample.csv" --timing trace --speed 100000 --iodepth 1 --seed 5 --latency-log "$tmp/lat.log" \
  --vcd "$tmp/r.vcd" --trace "$tmp/r.json"
rc=$?
cat "$tmp/inst.log"
check "replay with --seed --latency-log --vcd --trace: exit 0" test "$rc" = 0
check "... the latency log has one line per request (8)" test "$(wc -l <"$tmp/lat.log" 2>/dev/null)" = 8
check "... a VCD" grep -q '\$enddefinitions' "$tmp/r.vcd"
check "... a Chrome trace" python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['traceEvents']" "$tmp/r.json"
check "... the seed in summary.json" test "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seed'])" "$tmp/inst/summary.json" 2>/dev/null)" = 5
check "summary.json: arrival latency beside issue latency, never below it" python3 - "$tmp/inst/summary.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
a, i = p["arrival_latency_us"], p["latency_us"]
print("from arrival", a["mean"], a["max"], "from issue", i["mean"], i["max"])
assert a["mean"] >= i["mean"] and a["max"] >= i["max"] and a["p50"] >= 0
assert p["issue_lateness"]["late_requests"] > 0 and a["mean"] > i["mean"]
PY
check "the console table shows latency from arrival" grep -q "from arrival" "$tmp/inst.log"
replay closed "$traces/msr_sample.csv" -q
check "closed loop: no arrival latency (requests have no arrival time)" \
  test "$(field "$tmp/closed" '"arrival_latency_us" in p')" = False
finish
