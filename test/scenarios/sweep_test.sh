#!/usr/bin/env bash
# `ssdlab sweep` with the local engine (docs/sweep.md): dry run, aging once per drive, a point
# that fails, reruns that skip finished points, --retry, --status, collect, impossible plans.
# The plans are in test/sweep/ (a 32 MiB drive: every point takes a fraction of a second).
# usage: sweep_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
. "$(dirname "$0")/lib.sh"
plans=$src/test/sweep
out=$tmp/local

# ---- `ssdlab run --save-image/--load-image`: what a sweep's aging rests on ----
"$bin" run "$plans/one-run.yaml" --out "$tmp/one" -q --no-plots --save-image "aged=$tmp/aged.img"
check "run --save-image PHASE=FILE writes the image" test -s "$tmp/aged.img"
"$bin" run "$plans/after-image.yaml" --out "$tmp/restored" -q --no-plots --load-image "$tmp/aged.img"
check "a drive restored from the image measures as the drive that was not stopped (every figure but names)" \
  python3 -c "
import json, sys
a = json.load(open('$tmp/one/summary.json'))['phases'][2:]
b = json.load(open('$tmp/restored/summary.json'))['phases']
keys = ['waf', 'iops', 'gc_erases', 'gc_units_copied', 'sim_seconds', 'free_blocks_end', 'latency_us', 'erases']
print([(x['name'], x['waf'], y['waf'], x['gc_erases'], y['gc_erases']) for x, y in zip(a, b)])
sys.exit(not (len(a) == len(b) == 2 and a[0]['gc_erases'] > 0 and
              all(x[k] == y[k] for x, y in zip(a, b) for k in keys)))"
"$bin" run "$plans/after-image.yaml" --out "$tmp/x" -q --no-plots --load-image "$tmp/aged.img" \
  -p controller.op=0.2 2> "$tmp/mismatch.txt"
rc=$?
check "--load-image of another drive's image: exit 2, the first differing config line named" \
  bash -c "[ $rc -eq 2 ] && grep -q \"belongs to another drive config (effective config line [0-9]*: image has '  op: 0.125', this config has '  op: 0.2')\" '$tmp/mismatch.txt'"
"$bin" run "$plans/after-image.yaml" --out "$tmp/x" -q --no-plots --save-image "randwirte=$tmp/x.img" 2> "$tmp/nophase.txt"
rc=$?
check "--save-image naming no phase: exit 2, the closest phase named" \
  bash -c "[ $rc -eq 2 ] && grep -q \"the scenario has no phase 'randwirte' (did you mean 'randwrite'?)\" '$tmp/nophase.txt'"

# ---- the plan: 2 channel counts x 2 OP x 2 seeds, raw capacity held, each drive aged once ----
"$bin" sweep "$plans/local-plan.yaml" --out "$out" --dry-run > "$tmp/dry.txt"
rc=$?
cat "$tmp/dry.txt"
check "--dry-run exits 0" test $rc -eq 0
check "--dry-run lists 8 points, each with its id" \
  test "$(grep -cE '^[0-7] +[0-9a-f]{12} ' "$tmp/dry.txt")" -eq 8
check "--dry-run: raw capacity held (1 channel: 128 blocks per plane, 2 channels: 64)" \
  bash -c "[ \$(grep -cE '^[0-7] +[0-9a-f]{12} +[12] +1 +0\.(125|25) +128 ' '$tmp/dry.txt') -eq 4 ] &&
           [ \$(grep -cE '^[0-7] +[0-9a-f]{12} +[12] +2 +0\.(125|25) +64 ' '$tmp/dry.txt') -eq 4 ]"
check "--dry-run: 4 aging runs for 8 points (one per drive, the aging's seed is fixed)" \
  bash -c "grep -q '8 points (4 combinations of 2 axes x 2 seeds), 4 aging runs' '$tmp/dry.txt' &&
           [ \$(grep -E '^[0-7] ' '$tmp/dry.txt' | awk '{ print \$7 }' | sort -u | wc -l) -eq 4 ]"
