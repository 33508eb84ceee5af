#!/usr/bin/env bash
# Which resource limits a phase (issue 25; app/run/limiter.h): ablations on a small drive
# (configs/scaled-fast.yaml with 32 pages per block: 256 MiB raw, the same 16 dies, link, buses and
# firmware). For each workload the run names a limiting resource; then every candidate is relieved
# by a large factor, one at a time, and the named one must raise the phase's IOPS more than any
# other relief does. The reliefs:
#   sata_link     host.sata 3 -> 6 Gb/s (the fastest SATA)
#   firmware_cpu  firmware_cost, firmware_write_cost, firmware_gc_cost -> 0
#   channel_bus   bus_rate x4, t_cmd / 4
#   dies          t_read, t_prog (both page types) and t_erase / 4
#   gc            controller.op 0.07 -> 0.25 (greedy GC copies far fewer pages)
#   write_buffer  write_buffer x4 (8 -> 32 MiB)
# Workloads (expected limiter): 4 KiB random reads at QD32 on a drive with 4x faster buses (the
# link), the same at QD1 (latency-bound: the dies' array time), 128 KiB sequential writes on a
# fresh drive (the dies), 4 KiB random writes after a fill and 2x random overwrite (GC), 4 KiB
# random reads at QD32 with 20 us of firmware per command (the firmware CPU). And the scaled-fast
# drive's own QD32 random read: the link's frames bound 4 KiB reads at ~61 k IOPS (docs/sata-link.md),
# so the link is ~100 % busy and named, not co-limited; the test checks that no other relief beats
# the headroom the report states (1 / utilisation - 1) and that relieving the link does.
# usage: limiter_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh"

small=(-p nand.pages_per_block=32)
scenario() {  # scenario NAME PHASES_YAML: a scenario file on the scaled-fast drive into $tmp/NAME.yaml
  printf 'name: %s\ndrive: %s/configs/scaled-fast.yaml\nseed: 3\nsample_interval: 10ms\nphases:\n%s\n' \
    "$1" "$src" "$2" >"$tmp/$1.yaml"
}
scenario randread_qd32 '  - name: fill
    job: {rw: write, bs: 128k, iodepth: 32, size: 100%}
  - name: measured
    job: {rw: randread, bs: 4k, iodepth: 32, size: 100%, runtime: 100ms, time_based: true}'
scenario randread_qd1 '  - name: fill
    job: {rw: write, bs: 128k, iodepth: 32, size: 100%}
  - name: measured
    job: {rw: randread, bs: 4k, iodepth: 1, size: 100%, runtime: 100ms, time_based: true}'
scenario seqwrite '  - name: measured
    job: {rw: write, bs: 128k, iodepth: 32, size: 100%}'
scenario randwrite_steady '  - name: age
    precondition: {fill: 100%, random: 200%}
  - name: measured
    job: {rw: randwrite, bs: 4k, iodepth: 32, size: 100%, io_size: 100%, norandommap: true}'

# relief NAME BUS_RATE_MB: the overrides that relieve resource NAME on a drive whose bus runs at BUS_RATE_MB MB/s.
relief() {
  case $1 in
    sata_link) echo "-p host.sata=6Gbps" ;;
    firmware_cpu) echo "-p controller.firmware_cost=0us -p controller.firmware_write_cost=0us -p controller.firmware_gc_cost=0us" ;;
    channel_bus) echo "-p nand.bus_rate=$(($2 * 4))MB/s -p nand.t_cmd=50ns" ;;
    dies) echo "-p nand.t_read=12.5us -p nand.t_prog.lsb=62.5us -p nand.t_prog.msb=225us -p nand.t_erase=0.5ms" ;;
    gc) echo "-p controller.op=0.25" ;;
    write_buffer) echo "-p controller.write_buffer=32MiB" ;;
  esac
}
resources=(sata_link firmware_cpu channel_bus dies gc write_buffer)

# field RUN KEY: the measured phase's limiting_resource KEY, or its iops for KEY=iops.
field() {
  python3 - "$tmp/$1/summary.json" "$2" <<'PY'
import json, sys
p = next(p for p in json.load(open(sys.argv[1]))["phases"] if p["name"] == "measured")
key = sys.argv[2]
print(p["iops"] if key == "iops" else p.get("limiting_resource", {}).get(key))
PY
}

