#!/bin/bash
# cli:default_drive: configs/default.yaml is a 2009 drive (issue 27). The quickstart on it gives
# each fresh figure its part sets, computed here by hand from the preset's cited values (the X25-M
# G2's firmware, the MT29F32G08CBABA die, a 40 MB/s asynchronous bus on 4 channels), names that
# part as the limit, and lands within a factor 2 of a 2009 drive's ratings (the 160 GB X25-M G2:
# 250 / 100 MB/s, 35,000 / 8,600 IOPS); `ssdlab info` prints the same ceilings.
# usage: default_drive_test.sh SSDLAB SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
source "$src/test/scenarios/lib.sh"

"$bin" run "$src/scenarios/quickstart.yaml" --out "$tmp/qs" --quiet > "$tmp/run.txt"
"$bin" info "$src/configs/default.yaml" > "$tmp/info.txt"
cat "$tmp/info.txt"

check "info: the buses' ceiling is 4 x 4096 B per (175 ns + 4096 B at 40 MB/s) = 159.7 MB/s" \
  grep -q '^ceilings (MB/s)  link read [0-9.]*, link write [0-9.]* | buses 159.7 |' "$tmp/info.txt"
check "info: the firmware's ceilings are the X25-M G2's (34965 / 8598 IOPS, 100.1 MB/s writes)" \
  grep -q '^firmware CPU     one command at a time: 4 KiB reads 34965 IOPS, 4 KiB writes 8598 IOPS, .* 128 KiB writes 100.1 MB/s at most' "$tmp/info.txt"

check "quickstart figures: each the ceiling of the part that limits it" python3 - "$tmp/qs/summary.json" <<'PY'
import json, sys
phases = {p["name"]: p for p in json.load(open(sys.argv[1]))["phases"]}
fw, fw_write, fw_unit = 28.6, 49.2, 38.5  # us: firmware_cost, firmware_write_cost, firmware_write_unit_cost
t_cmd, t_read, page_out = 0.175, 50.0, 4096 / 40.0  # us: command cycles, tR, a 4 KiB page at 40 MB/s
bad = []
def near(what, got, want, tol):
    print(f"     {what}: {got:.2f} (by hand {want:.2f}, within {tol:.1%})")
    if abs(got / want - 1) > tol:
        bad.append(what)
def between(what, got, lo, hi):
    print(f"     {what}: {got:.2f} in [{lo:.2f}, {hi:.2f}]")
    if not lo <= got <= hi:
        bad.append(what)
def limit(name, want):
    got = phases[name]["limiting_resource"]["name"]
    print(f"     {name}: limited by {got}")
    if got != want:
        bad.append(f"{name} limited by {got}, not {want}")
# Writes: the firmware CPU, one command at a time (a 128 KiB write fills 32 mapping units).
near("randwrite_fresh IOPS", phases["randwrite_fresh"]["iops"], 1e6 / (fw + fw_write + fw_unit), 0.005)
near("seq_write_fresh MB/s", phases["seq_write_fresh"]["write_mbps"], 131072 / (fw + fw_write + 32 * fw_unit), 0.005)
limit("randwrite_fresh", "firmware_cpu")
limit("seq_write_fresh", "firmware_cpu")
# Sequential reads: the four buses, each a page per (t_cmd + data-out).
buses = 4 * 4096 / (t_cmd + page_out)
between("seq_read MB/s", phases["seq_read"]["read_mbps"], 0.9 * buses, buses)
limit("seq_read", "channel_bus")
# A QD1 read: firmware, command, tR and the page on the bus, plus the link and the AHCI adapter.
qd1 = fw + t_cmd + t_read + page_out
between("randread_qd1 mean latency (us)", phases["randread_qd1"]["latency_us"]["mean"], qd1, qd1 + 25)
# QD32 reads: the firmware's 28.6 us a command.
between("randread_qd32 IOPS", phases["randread_qd32"]["iops"], 0.85e6 / fw, 1e6 / fw)
# A 2009 drive: within a factor 2 of the X25-M G2's ratings (its figures on 10 channels).
for name, key, rating in (("seq_read", "read_mbps", 250), ("seq_write_fresh", "write_mbps", 100),
                          ("randread_qd32", "iops", 35000), ("randwrite_fresh", "iops", 8600)):
    between(f"{name} {key} / the X25-M G2's {rating}", phases[name][key] / rating, 0.5, 2.0)
# Steady state: garbage collection limits, and the write amplification of greedy GC at 7 % spare.
limit("randwrite_steady", "gc")
between("randwrite_steady WAF", phases["randwrite_steady"]["waf"], 5, 14)
if bad:
    sys.exit("outside: " + ", ".join(bad))
PY
finish