check "--dry-run runs and writes nothing" test ! -e "$out"

# One point made to fail: a plain file where its results folder must go (its results cannot be
# moved into place). The test removes it before the retry.
victim=$(awk '$1 == 3 { print $2 }' "$tmp/dry.txt")
mkdir -p "$out/points" && echo "in the way" > "$out/points/$victim"
"$bin" sweep "$plans/local-plan.yaml" --out "$out" -j 2 > "$tmp/run1.txt" 2>&1
rc=$?
cat "$tmp/run1.txt"
check "exit status 1: one point failed" test $rc -eq 1
check "7 points done, 1 failed" grep -q '^8 points: 7 done, 0 running, 1 failed, 0 pending' "$tmp/run1.txt"
check "the failed point's line says why" \
  grep -q "cannot move its results to $out/points/$victim: Not a directory" "$tmp/run1.txt"
check "a .failed record with the exit status and attempt 1" \
  python3 -c "import json,sys; j=json.load(open('$out/points/$victim.failed')); sys.exit(not (j['attempts'] == 1 and j['task'] == 'point 3' and '--load-image' in j['command']))"
check "aging ran once per drive: 4 aged drive images" test "$(ls "$out"/age/*/drive.img | wc -l)" -eq 4
check "aging ran once per drive: 4 aging lines in the tasks' log" \
  test "$(grep -c '^aging [0-3] ([0-9a-f]*): done' "$out/tasks.log")" -eq 4
check "no temporary folder is left" bash -c "! ls -a '$out/points' '$out/age' | grep -q '\.tmp-'"
# The points start from the aged drive (filled, then overwritten at random): their first phase's
# random writes collect garbage at once (a fresh drive's WAF there is 1.00, checked below).
check "every point's first phase is on an aged drive: WAF > 1.3 and GC erases" \
  python3 -c "
import json, glob, sys
wafs = [(json.load(open(f))['phases'][0]['waf'], json.load(open(f))['phases'][0]['gc_erases'])
        for f in glob.glob('$out/points/*/summary.json')]
print(wafs)
sys.exit(not (len(wafs) == 7 and all(w > 1.3 and e > 0 for w, e in wafs)))"

# ---- a rerun skips finished points; a failed one stays failed without --retry ----
stamp() { find "$out/points" "$out/age" -name summary.json -o -name '*.failed' | sort | xargs stat -c '%n %Y.%y'; }
stamp > "$tmp/before.txt"
sleep 1
"$bin" sweep "$plans/local-plan.yaml" --out "$out" -j 2 > "$tmp/run2.txt" 2>&1
rc=$?
cat "$tmp/run2.txt"
stamp > "$tmp/after.txt"
check "rerun: nothing to run, the failed point reported (exit 1)" \
  bash -c "[ $rc -eq 1 ] && grep -q 'to run: 0 points (7 done before, 1 failed before: --retry N runs them again)' '$tmp/run2.txt'"
check "rerun: no result file touched" diff "$tmp/before.txt" "$tmp/after.txt"

"$bin" sweep --status "$out" > "$tmp/status.txt"
rc=$?
cat "$tmp/status.txt"
check "--status: exit 1, 7 done and 1 failed, with the failure" \
  bash -c "[ $rc -eq 1 ] && grep -q '^8 points: 7 done, 0 running, 1 failed, 0 pending' '$tmp/status.txt' &&
           grep -q '^point 3 ($victim): cannot move its results' '$tmp/status.txt' &&
           [ \$(grep -cE '^[0-7] .* done$' '$tmp/status.txt') -eq 7 ]"

