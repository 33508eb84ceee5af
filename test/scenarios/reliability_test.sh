#!/bin/bash
# cli:reliability: bit errors in a run (issue 26, docs/reliability.md). The study scenario's reads
# slow down only past the rated life and by whole retries; without a retry table the same pages
# fail as uncorrectable host reads, counted in the phase, in `media` and in SMART 187; `explain`
# names the retries; the aging phase's typos and bad ages are errors that name the key.
# usage: reliability_test.sh SSDLAB SOURCE_DIR
set -euo pipefail
ssdlab=$1 src=$2
tmp=$(mktemp -d /tmp/ssdlab-reliability.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

scenario=$src/scenarios/reliability/read-latency-vs-wear.yaml
"$ssdlab" run "$scenario" --no-plots -q -o "$tmp/retry"
"$ssdlab" run "$scenario" --no-plots -q -o "$tmp/none" -p nand.errors.retry_levels=0

python3 - "$tmp" <<'PY'
import json, sys
t = sys.argv[1]
def jobs(run):
    s = json.load(open(f"{t}/{run}/summary.json"))
    return s, [p for p in s["phases"] if p["kind"] == "job"]
s, retry = jobs("retry")
_, none = jobs("none")
# The read of an idle drive: link + firmware + t_cmd + tR + data-out + one decode; a retry adds
# t_cmd + tR + data-out + decode (configs/scaled-fast.yaml: 0.2 + 50 + 40.96 + 0.64 us).
one_retry = 0.2 + 50 + 40.96 + 0.64
fresh = retry[0]["read_latency_us"]["p50"]
last_retries = -1.0
for p in retry:
    m = p["stats"]["drive"]["controller"]["media"]
    assert m["reads"] == p["reads"] == 51200, p["name"]
    assert m["uncorrectable_host"] == 0 and p["errors"] == 0, p["name"]
    per = m["retries"] / m["reads"]
    assert per >= last_retries, (p["name"], per, last_retries)  # wear only adds retries
    last_retries = per
    # every latency is the fresh one plus whole retries
    for q in ("p50", "p99", "max"):
        k = (p["read_latency_us"][q] - fresh) / one_retry
        assert abs(k - round(k)) < 0.02, (p["name"], q, k)
    a = p["anatomy_us"]["read"]["mean"]
    assert abs(a["read_retry"] - per * (one_retry - 0.64)) < 0.05, (p["name"], a["read_retry"], per)
    assert abs(a["ecc"] - (1 + per) * 0.64) < 0.01, (p["name"], a["ecc"], per)
by = {p["name"]: p for p in retry}
assert by["pe3000_1y"]["stats"]["drive"]["controller"]["media"]["retries"] == 0  # the design point: no retry
assert by["pe15000_1y"]["read_latency_us"]["p99"] > by["pe3000_1y"]["read_latency_us"]["p99"] + 80
assert by["pe25000_1y"]["read_latency_us"]["p50"] > fresh + 80
# Without a retry table: the pages that needed a retry fail instead.
failed = 0
for a, b in zip(retry, none):
    mr = a["stats"]["drive"]["controller"]["media"]
    mn = b["stats"]["drive"]["controller"]["media"]
    assert mn["retries"] == 0
    assert mn["uncorrectable_host"] == mr["retried_reads"] == b["errors"] == mn["media_errors"], (a["name"], mn, mr)
    failed += b["errors"]
smart = json.load(open(f"{t}/none/summary.json"))["smart"]
unc = [x for x in smart["attributes"] if x["id"] == 187]
assert smart["bit_errors"] is True and len(unc) == 1 and unc[0]["raw"] == failed > 0, (unc, failed)
print(f"ok: retries grow with wear ({last_retries:.3f} per read at the end), {failed} uncorrectable without retry")
PY
"$ssdlab" explain "$tmp/retry" | grep -q "needed a read retry" || fail "explain does not name the read retries"
"$ssdlab" smart "$tmp/none" | grep -Eq "^187 Reported_Uncorrect .* [1-9][0-9]*$" || fail "smart has no 187"
"$ssdlab" smart "$tmp/retry" | grep -q "^187 Reported_Uncorrect .* 0$" || fail "smart 187 is not 0 with retries"

# D11: the SLC twin on the Vertex's controller (scripts/slc-vs-mlc.sh): sequential gains of 5-30 %,
# the firmware-bound fresh random writes unchanged, ~10x the TBW (20x the P/E over half the bytes).
bindir=$(dirname "$ssdlab")
bash "$src/scripts/slc-vs-mlc.sh" "$bindir" "$tmp/d11" > "$tmp/d11.txt"
cat "$tmp/d11.txt"
python3 - "$tmp/d11" <<'PY'
import json, sys
d = sys.argv[1]
mlc, slc = ({p["name"]: p for p in json.load(open(f"{d}/{k}/summary.json"))["phases"]} for k in ("mlc", "slc"))
r = lambda name: slc[name]["iops"] / mlc[name]["iops"]
assert 1.05 < r("seq_write_fresh") < 1.3 and 1.05 < r("seq_read") < 1.3, (r("seq_write_fresh"), r("seq_read"))
assert abs(r("rand_write_fresh") - 1) < 0.01, r("rand_write_fresh")
t = lambda p: p["rand_write_used"]["wear"]["lifetime"]["tbw_bytes"]
assert 9 < t(slc) / t(mlc) < 11.5, t(slc) / t(mlc)
print("ok: D11 as docs/reliability.md gives it")
PY

# Bad input: the aging phase's keys and ages are checked, naming the scenario line and key.
bad() {  # bad NAME PHASE_YAML EXPECTED_TEXT
  printf 'name: bad\ndrive: %s/configs/scaled-fast.yaml\nphases:\n  - %s\n' "$src" "$2" > "$tmp/$1.yaml"
  if "$ssdlab" run "$tmp/$1.yaml" --no-plots -q -o "$tmp/$1" > "$tmp/$1.out" 2>&1; then fail "$1 accepted"; fi
  grep -q "$3" "$tmp/$1.out" || { cat "$tmp/$1.out"; fail "$1: no '$3'"; }
  grep -q "$1.yaml:4" "$tmp/$1.out" || { cat "$tmp/$1.out"; fail "$1: no file:line"; }
}
bad typo "wear: {pe_cycle: 3000}" "pe_cycles"
bad age "wear: {retention: 1yr}" "retention"
bad empty "wear: {}" "changes nothing"
bad huge "wear: {pe_cycles: 99999999}" "pe_cycles"
echo "ok: bad wear phases rejected"
