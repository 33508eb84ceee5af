#!/usr/bin/env bash
# fio through `ssdlab serve`: random 4 KiB writes over three times the drive's user capacity
# with crc32c verification (so garbage collection moves the data), then the drive image kept
# across a restart and checked with --verify_only, and an image refused for another config.
# usage: fio_gc_test.sh SSDLAB_BINARY SOURCE_DIR
. "$(dirname "$0")/lib.sh" "$@"
need fio fio
drive=$SRC/test/nbd/small-drive.yaml
image=$TMP/drive.img

start_server gc --drive "$drive" --pace none --image "$image" || exit 1
fio --name=gc --ioengine=nbd --uri="$URI" --rw=randwrite --bs=4k --iodepth=16 --size=100% --loops=3 \
    --verify=crc32c --randseed=7 --output="$TMP/gc.fio"
check "fio: random 4 KiB writes, 3 x user capacity, verify=crc32c passes" test $? -eq 0
grep -E "write: IOPS|verify" "$TMP/gc.fio" | head -3
keep() {  # the same job writes, then (after the restart) only verifies
  fio --name=keep --ioengine=nbd --uri="$URI" --rw=randwrite --bs=4k --iodepth=8 --offset=4M --size=24M \
      --verify=crc32c --randseed=11 "$@"
}
keep --do_verify=0 --output="$TMP/keep.fio"
check "fio: 24 MiB more written for after the restart (do_verify=0)" test $? -eq 0
check "SIGTERM: the server exits 0" stop_server
cat "$TMP/gc.log"
check "summary.json: GC ran (gc_erases > 0)" test "$(field "$TMP/gc/summary.json" gc_erases)" -gt 0
check "summary.json: write amplification above 1" \
  awk -v w="$(field "$TMP/gc/summary.json" waf)" 'BEGIN { exit !(w > 1.0) }'
check "the image was saved at shutdown" grep -q "image $image saved" "$TMP/gc.log"

start_server again --drive "$drive" --pace none --image "$image" || exit 1
check "restarted with the image: restored" grep -q "image $image restored" "$TMP/again.log"
keep --verify_only=1 --output="$TMP/verify.fio"
check "fio --verify_only on the data written before the restart passes" test $? -eq 0
grep -E "read: IOPS" "$TMP/verify.fio"
check "second server exits 0" stop_server

start_server blank --drive "$drive" --pace none || exit 1
keep --verify_only=1 --output="$TMP/blank.fio" > /dev/null 2>&1
check "...while on a blank drive the same verification fails (it checks data)" test $? -ne 0
check "third server exits 0" stop_server

"$SSDLAB" serve --drive "$drive" -p controller.op=0.2 --image "$image" --listen 127.0.0.1:0 \
    --out "$TMP/refused" > "$TMP/refused.log" 2>&1
rc=$?
cat "$TMP/refused.log"
check "an image of another config is refused (exit status $rc)" test $rc -ne 0
check "...with a message naming the difference" grep -q "belongs to another drive config.*op" "$TMP/refused.log"
check "...before listening" bash -c "! grep -q 'listening on' '$TMP/refused.log'"
finish