# ---- --retry: only the failed point runs again, and succeeds now ----
rm "$out/points/$victim"
"$bin" sweep "$plans/local-plan.yaml" --out "$out" -j 2 --retry 1 > "$tmp/run3.txt" 2>&1
rc=$?
cat "$tmp/run3.txt"
check "--retry: exit 0, all 8 done" bash -c "[ $rc -eq 0 ] && grep -q '^8 points: 8 done' '$tmp/run3.txt'"
check "--retry: only point 3 ran (no aging: its drive was kept)" \
  bash -c "grep -q 'to run: 1 point (7 done before)' '$tmp/run3.txt' && [ \$(grep -c '^\[' '$tmp/run3.txt') -eq 1 ] &&
           grep -q '^\[1/1\] done   point 3' '$tmp/run3.txt'"
grep -v "$victim" "$tmp/before.txt" > "$tmp/b"
stamp | grep -v "$victim" > "$tmp/a"
check "--retry: the other points' results untouched" diff "$tmp/b" "$tmp/a"
check "--retry: the .failed record gone, the point's results in place" \
  bash -c "[ ! -e '$out/points/$victim.failed' ] && [ -s '$out/points/$victim/summary.json' ]"

# ---- collect: the table ----
"$bin" sweep collect "$out" > "$tmp/collect.txt"
rc=$?
cat "$tmp/collect.txt"
check "collect: exit 0" test $rc -eq 0
check "collect: the database holds 8 points and 16 phase rows with their axes and figures" \
  python3 -c "
import sqlite3, sys
db = sqlite3.connect('$out/results.sqlite')
points = db.execute('select count(*), count(distinct \"nand.channels\"), count(distinct seed) from points where status = \"done\"').fetchone()
rows = db.execute('select count(*) from results where phase = \"randwrite\" and waf > 1.3 and kind = \"job\"').fetchone()[0]
phases = db.execute('select count(*) from phases').fetchone()[0]
bpp = db.execute('select distinct \"nand.blocks_per_plane\" from points where \"nand.channels\" = 2').fetchall()
cols = [r[1] for r in db.execute('pragma table_info(phases)')]
print(points, rows, phases, bpp, len(cols))
sys.exit(not (points == (8, 2, 2) and rows == 8 and phases == 16 and bpp == [(64,)] and
              'latency_us.p99' in cols and 'gc_erases' in cols and 'free_blocks_end' in cols))"
check "collect: the CSV has a header and one row per point and phase" \
  bash -c "[ \$(wc -l < '$out/results.csv') -eq 17 ] && head -1 '$out/results.csv' | grep -q '^id,seed,nand.channels,controller.op,nand.blocks_per_plane,phase_index,phase,kind,'"
# The plot script runs where ssdlab finds matplotlib: python3 on PATH, else Debian's.
if python3 -c 'import matplotlib' 2> /dev/null || /usr/bin/python3 -c 'import matplotlib' 2> /dev/null; then
  "$bin" sweep collect "$out" --plot waf@randwrite > "$tmp/plot.txt"
  rc=$?
  check "collect --plot: a PNG per axis" \
    bash -c "[ $rc -eq 0 ] && [ -s '$out/plots/waf@randwrite_vs_nand.channels.png' ] && [ -s '$out/plots/waf@randwrite_vs_controller.op.png' ]"
  "$bin" sweep collect "$out" --plot wafx > /dev/null 2> "$tmp/plot-err.txt"
  rc=$?
  check "collect --plot of an unknown figure: exit 1, the closest named" \
    bash -c "[ $rc -eq 1 ] && grep -q \"no figure 'wafx' in results.csv (close: waf\" '$tmp/plot-err.txt'"
else
  echo "SKIP collect --plot: python3-matplotlib not installed"
fi

# ---- a point the simulation refuses at run time; --retry runs it again ----
"$bin" sweep "$plans/failing-plan.yaml" --out "$tmp/failing" -j 2 > "$tmp/fail1.txt" 2>&1
rc=$?
cat "$tmp/fail1.txt"
check "a run-time failure: exit 1, named in the point's line" \
  bash -c "[ $rc -eq 1 ] && grep -q 'exit 2: .*phase .seqread.: bs 65536 exceeds the drive.s controller.max_transfer (32768 bytes)' '$tmp/fail1.txt'"
