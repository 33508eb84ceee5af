#!/usr/bin/env bash
# Issue 25's sweep and snapshot rows: prints the figures bench/RESULTS.md records.
#
#   bench/sweep_bench.sh [SSDLAB_BINARY]        (default: build/ssdlab)
#
# (a) A 24-point local sweep (scenarios/studies/parallelism-link.yaml, jobs lengthened: see
#     below) run twice, `-j 1` then `-j 2`: the wall time of each, the sum of the points' own
#     wall times (wall.json's wall_seconds of every point of the -j 2 sweep: the simulation, not
#     process start-up) and the ratios. "Uses both cores" means wall(-j 2) about half of
#     wall(-j 1). SSDLAB_BENCH_SKIP_RESTORE=1 stops after (a).
# (b) Snapshot restore: the 512 GiB bench drive (bench/drives/bench512g.yaml) filled by a
#     precondition phase and saved with --save-image under $SSDLAB_BENCH_TMP (default /var/tmp);
#     then a tiny scenario (one 4 KiB random read job of 1,000 I/Os) run with and without
#     --load-image, alternating, SSDLAB_BENCH_ROUNDS times (default 3); the difference of the
#     medians is the restore. The image's size on disk (du) is printed. The image and all
#     outputs are deleted at the end.
# Wall times depend on the machine's load: the load average is printed with the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/ssdlab}")
rounds=${SSDLAB_BENCH_ROUNDS:-3}
tmp=$(mktemp -d "${SSDLAB_BENCH_TMP:-/var/tmp}/ssdlab-sweep-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- (a) the 24-point local sweep ------------------------------------------------------------
# The study's points are ~0.1 s each (3 x 500 ms simulated), as short as a process start: a copy
# of the plan with each job's runtime set to $SSDLAB_BENCH_RUNTIME (default 5s) gives the cores
# work to share. SSDLAB_BENCH_RUNTIME=500ms runs the plan as written.
runtime=${SSDLAB_BENCH_RUNTIME:-5s}
src=scenarios/studies
sed "s|^scenario: .*|scenario: $tmp/run.yaml|" "$src/parallelism-link.yaml" > "$tmp/plan.yaml"
sed -e "s|^drive: .*|drive: $(realpath configs/scaled-fast.yaml)|" -e "s|runtime: 500ms|runtime: $runtime|" \
  "$src/parallelism-link-run.yaml" > "$tmp/run.yaml"
plan=$tmp/plan.yaml
points=$("$bin" sweep "$plan" --dry-run 2>/dev/null | grep -c '^ *[0-9]' || true)
echo "== (a) $src/parallelism-link.yaml, job runtime $runtime ($points points per --dry-run)"
declare -A wall
for j in 1 2; do
  start=$(now)
  "$bin" sweep "$plan" --engine local -j "$j" --out "$tmp/sweep-j$j" > "$tmp/sweep-j$j.log" 2>&1 ||
    { echo "sweep -j $j failed:"; tail -20 "$tmp/sweep-j$j.log"; exit 1; }
  wall[$j]=$(elapsed "$start" "$(now)")
  done_points=$(find "$tmp/sweep-j$j/points" -name summary.json | wc -l)
  echo "sweep -j $j: wall ${wall[$j]} s, $done_points points done, load $(cut -d' ' -f1 /proc/loadavg)"
done
sum=$(find "$tmp/sweep-j2/points" -name wall.json -exec grep -h '"wall_seconds"' {} + |
  awk -F: '{ gsub(/[ ,]/, "", $2); s += $2 } END { printf "%.2f", s }')
echo "sum of the points' wall_seconds (-j 2 sweep): $sum s"
awk -v w1="${wall[1]}" -v w2="${wall[2]}" -v s="$sum" 'BEGIN {
  printf "wall(-j 2) / wall(-j 1) = %.2f (0.5 = both cores used fully)\n", w2 / w1
  printf "wall(-j 2) / sum of point walls = %.2f\n", w2 / s }'

# ---- (b) snapshot restore of the 512 GiB drive ----------------------------------------------
[ "${SSDLAB_BENCH_SKIP_RESTORE:-0}" = 1 ] && exit 0
echo "== (b) snapshot restore, bench/drives/bench512g.yaml"
drive=$(realpath bench/drives/bench512g.yaml)
cat > "$tmp/fill.yaml" <<EOF
name: fill512
description: "sweep_bench: fill the 512 GiB bench drive (a fill, no random overwrite)"
drive: $drive
seed: 1
phases:
  - name: fill
    precondition: {fill: 100%, random: 0%}
EOF
cat > "$tmp/tiny.yaml" <<EOF
name: tiny512
description: "sweep_bench: 1,000 random 4 KiB reads"
drive: $drive
seed: 1
phases:
  - name: randread
    job: {rw: randread, bs: 4k, iodepth: 32, number_ios: 1000}
EOF
image=$tmp/bench512g.img
start=$(now)
/usr/bin/time -f "%U %S %M" -o "$tmp/fill.time" \
  "$bin" run "$tmp/fill.yaml" --out "$tmp/fill" --no-plots -q --save-image "$image" > "$tmp/fill.log" 2>&1 ||
  { echo "fill failed:"; tail -20 "$tmp/fill.log"; exit 1; }
read -r fu fs frss < "$tmp/fill.time"
echo "fill + save: wall $(elapsed "$start" "$(now)") s, user $fu s, sys $fs s, peak RSS $((frss / 1024)) MiB"
echo "image: $(du -h "$image" | cut -f1) on disk ($(du -h --apparent-size "$image" | cut -f1) apparent)"
: > "$tmp/with" && : > "$tmp/without"
for r in $(seq "$rounds"); do
  for mode in without with; do
    args=()
    [ $mode = with ] && args=(--load-image "$image")
    rm -rf "$tmp/tiny"
    start=$(now)
    "$bin" run "$tmp/tiny.yaml" --out "$tmp/tiny" --no-plots -q "${args[@]}" > "$tmp/tiny.log" 2>&1 ||
      { echo "tiny run ($mode image) failed:"; tail -20 "$tmp/tiny.log"; exit 1; }
    elapsed "$start" "$(now)" >> "$tmp/$mode"
    echo >> "$tmp/$mode"
  done
done
w=$(median < "$tmp/with")
wo=$(median < "$tmp/without")
echo "tiny run, median of $rounds: with --load-image $w s, without $wo s ($(tr '\n' ' ' < "$tmp/with")/ $(tr '\n' ' ' < "$tmp/without"))"
awk -v a="$w" -v b="$wo" 'BEGIN { printf "restore = difference: %.2f s (target < 5 s)\n", a - b }'
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
