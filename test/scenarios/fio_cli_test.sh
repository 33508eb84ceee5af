#!/usr/bin/env bash
# `ssdlab run --fio`: a fio job file runs as the equivalent YAML scenario does (identical
# simulated figures), and its errors say what is wrong.
# usage: fio_cli_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
. "$(dirname "$0")/lib.sh"
data=$src/test/data/fio

SSDLAB_FIO_DEVICE=/dev/null "$bin" run --fio "$data/smoke.fio" --drive "$src/configs/scaled-fast.yaml" --out "$tmp/fio" \
  --quiet
check "run --fio writes summary.json" test -s "$tmp/fio/summary.json"
check "run --fio lists the ignored host keys" grep -q "ioengine=libaio accepted and ignored" "$tmp/fio/fio-notes.txt"
"$bin" run "$data/smoke-equivalent.yaml" --out "$tmp/yaml" --quiet
same_figures() {
  python3 - "$tmp/fio/summary.json" "$tmp/yaml/summary.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def figures(d):
    return [{k: v for k, v in p.items() if k not in ("wall_seconds",)} for p in d["phases"]]
fa, fb = figures(a), figures(b)
if len(fa) != 3 or fa != fb:
    print("phases differ:", [p.get("name") for p in fa], [p.get("name") for p in fb])
    for x, y in zip(fa, fb):
        for k in x:
            if x[k] != y.get(k): print(" ", x.get("name"), k, x[k] if k != "stats" else "...", y.get(k) if k != "stats" else "...")
    sys.exit(1)
PY
}
check "a fio job file and the same jobs in YAML give identical phase results" same_figures

# Concurrent jobs (issue 13): the fio file, the same jobs in YAML and the file as a `fio:` phase
# give identical phase results; fio.json reads like real fio's JSON.
export SSDLAB_FIO_DEVICE=/dev/null
"$bin" run --fio "$data/concurrent.fio" --drive "$src/configs/scaled-fast.yaml" --out "$tmp/cf" --quiet
"$bin" run "$data/concurrent-equivalent.yaml" --out "$tmp/cy" --quiet
"$bin" run "$data/concurrent-fio-phase.yaml" --out "$tmp/cp" --quiet
same_phases() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = ([{k: v for k, v in p.items() if k != "wall_seconds"} for p in json.load(open(f))["phases"]] for f in sys.argv[1:3])
if len(a) != 2 or a != b:
    print("phases differ:", [p.get("name") for p in a], [p.get("name") for p in b])
    sys.exit(1)
if [j["name"] for j in a[0]["jobs"]] != ["writer", "reader", "reader"]:
    sys.exit("jobs of the first phase: " + str(a[0].get("jobs")))
PY
}
check "concurrent jobs: fio file and YAML jobs give identical results" same_phases "$tmp/cf/summary.json" "$tmp/cy/summary.json"
check "concurrent jobs: a fio: phase gives the same results" same_phases "$tmp/cf/summary.json" "$tmp/cp/summary.json"
check "run --fio writes fio.json" test -s "$tmp/cf/fio.json"
python3 "$src/test/scenarios/fio_json_read.py" "$src/test/data/fio/real-fio-3.33-output.json" > "$tmp/real.txt"
check "the fio-json reader reads real fio 3.33 output" test "$(wc -l < "$tmp/real.txt")" -eq 3
python3 "$src/test/scenarios/fio_json_read.py" "$tmp/cf/fio.json" > "$tmp/ours.txt"
cat "$tmp/ours.txt"
check "the same reader reads ssdlab's fio.json: one line per job" test "$(wc -l < "$tmp/ours.txt")" -eq 4
fio_figures() {
  python3 - "$tmp/cf/fio.json" "$tmp/cf/summary.json" <<'PY'
import json, sys
fio, summary = (json.load(open(f)) for f in sys.argv[1:3])
jobs = fio["jobs"]
assert [j["jobname"] for j in jobs] == ["writer", "reader", "reader", "paced"], [j["jobname"] for j in jobs]
assert [j["groupid"] for j in jobs] == [0, 0, 0, 1]
assert jobs[0]["write"]["total_ios"] == 2048 and jobs[0]["write"]["io_bytes"] == 8 << 20
assert jobs[1]["read"]["total_ios"] == 1024 and jobs[2]["read"]["total_ios"] == 1024
phase = summary["phases"][0]
assert sum(j["read"]["total_ios"] + j["write"]["total_ios"] for j in jobs[:3]) == phase["reads"] + phase["writes"]
w = jobs[0]["write"]
assert abs(w["iops"] - w["total_ios"] / (w["runtime"] / 1000.0)) < 0.01 * w["iops"], w
assert w["bw"] == w["bw_bytes"] // 1024
assert w["clat_ns"]["min"] <= w["clat_ns"]["percentile"]["99.000000"] <= w["clat_ns"]["max"]
assert abs(w["lat_ns"]["mean"] / 1000.0 - phase["write_latency_us"]["mean"]) <= 1e-6 * w["lat_ns"]["mean"], (w["lat_ns"], phase["write_latency_us"])
assert jobs[3]["sync"]["total_ios"] > 0 and summary["phases"][1]["flushes"] == jobs[3]["sync"]["total_ios"]
assert summary["phases"][1]["ramp_completions"] > 0
# A flush does not leak into the requests after it: reads stay reads, one flush per 16 writes at most.
assert jobs[3]["read"]["total_ios"] > 0 and jobs[3]["sync"]["total_ios"] * 16 <= 2000, jobs[3]["sync"]
PY
}
check "fio.json: names, groups, counts and rates agree with summary.json" fio_figures
"$bin" run --fio "$data/concurrent.fio" --drive "$src/configs/scaled-fast.yaml" --out "$tmp/cj" --output-format=json \
  > "$tmp/stdout.json"
