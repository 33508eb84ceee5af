#!/bin/bash
# cli:wear: wear, SMART and lifetime figures of a run (issue 26, docs/wear.md): every phase's
# erase counts and life used agree with each other and with the rated endurance (a preset key),
# static wear levelling's copies appear only with it, the lifetime estimate is the one
# docs/wear.md gives, `ssdlab smart DIR` prints smartctl's table from summary.json, and bad
# input (no results, results without SMART data, static wear levelling with FIFO) is an error
# that names the file or key.
# usage: wear_test.sh SSDLAB SOURCE_DIR
set -euo pipefail
ssdlab=$1 src=$2
tmp=$(mktemp -d /tmp/ssdlab-wear.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$tmp/w.yaml" <<YAML
name: w
drive: $src/configs/scaled-fast.yaml
seed: 5
phases:
  - name: aged
    precondition: {fill: 100%, random: 300%}
  - name: zipf
    job: {rw: randwrite, bs: 4k, iodepth: 32, size: 100%, number_ios: 60000, random_distribution: "zipf:1.2"}
  - name: read
    job: {rw: randread, bs: 4k, iodepth: 8, size: 100%, number_ios: 5000}
YAML
"$ssdlab" run "$tmp/w.yaml" --no-plots -q -o "$tmp/none" -p nand.endurance=3000
"$ssdlab" run "$tmp/w.yaml" --no-plots -q -o "$tmp/static" -p nand.endurance=3000 \
  -p controller.wear_leveling.mode=static -p controller.wear_leveling.threshold=2

python3 - "$tmp" <<'PY'
import json, math, sys
t = sys.argv[1]
for run in ("none", "static"):
    s = json.load(open(f"{t}/{run}/summary.json"))
    for p in s["phases"]:
        w = p["wear"]
        ec = w["erase_count"]
        assert w["endurance"] == 3000, w
        assert ec["min"] <= ec["mean"] <= ec["max"] and w["spread"] == ec["max"] - ec["min"], w
        assert math.isclose(w["life_used_pct"], 100 * ec["mean"] / 3000, rel_tol=1e-9), w
        assert math.isclose(w["max_life_used_pct"], 100 * ec["max"] / 3000, rel_tol=1e-9), w
        assert ("wl_victims" in w) == (run == "static"), (run, w)
        life = w["lifetime"]
        if p["name"] == "read":
            assert life is None, life  # no writes: nothing to estimate from
            continue
        assert life["waf"] == p["waf"], (life, p["waf"])
        assert life["wear_levelling_factor"] >= 1, life
        assert math.isclose(life["dwpd_5y"], life["tbw_bytes"] / (s["user_bytes"] * 365 * 5), rel_tol=1e-9), life
        # what remains is the worst block's cycles left at the same wear per host byte as TBW's
        assert math.isclose(life["remaining_host_bytes"], life["tbw_bytes"] * (3000 - ec["max"]) / 3000, rel_tol=1e-9)
        # mean wear per host byte: the phase's erases per block, WLF times faster for the worst block
        written = p["host_units_written"] * 4096
        blocks = s["raw_bytes"] / (128 * 4096)
        assert math.isclose(life["tbw_bytes"], 3000 / (p["erases"] / blocks / written * life["wear_levelling_factor"]),
                            rel_tol=1e-9), life
        if p["name"] == "zipf":
            assert life["days_at_phase_rate"] > 0, life
        else:
            assert life["days_at_phase_rate"] is None, life  # untimed
    last = s["phases"][-1]["wear"]
    print(f"{run}: erase counts {last['erase_count']}, spread {last['spread']}, life used {last['life_used_pct']:.3f} %")
n = json.load(open(f"{t}/none/summary.json"))["phases"]
st = json.load(open(f"{t}/static/summary.json"))["phases"]
assert st[1]["wear"]["wl_victims"] > 0 and st[1]["wear"]["wl_units_copied"] > 0, st[1]["wear"]
# wear levelling's copies are GC copies: the aging phase is identical until a spread reaches 2
assert st[1]["gc_units_copied"] >= st[1]["wear"]["wl_units_copied"], st[1]
PY

# A mapping unit of two pages (a virtual page over two dies): a block of the FTL is two flash
# blocks, and the mean wear per host byte counts the FTL's blocks (half the flash's).
"$ssdlab" run "$tmp/w.yaml" --no-plots -q -o "$tmp/vp" -p controller.mapping_unit=8KiB
python3 - "$tmp" <<'PY'
import json, math, sys
s = json.load(open(f"{sys.argv[1]}/vp/summary.json"))
p = [p for p in s["phases"] if p["name"] == "zipf"][0]
life, ec = p["wear"]["lifetime"], p["wear"]["erase_count"]
ftl_blocks = s["raw_bytes"] / (128 * 4096) / 2
rate = p["erases"] / ftl_blocks / (p["host_units_written"] * 8192)
assert math.isclose(life["tbw_bytes"], 10000 / (rate * life["wear_levelling_factor"]), rel_tol=1e-9), life
# the mean wear agrees with the erase counts: erases of the phase over the FTL's blocks
assert p["erases"] > 0 and ftl_blocks * ec["mean"] >= p["erases"], (p["erases"], ec)
print(f"virtual pages: TBW {life['tbw_bytes'] / 1e12:.3f} TB, WLF {life['wear_levelling_factor']:.3f}")
PY

# ssdlab smart: smartctl's table from summary.json
"$ssdlab" smart "$tmp/static" > "$tmp/smart.txt"
grep -qx 'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE' "$tmp/smart.txt" ||
  fail "header: $(cat "$tmp/smart.txt")"
python3 - "$tmp" <<'PY'
import json, math, sys
t = sys.argv[1]
s = json.load(open(f"{t}/static/summary.json"))
smart = s["smart"]
rows = {}
for line in open(f"{t}/smart.txt"):
    if len(line) > 87 and line[:3].strip().isdigit():
        # smartctl -A's columns: ID 0-2, name from 4, FLAG at 28, VALUE 37, WORST 43, THRESH 49, RAW 87
        assert line[28:30] == "0x" and line[37:40].isdigit() and line[43:46].isdigit() and line[49:52].isdigit(), line
        rows[int(line[:3])] = (line[4:28].strip(), int(line[37:40]), int(line[87:].strip()))
assert sorted(rows) == [9, 173, 202, 225, 233, 241, 242, 249], rows
mean, used = smart["erase_count"]["mean"], smart["life_used_pct"]
assert math.isclose(used, 100 * mean / 3000, rel_tol=1e-9)
assert rows[241][2] == math.floor(smart["host_bytes_written"] / 512), rows[241]
assert rows[242][2] == math.floor(sum(p["read_bytes"] for p in s["phases"]) / 512), rows[242]
assert rows[225][2] == math.floor(smart["host_bytes_written"] / 2**25), rows[225]
assert rows[249][2] == math.floor(smart["nand_bytes_written"] / 2**30), rows[249]
assert rows[173][2] == math.floor(mean) and rows[202][2] == math.floor(used), (rows[173], rows[202])
assert rows[233][1] == max(1, 100 - math.floor(0.99 * used)) and rows[202][1] == max(1, 100 - math.floor(used))
assert math.isclose(smart["waf"], smart["nand_bytes_written"] / smart["host_bytes_written"], rel_tol=1e-9)
print("smart:", {k: v for k, v in rows.items()})
PY

# errors name the file or the key
if "$ssdlab" smart "$tmp/missing" 2> "$tmp/err"; then fail "smart of no results"; fi
grep -q "$tmp/missing/summary.json" "$tmp/err" || fail "missing: $(cat "$tmp/err")"
mkdir "$tmp/old" && echo '{"scenario": "x", "phases": []}' > "$tmp/old/summary.json"
if "$ssdlab" smart "$tmp/old" 2> "$tmp/err"; then fail "smart of results without SMART data"; fi
grep -q "no SMART data" "$tmp/err" || fail "old: $(cat "$tmp/err")"
if "$ssdlab" info "$src/configs/scaled-fast.yaml" -p controller.wear_leveling.mode=static -p controller.gc.policy=fifo \
  2> "$tmp/err" > /dev/null; then fail "static wear levelling with FIFO accepted"; fi
grep -q "controller.wear_leveling.mode" "$tmp/err" && grep -q "controller.gc.policy" "$tmp/err" ||
  fail "fifo: $(cat "$tmp/err")"
echo "cli:wear ok"
