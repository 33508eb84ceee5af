#!/usr/bin/env bash
# `ssdlab serve` from start to exit: a SIGINT or SIGTERM while the image is being restored stops
# the server cleanly (exit 0, "stopped before serving", never listening); a damaged image is
# refused and left as it was; an image that cannot
# be saved at shutdown makes it exit 1 and say so; when realtime pacing fell behind the wall
# clock (here: the server stopped for 0.3 s with SIGSTOP while a client writes) the exit says by
# how much; `serve --help` says where the drive's figures come from.
# usage: lifecycle_test.sh SSDLAB_BINARY SOURCE_DIR NBD_RAW_CLIENT
. "$(dirname "$0")/lib.sh" "$@"
drive=$SRC/test/nbd/small-drive.yaml

# An image with data in it.
start_server make --drive "$drive" --pace none --image "$TMP/a.img" || exit 1
"$CLIENT" 127.0.0.1 "$PORT" pattern write 3 16 > "$TMP/make.txt" || { cat "$TMP/make.txt"; exit 1; }
check "server exits 0 (image saved)" stop_server
size=$(stat -c %s "$TMP/a.img")
sum=$(md5sum < "$TMP/a.img")
echo "image of $size bytes"

# The restore reads the image from a pipe: half of it, then (once the signal is sent) the rest.
# Started from this script, the server inherits SIGINT ignored (a background job of a
# non-interactive shell): only a handler of its own catches it.
for sig in INT TERM; do
  rm -f "$TMP/pipe.img" "$TMP/go"
  mkfifo "$TMP/pipe.img"
  ( head -c $((size / 2)) "$TMP/a.img"; while [ ! -e "$TMP/go" ]; do sleep 0.05; done
    tail -c +$((size / 2 + 1)) "$TMP/a.img" ) > "$TMP/pipe.img" 2> /dev/null &
  writer=$!
  "$SSDLAB" serve --drive "$drive" --pace none --image "$TMP/pipe.img" --listen 127.0.0.1:0 --out "$TMP/sig$sig" \
    > "$TMP/sig$sig.log" 2>&1 &
  SERVER_PID=$!
  sleep 1
  kill -$sig "$SERVER_PID"
  touch "$TMP/go"
  rc=timeout
  for _ in $(seq 600); do
    if ! kill -0 "$SERVER_PID" 2> /dev/null; then wait "$SERVER_PID"; rc=$?; break; fi
    sleep 0.05
  done
  [ "$rc" = timeout ] && kill -KILL "$SERVER_PID" 2> /dev/null && wait "$SERVER_PID" 2> /dev/null
  SERVER_PID=
  kill "$writer" 2> /dev/null; wait "$writer" 2> /dev/null
  cat "$TMP/sig$sig.log"
  check "SIG$sig during the image restore: exit status 0 within 30 s (got $rc)" test "$rc" = 0
  check "SIG$sig during the image restore: said so, never listened" \
    bash -c "grep -q 'SIG$sig during the image restore: stopped before serving' '$TMP/sig$sig.log' && ! grep -q 'listening on' '$TMP/sig$sig.log'"
done
check "the image is unchanged" test "$(md5sum < "$TMP/a.img")" = "$sum"

# A damaged image is refused before serving, and the file is left as it was.
cp "$TMP/a.img" "$TMP/bad.img"
printf 'X' | dd of="$TMP/bad.img" bs=1 seek=$((size - 1000)) conv=notrunc status=none
bad_sum=$(md5sum < "$TMP/bad.img")
"$SSDLAB" serve --drive "$drive" --pace none --image "$TMP/bad.img" --listen 127.0.0.1:0 --out "$TMP/bad" \
  > "$TMP/bad.log" 2>&1
rc=$?
cat "$TMP/bad.log"
check "a damaged image is refused (exit status $rc), naming the damage" \
  bash -c "[ $rc -ne 0 ] && grep -q 'checksum mismatch' '$TMP/bad.log' && ! grep -q 'listening on' '$TMP/bad.log'"
check "the refused image file is unchanged, no temporary left" \
  bash -c "[ \"\$(md5sum < '$TMP/bad.img')\" = '$bad_sum' ] && ! ls '$TMP'/bad.img.tmp.* 2> /dev/null"

# An image that cannot be saved at shutdown: its path has become a directory.
cp "$TMP/a.img" "$TMP/b.img"
start_server nosave --drive "$drive" --pace none --image "$TMP/b.img" || exit 1
rm "$TMP/b.img" && mkdir -p "$TMP/b.img/in-the-way"
"$CLIENT" 127.0.0.1 "$PORT" pattern write 4 1 > /dev/null  # its FLUSH fails (EIO): the save does
stop_server
rc=$?
tail -4 "$TMP/nosave.log"
check "image not saved at shutdown: exit status 1 (got $rc)" test "$rc" = 1
check "image not saved at shutdown: said so" grep -q "could not be saved at shutdown" "$TMP/nosave.log"

# Realtime pacing that fell behind: the server stopped 3 times for 0.3 s while a client writes 32 MiB
# (the flash is busy throughout: the kernel has events due while it is stopped).
start_server late --drive "$drive" --pace realtime || exit 1
"$CLIENT" 127.0.0.1 "$PORT" pattern write 5 16 > "$TMP/late-client.txt" 2>&1 &
client=$!
for _ in 1 2 3; do  # three times: a stop while the kernel has nothing due leaves no lag
  sleep 0.3
  kill -STOP "$SERVER_PID"
  sleep 0.3
  kill -CONT "$SERVER_PID"
done
wait $client
check "the client's writes and reads are served across the stop" test $? -eq 0
check "server exits 0" stop_server
grep "pacing" "$TMP/late.log"
check "pacing ran late: one line at exit with the share of late steps and the lag" \
  grep -q "pacing ran late: [0-9.]* % of [0-9]* kernel steps .* at most [0-9.]* ms" "$TMP/late.log"
check "summary.json counts the late steps" test "$(field "$TMP/late/summary.json" late_steps)" -ge 1
"$SSDLAB" serve --help > "$TMP/help.txt"
check "serve --help: the drive's figures come from ssdlab run" grep -q 'figures come from `ssdlab run`' "$TMP/help.txt"
finish
