#!/usr/bin/env bash
# `ssdlab replay` and the scenario phase `replay:` end to end (issue 13): each sample in
# test/data/traces replays with the counts of its raw text, compressed copies give the same
# results, bad input fails with the file and line (exit 2) or is counted with --skip-bad.
#   replay_test.sh SSDLAB SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
source "$src/test/scenarios/lib.sh"
traces="$src/test/data/traces"
drive="$(cd "$src" && pwd)/configs/scaled-fast.yaml"

# field FILE EXPR: a value from summary.json's first phase (python expression over `p`).
field() { python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['phases'][0]; print($2)" "$1/summary.json"; }

replay() {  # replay OUT TRACE [options...]
  local out=$1
  shift
  "$bin" replay "$@" --drive "$drive" --out "$tmp/$out" --quiet --no-plots
}

# MSR: awk -F, '!/^#/ {n[$4]++; s=int($5/512); e=int(($5+$6+511)/512); b[$4]+=(e-s)*512}' -> Read 4
# (70656 bytes after rounding), Write 4 (144896); offsets past the 952 MiB drive wrap.
check "msr replays" replay msr "$traces/msr_sample.csv"
check "msr: kind replay, 4 reads, 4 writes" test "$(field "$tmp/msr" '(p["kind"], p["reads"], p["writes"])')" = "('replay', 4, 4)"
check "msr: bytes rounded out to sectors" test "$(field "$tmp/msr" '(p["read_bytes"], p["write_bytes"])')" = "(70656, 144896)"
check "msr: replay counts in summary.json" test "$(field "$tmp/msr" '(p["replay"]["records"], p["replay"]["moved_lba"], p["replay"]["bad_lines"])')" = "(8, 2, 0)"
check "msr.gz replays" replay gz "$traces/msr_sample.csv.gz"
check "msr.zst replays" replay zst "$traces/msr_sample.csv.zst"
for c in gz zst; do
  check "$c: the same phase results as the plain trace" \
    python3 -c "import json,sys; a,b=[json.load(open(f))['phases'] for f in sys.argv[1:]]; sys.exit(a!=b)" \
    "$tmp/msr/summary.json" "$tmp/$c/summary.json"
done
check "two --volume options before the trace" test "$("$bin" replay --volume 1 --volume 0 "$traces/msr_sample.csv" --drive "$drive" --out "$tmp/vol2" -q --no-plots && field "$tmp/vol2" 'p["replay"]["records"]')" = 8
check "msr volume 1 only: 1 read 1 write" test "$(replay vol "$traces/msr_sample.csv" --volume 1 && field "$tmp/vol" '(p["reads"], p["writes"], p["replay"]["other_volume"])')" = "(1, 1, 6)"

# SPC: r 3 (20992 bytes), w 3 (7680 bytes), all sector-aligned.
check "spc" test "$(replay spc "$traces/spc_sample.csv" --format spc && field "$tmp/spc" '(p["reads"], p["writes"], p["read_bytes"], p["write_bytes"])')" = "(3, 3, 20992, 7680)"
# DiskSim: read 3 (139264 bytes), write 3 (12800 bytes).
check "disksim" test "$(replay ds "$traces/disksim_sample.txt" && field "$tmp/ds" '(p["reads"], p["writes"], p["read_bytes"], p["write_bytes"])')" = "(3, 3, 139264, 12800)"
# blkparse D events: read 1 (8192 bytes), write 1 (4096 bytes).
check "blkparse D events" test "$(replay blk "$traces/blkparse_sample.txt" --events D && field "$tmp/blk" '(p["reads"], p["writes"], p["read_bytes"], p["write_bytes"])')" = "(1, 1, 8192, 4096)"
# fio v3 trim log: one trim of 8192 bytes.
check "fio v3 trim" test "$(replay trim "$traces/fio_v3_trim.log" && field "$tmp/trim" '(p["trims"], p["replay"]["trim_bytes"])')" = "(1, 8192)"

{ cat "$traces/disksim_sample.txt"; echo "11.0 0 5000 8 one"; echo "12.0 0 6000 8 1"; } >"$tmp/bad.txt"
# Errors found during the run (a bad line past the format guess, lba: reject) leave the runner
# through an exception after sc_start, which AddressSanitizer misreads as a stack-buffer-overflow
# in its sigaltstack interceptor (SystemC's coroutine stacks; see f769d9c): not judged there.
if [ -n "${SSDLAB_SANITIZER_BUILD:-}" ]; then
  echo "skip mid-run error checks (lba reject, bad line): sanitizer build"
else
out=$(replay rej "$traces/msr_sample.csv" --lba reject 2>&1)
rc=$?
check "lba reject: exit 2" test "$rc" = 2
check "lba reject: names file and line" grep -q "msr_sample.csv:4: offset 3872665600 + 4096 bytes is past the drive's end" <<<"$out"

# A malformed line: exit 2 naming file and line; --skip-bad counts it.
out=$(replay bad "$tmp/bad.txt" --format disksim 2>&1)
rc=$?
check "bad line: exit 2" test "$rc" = 2
bad_line=$(($(wc -l <"$traces/disksim_sample.txt") + 1))
check "bad line: file and line $bad_line quoted" grep -q "bad.txt:$bad_line: FLAGS is not a number: '11.0 0 5000 8 one'" <<<"$out"
fi
check "skip-bad: replayed, 1 bad line counted" test "$(replay skip "$tmp/bad.txt" --format disksim --skip-bad && field "$tmp/skip" '(p["reads"], p["replay"]["bad_lines"])')" = "(4, 1)"

# A format that cannot be guessed: exit 2 and the formats to choose from.
printf 'hello world\n' >"$tmp/what.txt"
out=$(replay what "$tmp/what.txt" 2>&1)
rc=$?
check "unknown format: exit 2" test "$rc" = 2
check "unknown format: lists the formats" grep -q "no trace format reads its 1 line (the whole file).*give --format (msr, spc, blkparse, fio2, fio3, disksim)" <<<"$out"

# The scenario phase, the trace relative to the scenario file.
cp "$traces/spc_sample.csv" "$tmp/t.csv"
cat >"$tmp/replay.yaml" <<YAML
name: replay-phase
drive: $drive
phases:
  - replay: {trace: t.csv, format: spc, iodepth: 4, volume: [0, 2]}
YAML
check "scenario replay phase runs" "$bin" run "$tmp/replay.yaml" --out "$tmp/scen" --quiet --no-plots
# ASUs 0 and 2: awk -F, '!/^#/ && ($1==0 || $1==2)' spc_sample.csv -> r 2, w 2
check "scenario replay phase: volumes 0 and 2" test "$(field "$tmp/scen" '(p["kind"], p["reads"], p["writes"], p["replay"]["other_volume"])')" = "('replay', 2, 2, 2)"
sed 's/format: spc/format: sp/' "$tmp/replay.yaml" >"$tmp/typo.yaml"
out=$("$bin" run "$tmp/typo.yaml" --out "$tmp/typo" --quiet --no-plots 2>&1)
rc=$?
check "scenario: bad format key exit 2 with line" test "$rc" = 2
check "scenario: bad format named" grep -q "typo.yaml:4.*format.*expected one of msr, spc" <<<"$out"
finish