# ablate LABEL SCENARIO EXPECTED BUS_MB [extra -p...]: the base run names EXPECTED; relieving it
# raises IOPS more than relieving any other resource. Prints every gain.
ablate() {
  local label=$1 sc=$2 expected=$3 bus=$4
  shift 4
  local base=(run "$tmp/$sc.yaml" -q --no-plots "${small[@]}" "$@")
  "$bin" "${base[@]}" -o "$tmp/$label-base" || { check "$label: base run" false; return; }
  local named base_iops
  named=$(field "$label-base" name)
  base_iops=$(field "$label-base" iops)
  check "$label: the limiting resource is $expected (named: $named; $(field "$label-base" why))" test "$named" = "$expected"
  local gains=() best="" best_gain=-1 r g
  for r in "${resources[@]}"; do
    # shellcheck disable=SC2046  # relief() prints separate words
    "$bin" "${base[@]}" $(relief "$r" "$bus") -o "$tmp/$label-$r" || { check "$label: run relieving $r" false; continue; }
    g=$(python3 -c "print('%.4f' % ($(field "$label-$r" iops) / $base_iops - 1))")
    gains+=("$r $g")
    if python3 -c "import sys; sys.exit(0 if $g > $best_gain else 1)"; then
      best=$r
      best_gain=$g
    fi
  done
  echo "     $label: base $base_iops IOPS; gain per relief: ${gains[*]}"
  check "$label: relieving $expected raises IOPS the most (best: $best, +$best_gain)" test "$best" = "$expected"
  printf '%s\n' "${gains[@]}" >"$tmp/$label.gains"
}

ablate randread_qd32_fast_bus randread_qd32 sata_link 400 -p nand.bus_rate=400MB/s
ablate randread_qd1 randread_qd1 dies 100
ablate seqwrite seqwrite dies 100
ablate randwrite_steady randwrite_steady gc 100
ablate firmware randread_qd32 firmware_cpu 100 -p controller.firmware_cost=20us

# The scaled-fast drive's QD32 random read: the link named, and its stated headroom holds for the rest.
ablate_default() {
  local base=(run "$tmp/randread_qd32.yaml" -q --no-plots "${small[@]}")
  "$bin" "${base[@]}" -o "$tmp/default-base" >"$tmp/default.out" || { check "scaled-fast drive: base run" false; return; }
  check "scaled-fast drive QD32 random read: the link is named, not co-limited ($(field default-base why))" \
    test "$(field default-base name)/$(field default-base co_limited)" = "sata_link/False"
  local u r
  u=$(field default-base utilisation)
  for r in "${resources[@]}"; do
    # shellcheck disable=SC2046
    "$bin" "${base[@]}" $(relief "$r" 100) -o "$tmp/default-$r" || continue
    if [ "$r" = sata_link ]; then
      check "scaled-fast drive: relieving the link (6 Gb/s) raises IOPS by more than 5 %" \
        python3 -c "import sys; g = $(field "default-$r" iops) / $(field default-base iops) - 1; print('     gain %+.4f' % g); sys.exit(0 if g > 0.05 else 1)"
      continue
    fi
    check "scaled-fast drive: relieving $r adds no more than the stated headroom 1/$u - 1" \
      python3 -c "import sys; g = $(field "default-$r" iops) / $(field default-base iops) - 1; print('     gain %+.4f' % g); sys.exit(0 if g <= 1 / $u - 1 + 0.002 else 1)"
  done
}
ablate_default

# The reports name it: explain.txt, the console, report.html.
"$bin" run "$tmp/randread_qd32.yaml" "${small[@]}" --no-plots --no-progress -o "$tmp/words" >"$tmp/words.out"
check "explain.txt names the link for the QD32 random read, with its utilisation" \
  grep -Eq "^  limited by the SATA link: (9[0-9]|100) % busy" "$tmp/words/explain.txt"
check "the console lists the limiting resource per timed phase" \
  grep -Eq "^measured +limited by the SATA link" "$tmp/words.out"
check "report.html carries the same lines" grep -q "limited by the SATA link" "$tmp/words/report.html"
check "summary.json has every resource's utilisation and the firmware CPU's busy time in the tree" \
  python3 -c "
import json, sys
p = json.load(open('$tmp/words/summary.json'))['phases'][1]
u = p['limiting_resource']['utilisations']
assert sorted(u) == sorted(['sata_link', 'firmware_cpu', 'channel_bus', 'dies', 'gc', 'mapping_cache', 'write_buffer', 'usb']), u
cpu = p['stats']['drive']['controller']['firmware_cpu']['busy_fraction']
# 5 us per command: the CPU's busy fraction is IOPS x 5 us over the phase
assert abs(cpu - u['firmware_cpu']) < 1e-12 and 0.2 < cpu < 0.5, cpu
"
finish
