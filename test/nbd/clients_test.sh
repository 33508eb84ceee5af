#!/usr/bin/env bash
# Other real clients on `ssdlab serve`: fio rw=randtrim, qemu-io (pattern write, read-back
# check, discard, zeros), nbdcopy of a file in and out (identical).
# usage: clients_test.sh SSDLAB_BINARY SOURCE_DIR
. "$(dirname "$0")/lib.sh" "$@"
need fio fio
need qemu-io qemu-utils
need nbdcopy libnbd-bin
drive=$SRC/test/nbd/small-drive.yaml

start_server clients --drive "$drive" --pace none || exit 1
fio --name=trim --ioengine=nbd --uri="$URI" --rw=randtrim --bs=64k --iodepth=4 --size=16M --output="$TMP/trim.fio"
check "fio rw=randtrim" test $? -eq 0
grep -E "trim: IOPS" "$TMP/trim.fio"

qemu-io -f raw -c 'write -P 0x5a 1M 64k' -c 'read -P 0x5a 1M 64k' -c 'discard 1M 64k' -c 'read -P 0 1M 64k' \
    "$URI" > "$TMP/qemu.out" 2>&1
rc=$?
cat "$TMP/qemu.out"
check "qemu-io runs (status $rc)" test $rc -eq 0
check "qemu-io: 64 KiB written with pattern 0x5a" grep -q "wrote 65536/65536 bytes at offset 1048576" "$TMP/qemu.out"
check "qemu-io: read back, pattern checked, then discarded and read as zeros" \
  bash -c "[ \$(grep -c 'read 65536/65536 bytes at offset 1048576' '$TMP/qemu.out') -eq 2 ] && grep -q 'discard 65536/65536' '$TMP/qemu.out' && ! grep -qi 'fail' '$TMP/qemu.out'"

size=$(grep -o '([0-9]* bytes)' "$TMP/clients.log" | head -1 | tr -dc 0-9)
head -c "$size" /dev/urandom > "$TMP/in.img"
nbdcopy "$TMP/in.img" "$URI"
check "nbdcopy file -> drive ($size bytes)" test $? -eq 0
nbdcopy "$URI" "$TMP/out.img"
check "nbdcopy drive -> file" test $? -eq 0
check "the copies are identical (cmp)" cmp "$TMP/in.img" "$TMP/out.img"

check "server exits 0" stop_server
tail -3 "$TMP/clients.log"
check "trims reached the drive" grep -Eq "[1-9][0-9]* trim" "$TMP/clients.log"
finish
