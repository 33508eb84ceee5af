#!/usr/bin/env bash
# `ssdlab serve` serves every drive `ssdlab run` accepts, with its image: on page mapping,
# cost-benefit GC with a mapping cache, striped GC relocation, hybrid FAST and BAST log blocks
# and virtual pages over two dies, 80 MiB of random writes over 40 MiB (of 56: GC or merges
# relocate data) read back as written, and again after the server is stopped (image saved) and
# started on the image. (Hybrid and
# virtual-page drives were refused: "carries no data and has no drive image".)
# usage: drive_kinds_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"
drive=$SRC/test/nbd/small-drive.yaml
kinds=(
  "page|"
  "cost-benefit-cache|-p controller.gc.policy=cost_benefit -p controller.mapping_cache=16KiB"
  "striped|-p controller.gc.relocation=striped"
  "hybrid-fast|-p controller.ftl=hybrid -p controller.hybrid.scheme=fast"
  "hybrid-bast|-p controller.ftl=hybrid -p controller.hybrid.scheme=bast"
  "virtual-page|-p controller.mapping_unit=8KiB"
)
seed=1
for k in "${kinds[@]}"; do
  name=${k%%|*}
  read -r -a params <<< "${k#*|}"
  seed=$((seed + 1))
  start_server "$name" --drive "$drive" --pace none --image "$TMP/$name.img" "${params[@]}" || {
    check "$name: served" false
    continue
  }
  "$CLIENT" 127.0.0.1 "$PORT" pattern write $seed 40
  check "$name: data written reads back" test $? -eq 0
  check "$name: server exits 0 (image saved)" stop_server
  check "$name: the drive relocated data (gc_erases > 0)" test "$(field "$TMP/$name/summary.json" gc_erases)" -gt 0
  start_server "$name-again" --drive "$drive" --pace none --image "$TMP/$name.img" "${params[@]}" || {
    check "$name: served from its image" false
    continue
  }
  grep "restored" "$TMP/$name-again.log"
  "$CLIENT" 127.0.0.1 "$PORT" pattern check $seed 40
  check "$name: restored from its image, it reads back the same" test $? -eq 0
  check "$name: server exits 0" stop_server
done
finish
