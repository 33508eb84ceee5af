#!/usr/bin/env bash
# A person at a terminal (docs/cli.md): --version, no SystemC banner, did-you-mean, exit codes,
# the progress line on a TTY only, and the files `run` adds: latency histograms, time-series
# percentiles, the latency log.
# usage: term_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh"
unset SYSTEMC_DISABLE_COPYRIGHT_MESSAGE SC_COPYRIGHT_MESSAGE  # the binary must silence SystemC itself
smoke=$src/test/scenarios/smoke.yaml
# status WANT "description" args...: runs ssdlab with args, output in $tmp/out, checks the exit code
status() {
  local want=$1 what=$2; shift 2
  "$bin" "$@" > "$tmp/out" 2>&1
  local got=$?
  if [ "$got" -eq "$want" ]; then echo "ok   $what (exit $got)"; else echo "FAIL $what: exit $got, want $want"; cat "$tmp/out"; fails=$((fails + 1)); fi
  if grep -q "Accellera\|Copyright (c)" "$tmp/out"; then echo "FAIL $what: SystemC banner"; fails=$((fails + 1)); fi
}

# --version, --help, and no banner on any subcommand, error or not.
status 0 "--version" --version
check "...names version and build type" grep -Eq '^ssdlab [0-9]+\.[0-9]+\.[0-9]+ \(.* build, SystemC 2\.3\.[0-9]+\)$' "$tmp/out"
status 0 "-V" -V
status 0 "--help" --help
for sub in run info serve params explain; do status 0 "$sub --help" "$sub" --help; done
status 0 "info" info "$src/configs/scaled-fast.yaml"
status 0 "params scenario" params scenario
check "...lists percentile_list" grep -q "^percentile_list" "$tmp/out"

# Exit code 2: usage and config errors, each naming the closest match where there is one.
status 2 "no subcommand"
status 2 "a mistyped subcommand" rn "$smoke"
check "...names the closest: run" grep -q "unknown command 'rn' (did you mean 'run'?)" "$tmp/out"
status 2 "another mistyped subcommand" inof "$src/configs/scaled-fast.yaml"
check "...names the closest: info" grep -q "did you mean 'info'?" "$tmp/out"
status 2 "a mistyped option" run "$smoke" --quite
check "...names the closest: --quiet" grep -q "did you mean '--quiet'?" "$tmp/out"
status 2 "a mistyped serve option" serve --drive "$src/configs/scaled-fast.yaml" --listn 127.0.0.1:0
check "...names the closest: --listen" grep -q "did you mean '--listen'?" "$tmp/out"
status 2 "a missing argument" run
status 2 "a bad option value" run "$smoke" --scale 7
status 2 "a bad --latency-window" run "$smoke" --latency-log "$tmp/l" --latency-window 2,1
status 2 "--latency-window without --latency-log" run "$smoke" --latency-window 0,1
status 2 "a bad --latency-log-format" run "$smoke" --latency-log "$tmp/l" --latency-log-format xml
status 2 "a missing config file" info "$tmp/none.yaml"
status 2 "an unknown params section" params nosuch
status 2 "explain without results" explain "$tmp/none"
sed 's/^seed: 7/seed: 7\npercentile_list: [99, 101]/' "$smoke" > "$tmp/badpct.yaml"
sed -i "s|\.\./\.\./configs|$src/configs|" "$tmp/badpct.yaml"
status 2 "a percentile over 100" run "$tmp/badpct.yaml" --out "$tmp/x" -q
check "...named with file and key" grep -q "badpct.yaml:[0-9]*: percentile_list: '101' is not a percentile" "$tmp/out"
sed "s|\.\./\.\./configs|$src/configs|; s/bs: 4k/bs: 64MiB/" "$smoke" > "$tmp/bigbs.yaml"
status 2 "a phase the drive cannot run (bs over max_transfer)" run "$tmp/bigbs.yaml" --out "$tmp/y" -q
check "...naming the phase" grep -q "phase 'mixed': bs" "$tmp/out"

# Exit code 1: the run or the system failed.
status 1 "a results directory that cannot be created" run "$smoke" --out /dev/null/x -q
status 1 "a latency log that cannot be written" run "$smoke" --out "$tmp/z" -q --latency-log /dev/null/x

