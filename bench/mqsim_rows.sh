#!/usr/bin/env bash
# Issue 28's side-by-side rows: ssdlab on the MQSim-equivalent drive (bench/drives/mqsim512g.yaml:
# 8 ch x 16 dies, 2048 blocks of 256 x 8 KiB pages, MLC 75 / 750 / 3800 us, 333 MB/s bus, 5 %
# spare, 256 MiB buffer, SATA 3 Gb/s), four workloads of 1 M requests at QD32, each in its own
# process; prints requests per CPU second of the measured phase (the simulation proper), the
# callbacks per request and the ratio to MQSim's rate on the same workload.
#
#   bench/mqsim_rows.sh [BENCH_BINARY] [REQUESTS]
#
# MQSim's rates (req/CPU-s, 1 M requests, measured on this machine class by issue 28's author;
# MQSim crashes in every run once GC starts, so its GC-row rate is the one before the crash):
# randread 29.6k, fresh randwrite 22.4k, seqwrite 128 KiB 19.6k, GC randwrite ~39k.
# The GC row's drive is aged first by the scenario's precondition phase (fill + 1x random
# overwrite, replicated): its CPU time is not in the row's rate.
set -uo pipefail
cd "$(dirname "$0")/.."
bench=${1:-build-bench/bench/ssdlab_bench}
n=${2:-1000000}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
row() {
  local name=$1 mqsim=$2
  shift 2
  local line
  line=$("$bench" "$@" --drive mqsim512g.yaml -n "$n" 2>/dev/null | tail -1)
  python3 - "$name" "$mqsim" "$line" <<'PY'
import json, sys
name, mqsim, line = sys.argv[1], float(sys.argv[2]), sys.argv[3]
try:
    j = json.loads(line)
except ValueError:
    print(f"{name:<22} no result: {line[:200]}"); sys.exit(0)
if "error" in j:
    print(f"{name:<22} error: {j['error']}"); sys.exit(0)
rate = j["req_per_cpu_s"]
print(f"{name:<22} {j['requests']:>9} req {j['cpu_s']:>7.2f} CPU s {rate/1e3:>8.1f}k req/CPU-s "
      f"{j.get('callbacks_per_request', 0):>6.2f} cb/req  x{rate/mqsim:>5.1f} MQSim ({mqsim/1e3:.1f}k)")
PY
}
echo "== ssdlab on the MQSim-equivalent drive, $n requests per row, $(cut -d' ' -f1-3 /proc/loadavg) (loadavg)"
row "randread 4k" 29600 randread --precondition phase
row "fresh randwrite 4k" 22400 freshwrite
row "seqwrite 128k" 19600 seqwrite
row "GC randwrite 4k" 39000 randwrite --precondition phase --overwrite 1