failed_id=$(python3 -c "import json; print(json.load(open('$tmp/failing/plan.json'))['points'][1]['id'])")
"$bin" sweep "$plans/failing-plan.yaml" --out "$tmp/failing" --retry 1 > "$tmp/fail2.txt" 2>&1
rc=$?
cat "$tmp/fail2.txt"
check "--retry runs the failed point again (attempt 2), which fails again (exit 1)" \
  bash -c "[ $rc -eq 1 ] && grep -q 'to run: 1 point (1 done before)' '$tmp/fail2.txt' &&
           python3 -c \"import json,sys; sys.exit(json.load(open('$tmp/failing/points/$failed_id.failed'))['attempts'] != 2)\""
check "without aging a point starts fresh: first-phase WAF 1.00" \
  python3 -c "
import json, glob, sys
(f,) = glob.glob('$tmp/failing/points/*/summary.json')
sys.exit(abs(json.load(open(f))['phases'][0]['waf'] - 1.0) > 0.01)"

# ---- a task cancelled while it runs (SIGTERM, as scancel sends it) counts as failed ----
"$bin" sweep "$plans/slow-plan.yaml" --out "$tmp/slow" > "$tmp/slow.txt" 2>&1 &
sweep=$!
for _ in $(seq 300); do
  running=$(ls -a "$tmp/slow/points" 2> /dev/null | grep '\.tmp-' | head -1)
  [ -n "$running" ] && break
  sleep 0.05
done
kill -TERM "${running##*-}"  # the task's process: its pid ends the temporary folder's name
wait $sweep
rc=$?
cat "$tmp/slow.txt"
check "a task cancelled with SIGTERM: failed (exit 1), 'cancelled' recorded, no temporary folder left" \
  bash -c "[ $rc -eq 1 ] && [ -n '$running' ] && grep -q 'cancelled (Terminated)' '$tmp/slow.txt' &&
           ! ls -a '$tmp/slow/points' | grep -q '\.tmp-' &&
           python3 -c \"import json,glob,sys; (f,) = glob.glob('$tmp/slow/points/*.failed'); sys.exit(json.load(open(f))['exit_code'] != 143)\""

# ---- plans refused before anything runs ----
"$bin" sweep "$plans/impossible-plan.yaml" --out "$tmp/impossible" > "$tmp/imp.txt" 2>&1
rc=$?
cat "$tmp/imp.txt"
check "an impossible geometry: exit 126, each impossible point at its value's line, nothing run" \
  bash -c "[ $rc -eq 126 ] && grep -q 'impossible-plan.yaml:10: axes\[1\].values\[1\]: point 1 (nand.channels=1, controller.op=0.01, seed 1) is impossible: override .controller.op=0.01.: controller.op: not enough spare blocks' '$tmp/imp.txt' &&
           grep -q 'impossible-plan.yaml:10: axes\[1\].values\[1\]: point 3 ' '$tmp/imp.txt' && grep -q 'nothing was run' '$tmp/imp.txt' &&
           [ ! -e '$tmp/impossible' ]"
printf 'scenario: %s/points.yaml\naxes:\n  - {key: nand.chanels, values: [1]}\n' "$plans" > "$tmp/typo.yaml"
"$bin" sweep "$tmp/typo.yaml" > "$tmp/typo.txt" 2>&1
rc=$?
check "a mistyped key: exit 126, file, line and the closest key" \
  bash -c "[ $rc -eq 126 ] && grep -q \"typo.yaml:3: axes\[0\].key: 'nand.chanels' is not a drive config key (did you mean 'nand.channels'?)\" '$tmp/typo.txt'"
"$bin" sweep --status "$tmp/nowhere" > /dev/null 2> "$tmp/nostatus.txt"
rc=$?
check "--status of a folder that is no sweep's: exit 126, said so" \
  bash -c "[ $rc -eq 126 ] && grep -q 'plan.json: cannot read' '$tmp/nostatus.txt'"
finish