check "--output-format=json: fio's JSON on stdout and nothing else" python3 "$src/test/scenarios/fio_json_read.py" "$tmp/stdout.json"
check "--output-format=json: stdout is fio.json" cmp "$tmp/stdout.json" "$tmp/cj/fio.json"
# group_reporting (issue 23): one entry per reporting group, as real fio 3.33 prints for the
# same file (test/data/fio/group-reporting.fio): names, group ids, summed I/O, merged latency.
"$bin" run --fio "$data/group-reporting.fio" --drive "$src/configs/scaled-fast.yaml" --out "$tmp/gr" --quiet
group_reporting() {
  python3 - "$data/real-fio-3.33-group-reporting.json" "$tmp/gr/fio.json" "$tmp/gr/summary.json" <<'PY'
import json, sys
real, ours, summary = (json.load(open(f)) for f in sys.argv[1:4])
def entries(doc):  # fio 3.33's empty trailing entry (no jobname) left out: see the .fio file
    return [(j["jobname"], j["groupid"], j["read"]["total_ios"], j["write"]["total_ios"],
             j["read"]["io_bytes"], j["write"]["io_bytes"]) for j in doc["jobs"] if "jobname" in j]
print("real fio:", entries(real))
print("ssdlab:  ", entries(ours))
assert entries(real) == entries(ours)
a, c, d = ours["jobs"]
first = summary["phases"][0]["jobs"]  # summary.json keeps every job: a, b, c
assert a["write"]["clat_ns"]["N"] == first[1]["writes"] and a["read"]["clat_ns"]["N"] == first[0]["reads"]
# Merged latency: the second group is the whole phase, whose figures summary.json has.
second = summary["phases"][1]
assert d["read"]["total_ios"] == second["reads"] and d["write"]["total_ios"] == second["writes"]
assert abs(d["read"]["clat_ns"]["mean"] / 1000.0 - second["read_latency_us"]["mean"]) <= 1e-6 * d["read"]["clat_ns"]["mean"]
assert abs(d["read"]["clat_ns"]["max"] - second["read_latency_us"]["max"] * 1000) <= 1
PY
}
check "group_reporting: fio.json has fio 3.33's entries for the same file" group_reporting
unset SSDLAB_FIO_DEVICE
printf '[a]\nrw=read\nloops=2\n' > "$tmp/unknown.fio"
"$bin" run --fio "$tmp/unknown.fio" --drive "$src/configs/scaled-fast.yaml" --out "$tmp/u" 2> "$tmp/u.err"
check "unknown key: an error naming file, line and key" grep -q "unknown.fio:3: loops: not a supported fio key" "$tmp/u.err"
printf '[a]\nrw=read\nsize=1m\nloops=2\n' > "$tmp/lenient.fio"
"$bin" run --fio "$tmp/lenient.fio" --drive "$src/configs/scaled-fast.yaml" --out "$tmp/l" --fio-lenient --quiet
check "--fio-lenient: the run goes on and the warning is in the results" grep -q "lenient.fio:4: loops" "$tmp/l/fio-notes.txt"
"$bin" run --fio "$tmp/lenient.fio" 2> "$tmp/nodrive.err"
check "--fio without --drive is refused" grep -q "give a SCENARIO, or --fio JOB.fio --drive CONFIG" "$tmp/nodrive.err"

finish
