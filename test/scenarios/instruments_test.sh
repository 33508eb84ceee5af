#!/usr/bin/env bash
# `ssdlab run --vcd F --vcd-window T0,T1 --trace F --trace-window T0,T1` end to end: the files are written and
# valid (the trace is JSON with the drive's tracks, every slice inside the window; the VCD has
# its header, the declared signals and increasing times), the simulated results are the same
# as without instruments, and a bad window is a usage error (exit 2) naming the option.
# usage: instruments_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
. "$(dirname "$0")/lib.sh"
scenario="$src/test/scenarios/smoke.yaml"

"$bin" run "$scenario" --out "$tmp/plain" --quiet
"$bin" run "$scenario" --out "$tmp/inst" --vcd "$tmp/run.vcd" --trace "$tmp/run.json" \
  --trace-window 0.01,0.02 > "$tmp/out.txt"
check "run with --vcd and --trace names both files in its closing lines" \
  bash -c "grep -q '^vcd $tmp/run.vcd: ' '$tmp/out.txt' && grep -q '^trace $tmp/run.json: ' '$tmp/out.txt'"
check "instruments change no simulated result" cmp -s "$tmp/plain/summary.json" "$tmp/inst/summary.json"
check "instruments change no time-series sample" cmp -s "$tmp/plain/timeseries.csv" "$tmp/inst/timeseries.csv"
check "trace is JSON with the drive's tracks and every slice in the window" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
assert {"SATA link", "firmware CPU", "NCQ tag 0", "channel 0", "die 0 (channel 0)"} <= names, names
xs = [e for e in ev if e["ph"] == "X"]
assert xs, "no slices"
for e in xs:
    assert e["ts"] <= 0.02e6 and e["ts"] + e["dur"] >= 0.01e6, e
starts = sorted(e["id"] for e in ev if e["ph"] == "s")
ends = sorted(e["id"] for e in ev if e["ph"] == "f")
assert starts == ends, "unpaired flows"
' "$tmp/run.json"
check "vcd has its header, the declared signals and increasing times" python3 -c '
import sys
text = open(sys.argv[1]).read()
head, _, body = text.partition("$enddefinitions $end")
assert "$timescale 1ps $end" in head
for sig in ("ncq_in_flight", "buffer_dirty", "link_busy", "gc_dies", "bus", "state", "free_blocks"):
    assert " %s $end" % sig in head, sig
times = [int(l[1:]) for l in body.splitlines() if l.startswith("#")]
assert times and all(a < b for a, b in zip(times, times[1:])), "times not increasing"
' "$tmp/run.vcd"

"$bin" run "$scenario" --out "$tmp/win" --vcd "$tmp/win.vcd" --vcd-window 0.01,0.02 > "$tmp/win.txt"
check "run with --vcd-window names the window in its closing line" grep -q "^vcd $tmp/win.vcd: .* in \[0.01,0.02\] s" "$tmp/win.txt"
check "instruments with a VCD window change no simulated result" cmp -s "$tmp/plain/summary.json" "$tmp/win/summary.json"
check "the windowed VCD is the whole VCD cut to [T0, T1): values at T0 dumped there, then the same changes" python3 -c '
import sys
def read(path):
    text = open(path).read()
    head, _, body = text.partition("$enddefinitions $end")
    ids = [l.split()[3] for l in head.splitlines() if l.startswith("$var")]
    stamps = []  # (time, {id: value}) in file order, $dumpvars included
    pending = None  # a vector value waiting for its identifier (which may start with b, 0 or 1)
    for tok in body.split():
        if pending is not None:
            stamps[-1][1][tok] = pending
            pending = None
        elif tok.startswith("#"):
            stamps.append((int(tok[1:]), {}))
        elif tok.startswith("$"):
            continue
        elif tok[0] in "01":
            stamps[-1][1][tok[1:]] = int(tok[0])
        else:
            pending = int(tok[1:], 2)
    return ids, stamps
ids, whole = read(sys.argv[1])
_, win = read(sys.argv[2])
t0, t1 = 10**10, 2 * 10**10
assert win and win[0][0] == t0, "the window does not start with a dump at T0: %r" % (win[:1],)
state = {}
for t, ch in whole:
    if t <= t0: state.update(ch)
assert win[0][1] == {i: state.get(i, 0) for i in ids}, "values at T0 differ"
inside = [(t, ch) for t, ch in whole if t0 < t < t1]
assert [(t, ch) for t, ch in win[1:]] == inside, "changes inside the window differ"
assert len(inside) > 100, "a window with few changes proves little: %d" % len(inside)
' "$tmp/run.vcd" "$tmp/win.vcd"
"$bin" run "$scenario" --out "$tmp/bad" --quiet --vcd-window 0,1 2> "$tmp/err.txt"
rc=$?
check "--vcd-window without --vcd is a usage error (exit $rc)" bash -c "[ $rc = 2 ] && grep -q -- '--vcd-window' '$tmp/err.txt'"
"$bin" run "$scenario" --out "$tmp/bad" --quiet --vcd "$tmp/bad.vcd" --vcd-window 3,1 2> "$tmp/err.txt"
rc=$?
check "--vcd-window 3,1 is a usage error naming the option (exit $rc)" bash -c "[ $rc = 2 ] && grep -q -- '--vcd-window' '$tmp/err.txt'"

for bad in "5,2" "x" "0.1" "-1,2"; do
  "$bin" run "$scenario" --out "$tmp/bad" --quiet --trace "$tmp/bad.json" --trace-window "$bad" 2> "$tmp/err.txt"
  rc=$?
  check "--trace-window $bad is a usage error naming the option (exit $rc)" \
    bash -c "[ $rc = 2 ] && grep -q -- '--trace-window' '$tmp/err.txt'"
done
"$bin" run "$scenario" --out "$tmp/bad" --quiet --trace-window 0,1 2> "$tmp/err.txt"
rc=$?
check "--trace-window without --trace is a usage error (exit $rc)" \
  bash -c "[ $rc = 2 ] && grep -q -- '--trace-window: needs --trace' '$tmp/err.txt'"
"$bin" run "$scenario" --out "$tmp/bad" --quiet --vcd "$tmp/no/such/dir/x.vcd" 2> "$tmp/err.txt"
rc=$?
check "an unwritable --vcd file fails naming it (exit $rc)" bash -c "[ $rc != 0 ] && grep -q 'no/such/dir/x.vcd' '$tmp/err.txt'"

finish
