#!/usr/bin/env bash
# `ssdlab run --fio`: a fio job file runs as the equivalent YAML scenario does (identical
# simulated figures), and its errors say what is wrong.
# usage: fio_cli_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
. "$(dirname "$0")/lib.sh"
data=$src/test/data/fio

SSDLAB_FIO_DEVICE=/dev/null "$bin" run --fio "$data/smoke.fio" --drive "$src/configs/default.yaml" --out "$tmp/fio" \
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

printf '[a]\nrw=read\n[b]\nrw=write\n' > "$tmp/concurrent.fio"
"$bin" run --fio "$tmp/concurrent.fio" --drive "$src/configs/default.yaml" --out "$tmp/c" 2> "$tmp/c.err"
rc=$?
check "concurrent jobs: exit code 2" test "$rc" -eq 2
check "concurrent jobs: the error says so and names the line" \
  grep -q "concurrent.fio:3: \[b\]: runs at the same time as \[a\] (line 1); concurrent jobs are not supported yet" "$tmp/c.err"
printf '[a]\nrw=read\nloops=2\n' > "$tmp/unknown.fio"
"$bin" run --fio "$tmp/unknown.fio" --drive "$src/configs/default.yaml" --out "$tmp/u" 2> "$tmp/u.err"
check "unknown key: an error naming file, line and key" grep -q "unknown.fio:3: loops: not a supported fio key" "$tmp/u.err"
printf '[a]\nrw=read\nsize=1m\nloops=2\n' > "$tmp/lenient.fio"
"$bin" run --fio "$tmp/lenient.fio" --drive "$src/configs/default.yaml" --out "$tmp/l" --fio-lenient --quiet
check "--fio-lenient: the run goes on and the warning is in the results" grep -q "lenient.fio:4: loops" "$tmp/l/fio-notes.txt"
"$bin" run --fio "$tmp/lenient.fio" 2> "$tmp/nodrive.err"
check "--fio without --drive is refused" grep -q "give a SCENARIO, or --fio JOB.fio --drive CONFIG" "$tmp/nodrive.err"

finish
