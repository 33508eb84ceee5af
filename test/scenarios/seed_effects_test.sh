#!/usr/bin/env bash
# The effects of issue 14 emerge from the presets' firmware mechanisms (docs/seed-scenarios.md,
# "The five effects"). Each check is a relation between simulated figures of the same or a
# sibling run, never a number copied from a run or a document:
# - D3 (vertex-30g-fw1275, gc.destination: shared): after 30 minutes of random writes the
#   sequential write passes recover pass after pass: pass 1 < pass 2 < pass 3 < fresh.
# - D4 (vertex-30g-fw1275-hybrid, FAST): the fresh drive's random-write IOPS fall within the
#   document's six runs (run 1 several times run 6), run 1 within 5 % of the preset's calibration.
# - D4 read as one drive (page-mapped Vertex, d4-...-unerased: filled after its fresh runs, no
#   erase): the filled drive starts lower than the fresh one and its six runs stay level.
# - D4 JMF602 (jmicron-jmf602-bast): random-write latency maxima on the filled drive far above
#   the same drive with page mapping and above the page-mapped Vertex's on the same test.
# D3 and the D4 runs are full size (the page-mapped Vertex's D4, the reference for latency maxima, is scaled) (scaled copies of D3 distort its GC: a few dozen blocks per
# die against absolute free-block thresholds); each takes seconds to a few tens of seconds.
# A sanitizer build (SSDLAB_SANITIZER_BUILD set, test/CMakeLists.txt) runs 20-30x slower: there
# the full-size D3 and D4 Vertex runs (minutes each) are skipped and the JMF602 pair runs scaled
# (--scale 0.05, where its merges and their latencies are the same as at full size).
# usage: seed_effects_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/seed_lib.sh"

if [ -z "${SSDLAB_SANITIZER_BUILD:-}" ]; then
  run cal-vertex calibration/vertex-30g.yaml
  run d3 d3-vertex-random-then-sequential.yaml
  check "D3 runs the shared-placement Vertex firmware" \
    bash -c "grep -q 'destination: shared' '$tmp/d3/config.yaml'"
  check "D3 sequential writes recover pass after pass, not in one pass: pass 1 < pass 2 < pass 3" \
    q d3 'ph("pass1_write")["write_mbps"] < ph("pass2_write")["write_mbps"] < ph("pass3_write")["write_mbps"]'
  check "D3 pass 3 is still below the fresh sequential write, and pass 2 pays GC copies" \
    q d3 'ph("pass3_write")["write_mbps"] < 0.9 * cal("cal-vertex", "seq_write_fresh")["write_mbps"]' \
    'ph("pass2_write")["gc_units_copied"] > 0'

  run cal-hybrid calibration/vertex-30g-fw1275-hybrid.yaml
  run d4h d4-vertex-random-write-decay-hybrid.yaml
  check "D4 (hybrid Vertex) first fresh run within 5 % of its calibration" \
    q d4h 'near(ph("fresh_run1")["iops"], cal("cal-hybrid", "randwrite_4k_fresh")["iops"])'
  check "D4 (hybrid Vertex) a fresh drive falls within the document's six runs: run 1 > 2 x run 6" \
    q d4h 'ph("fresh_run1")["iops"] > 2 * ph("fresh_run#5")["iops"]'

  run d4u d4-vertex-random-write-decay-unerased.yaml
  check "D4 (page-mapped Vertex, filled after its fresh runs without an erase) the filled drive is lower: run 1 < fresh run 1 / 2" \
    q d4u 'ph("filled_run1")["iops"] < 0.5 * ph("fresh_run1")["iops"]'
  check "D4 (same) and its curve is stable: the six filled runs within a factor 1.5 of each other" \
    q d4u 'max(p["iops"] for p in s["phases"] if p["name"].startswith("filled_run")) < 1.5 * min(p["iops"] for p in s["phases"] if p["name"].startswith("filled_run"))' \
    'len([p for p in s["phases"] if p["name"].startswith("filled_run")]) == 6'
fi

jmf_scale=()
[ -n "${SSDLAB_SANITIZER_BUILD:-}" ] && jmf_scale=(--scale 0.05)
run d4j d4-jmicron-jmf602-prefilled-random-write.yaml "${jmf_scale[@]}"
run d4j-page d4-jmicron-jmf602-prefilled-random-write.yaml -p controller.ftl=page "${jmf_scale[@]}"
check "D4 JMF602 runs the hybrid BAST preset" \
  bash -c "grep -q 'ftl: hybrid' '$tmp/d4j/config.yaml' && grep -q 'scheme: bast' '$tmp/d4j/config.yaml'"
check "D4 JMF602 stutters: its latency maximum over 5 x the same drive's with page mapping" \
  q d4j 'lat_max("d4j", "prefilled_random_4k") > 5 * lat_max("d4j-page", "prefilled_random_4k")'
if [ -z "${SSDLAB_SANITIZER_BUILD:-}" ]; then
  run d4v d4-vertex-random-write-decay.yaml --scale 0.1
  check "D4 JMF602 latency maximum over 5 x the page-mapped Vertex's on its filled drive (scaled copy)" \
    q d4j 'lat_max("d4j", "prefilled_random_4k") > 5 * lat_max("d4v", "filled_run")'
fi
finish