# Exit code 0 and the files a run writes.
status 0 "run" run "$smoke" --out "$tmp/a" --latency-log "$tmp/a.lat"
check "a run not on a terminal draws no progress line" bash -c "! grep -q $'\r' '$tmp/out'"
status 0 "explain" explain "$tmp/a"
check "timeseries.csv ends in p50_us,p99_us" bash -c "head -1 '$tmp/a/timeseries.csv' | grep -q ',die_busy,p50_us,p99_us$'"
check "timeseries.csv names the phases" bash -c "cut -d, -f2 '$tmp/a/timeseries.csv' | sort -u | grep -qx mixed"
python3 - "$tmp/a" "$tmp/a.lat" > "$tmp/py.txt" 2>&1 <<'PY'
import csv, json, sys
d, lat = sys.argv[1], sys.argv[2]
s = json.load(open(d + "/summary.json"))
h = json.load(open(d + "/latency_histograms.json"))
assert [p["name"] for p in h["phases"]] == [p["name"] for p in s["phases"]]
rows = list(csv.reader(open(d + "/latency_histograms.csv")))
assert rows[0] == ["phase", "direction", "low_us", "high_us", "count"], rows[0]
requests = 0
for p, q in zip(s["phases"], h["phases"]):
    requests += p["reads"] + p["writes"] + p["trims"]
    for key, direction, n in (("latency_us", "all", p["reads"] + p["writes"]), ("read_latency_us", "read", p["reads"]),
                              ("write_latency_us", "write", p["writes"])):
        hist, lat_j = q[direction], p[key]
        assert hist["count"] == n, (p["name"], direction)
        b = hist["buckets"]
        assert sum(c for _, _, c in b) == n
        assert all(b[i][1] <= b[i + 1][0] for i in range(len(b) - 1)), "ascending, disjoint"
        assert all(c > 0 and lo < hi for lo, hi, c in b)
        csv_n = sum(int(r[4]) for r in rows[1:] if r[0] == p["name"] and r[1] == direction)
        assert csv_n == n, (p["name"], direction, csv_n, n)
        clat = lat_j["clat_percentiles_us"]
        keys = sorted(clat, key=float)  # a JSON object: summary.json writes its keys sorted as text
        assert keys[:3] == ["1.000000", "5.000000", "10.000000"] and keys[-1] == "99.990000" and len(keys) == 17
        vals = [clat[k] for k in keys]
        assert vals == sorted(vals), "monotone"
        if n:
            assert hist["min_us"] <= vals[0] and vals[-1] <= hist["max_us"]
            assert clat["99.000000"] == lat_j["p99"] and clat["50.000000"] == lat_j["p50"]
lines = open(lat).read().splitlines()
assert len(lines) == requests, (len(lines), requests)
for line in lines[:50]:
    t, v, ddir, bs, off = [int(x) for x in line.split(", ")]
    assert ddir in (0, 1, 2) and bs > 0 and off % 512 == 0 and v > 0
print("ok", requests)
PY
check "histograms, percentiles and the fio latency log agree with summary.json" grep -q "^ok" "$tmp/py.txt"
grep -q "^ok" "$tmp/py.txt" || cat "$tmp/py.txt"

status 0 "run with a latency window and the anatomy format" run "$smoke" --out "$tmp/b" -q --latency-log "$tmp/b.lat" \
  --latency-log-format anatomy --latency-window 1,2
check "...a header with every anatomy part" bash -c "head -1 '$tmp/b.lat' | grep -q '^time_ms,latency_ns,direction,bytes,offset,host_queue_ns,.*,array_ns,flush_wait_ns,read_retry_ns,ecc_ns,link_wake_ns,host_adapter_ns,read_dma_ns,usb_ns$'"
check "...only completions inside the window" \
  awk -F, 'NR > 1 { n++; if ($1 < 1000 || $1 > 2000) bad++ } END { exit !(n > 100 && bad == 0) }' "$tmp/b.lat"
check "...each row's parts add up to its latency" \
  awk -F, 'NR > 1 { s = 0; for (i = 6; i <= NF; i++) s += $i; if (s - $2 > 0.0005 || $2 - s > 0.0005) bad++ } END { exit bad > 0 }' "$tmp/b.lat"
check "the instruments change no simulated figure" cmp -s "$tmp/a/summary.json" "$tmp/b/summary.json"

# On a terminal (script(1) gives the run a pty): a progress line redrawn with \r, erased before
# each phase's line; -q keeps the terminal silent.
if command -v script > /dev/null; then
  SSDLAB_PROGRESS_DELAY=0 script -qec "'$bin' run '$smoke' --out '$tmp/c'" /dev/null > "$tmp/tty.txt" 2>&1
  check "on a terminal: a progress line naming phase, share, simulated time and ETA" \
    grep -aEq $'\rphase 2/3 fill_quarter +[0-9.]+ %  sim [0-9.]+ s  ETA ' "$tmp/tty.txt"
  check "...erased before the phase's result line" grep -aEq $'\r +\rfill_quarter +[0-9]' "$tmp/tty.txt"
  check "...and the results are the same" cmp -s "$tmp/a/summary.json" "$tmp/c/summary.json"
  SSDLAB_PROGRESS_DELAY=0 script -qec "'$bin' run '$smoke' --out '$tmp/d' -q" /dev/null > "$tmp/ttyq.txt" 2>&1
  check "-q on a terminal prints nothing" test ! -s "$tmp/ttyq.txt"
  SSDLAB_PROGRESS_DELAY=0 script -qec "'$bin' run '$smoke' --out '$tmp/e' --no-progress" /dev/null > "$tmp/ttyn.txt" 2>&1
  check "--no-progress on a terminal: the table without a progress line" \
    bash -c "grep -aq '^mixed ' '$tmp/ttyn.txt' && ! grep -aq 'ETA' '$tmp/ttyn.txt'"
else
  echo "SKIP progress line on a terminal: script(1) (util-linux) not installed"
fi

finish
