#!/usr/bin/env bash
# The seed scenarios follow the documents' procedures (issue 14): D3 starts from a
# secure-erased drive and goes straight to its random writes, D7 reads the new drive before
# anything is written (its "first use" baseline), D6 runs its refills both scattered and in
# address order, and D2-D5 and D9 run the firmware of their document's time (no idle-time GC).
# Relations that must hold whatever the FTL: the fresh figures of D2, D4 and D9 within 5 % of
# their preset's calibration run, a first-use read served without flash reads, in-order
# refills copying no more than scattered ones. Runs are scaled down (--scale) and no figure is
# compared with a document here (test/timing/test_seed_scenarios.cpp and
# docs/seed-scenarios.md do that).
# usage: seed_procedures_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
. "$(dirname "$0")/lib.sh"
seed_scale=0.02  # every run scaled (seed_lib.sh run)

. "$(dirname "$0")/seed_lib.sh"

run d3 d3-vertex-random-then-sequential.yaml
check "D3 starts from a secure erase and goes straight to the 30 minutes of random writes" \
  q d3 'names[:2] == ["secure_erase", "random_4k_30min"]'
check "D3 then alternates whole-drive read and write passes, read first" \
  q d3 'names[2:] == ["pass1_read", "pass1_write", "pass2_read", "pass2_write", "pass3_read", "pass3_write"]'

for drive in crucial-m4 intel-510; do
  run "d7-$drive" "d7-no-spare-area-$drive.yaml"
  check "D7 ($drive) reads the new drive first: its first-use baseline" \
    q "d7-$drive" 'names[:3] == ["secure_erase", "first_use_read", "erased_seq_write"]'
  check "D7 ($drive) first-use reads find nothing written (no flash read)" \
    q "d7-$drive" 'unmapped("first_use_read") > 0' 'from_nand("first_use_read") == 0' \
    'from_nand("idle_read") > 0'
done

for drive in intel-510 jmicron-jmf602; do
  scattered="$src/scenarios/d6-fill-delete-fill-$drive.yaml"
  in_order="$src/scenarios/d6-fill-delete-fill-$drive-in-order.yaml"
  check "D6 ($drive) refills both scattered (random order) and in address order" \
    bash -c "grep -q 'fill_trim_off, job: {rw: randwrite' '$scattered' && grep -q 'fill_trim_off, job: {rw: write' '$in_order'"
done
run d6s d6-fill-delete-fill-intel-510.yaml
run d6o d6-fill-delete-fill-intel-510-in-order.yaml
check "D6 both orders run the same phases" q d6o 'names == [p["name"] for p in load("d6s")["phases"]]'
check "D6 in-order refills without TRIM copy no more than scattered ones" \
  q d6o 'ph("fill_trim_off#3")["gc_units_copied"] <= cal("d6s", "fill_trim_off#3")["gc_units_copied"]'

run cal-vertex calibration/vertex-30g.yaml
run d2 d2-vertex-fresh-vs-used.yaml
run d4 d4-vertex-random-write-decay.yaml
run d4u d4-vertex-random-write-decay-unerased.yaml
run cal-m225 calibration/crucial-m225.yaml
run d9 d9-m225-prefilled-vs-trimmed.yaml
check "D2 reads and writes in the document's order: read, write, read, write, read, write" \
  q d2 'names == ["secure_erase", "new_drive_fill", "fresh_read", "fresh_write", "use_read", "use_write", "used_read", "used_write"]'
check "D2 fresh figures within 5 % of the vertex-30g calibration" \
  q d2 'near(ph("fresh_read")["read_mbps"], cal("cal-vertex", "seq_read_fresh")["read_mbps"])' \
  'near(ph("fresh_write")["write_mbps"], cal("cal-vertex", "seq_write_fresh")["write_mbps"])'
check "D4 fresh random-write IOPS within 5 % of the vertex-30g calibration" \
  q d4 'near(ph("fresh_run1")["iops"], cal("cal-vertex", "randwrite_4k_fresh")["iops"])'
check "D9 trimmed random writes within 5 % of the crucial-m225 calibration" \
  q d9 'near(ph("trimmed_random_4k")["write_mbps"], cal("cal-m225", "randwrite_4k_fresh")["write_mbps"])'
check "D4's other reading: six fresh runs, then the sequential fill on the same drive (no erase), six filled runs" \
  q d4u 'names == ["secure_erase", "fresh_run1"] + ["fresh_run#%d" % i for i in range(1, 6)] + ["sequential_fill", "filled_run1"] + ["filled_run#%d" % i for i in range(1, 6)]'
for r in d2 d3 d4 d4u; do
  check "$r runs the spring-2009 Vertex firmware (no idle-time GC)" \
    q "$r" 's["drive"] == "vertex-30g-fw1275"' 'idle_free_blocks(run) == 0'
done
check "d9 runs the M225 TRIM firmware of late 2009 (no idle-time GC)" \
  q d9 's["drive"] == "crucial-m225-fw1819"' 'idle_free_blocks(run) == 0'
finish
