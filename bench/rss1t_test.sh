#!/usr/bin/env bash
# The rss1t row on a small copy of its drive, under valgrind's memcheck when it is installed:
# the row once read the P2L table's figures through a pointer to a ScenarioRunner that had been
# destroyed (a SIGSEGV on a 4 TiB drive, wrong figures at 1 TiB; memcheck reports "Invalid read"
# at any size; a sanitizer build runs it under ASan alone, which does not see that read). Its JSON line must hold the P2L figures of the run.
# usage: rss1t_test.sh SSDLAB_BENCH
set -uo pipefail
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
bench=$1
args=(rss1t --requests 2000 -p nand.blocks_per_plane=64 -p nand.pages_per_block=16)
run=()
if [ -n "${SSDLAB_SANITIZER_BUILD:-}" ]; then
  echo "sanitizer build: no memcheck (valgrind cannot run an ASan binary)"
elif command -v valgrind > /dev/null 2>&1; then
  run=(valgrind --quiet --error-exitcode=99 --undef-value-errors=no)
else
  echo "valgrind not installed: the row runs without memcheck"
fi
out=$("${run[@]}" "$bench" "${args[@]}")
rc=$?
echo "$out" | tail -1
[ "$rc" -eq 0 ] || { echo "FAIL the row exited $rc (99: memcheck found an error)"; exit 1; }
echo "$out" | tail -1 | python3 -c '
import json, sys
line = json.loads(sys.stdin.read())
p2l = line["p2l"]
ok = isinstance(p2l["spilled"], bool) and p2l["block_loads"] >= 0 and p2l["block_stores"] >= 0 \
     and 0 < p2l["in_memory_mib"] < 64 and p2l["spill_file_mib"] == 0
print(("ok  " if ok else "FAIL") + " the P2L figures are those of the run: " + json.dumps(p2l))
sys.exit(0 if ok else 1)'
