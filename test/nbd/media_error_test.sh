#!/usr/bin/env bash
# Bit errors over NBD (issue 26): a drive whose every flash read is uncorrectable (nand.errors on,
# its error rate scaled a million times) answers a read of flushed data with EIO and no payload,
# never with other bytes, and goes on serving; the serve summary counts the media errors.
# usage: media_error_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"

start_server media --drive "$SRC/test/nbd/small-drive.yaml" --pace none \
  -p nand.errors.enabled=true -p nand.errors.scale=1000000 || exit 1
"$CLIENT" 127.0.0.1 "$PORT" mediaerror
check "EIO for uncorrectable data, the session goes on" test $? -eq 0
check "server exits 0" stop_server
summary=$TMP/media/summary.json
errors=$(field "$summary" media_errors)
unc=$(field "$summary" uncorrectable_host)
echo "media errors: $errors, uncorrectable host reads: $unc"
check "the drive counts 2 commands failed by uncorrectable reads" test "$errors" = 2
check "...each of one uncorrectable flash read" test "$unc" = 2
finish
