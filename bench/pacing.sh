#!/usr/bin/env bash
# How close `ssdlab serve --pace realtime` gets to the modelled latency on this machine: fio
# (ioengine=nbd) QD1 4 KiB random reads, its wall-clock latency against the server's simulated
# latency for the same requests. A figure, not a test (nbd:paced checks what always holds: no
# reply before its simulated time); run it on a quiet machine and say how quiet it was.
#
#   bench/pacing.sh [SSDLAB_BINARY]      default build/ssdlab; RUNTIME (s, default 5), RUNS (default 3)
#
# Prints one line per run: the mean and p99 of fio's latency and of the simulated latency, and
# the excess (wall minus simulated) of each; plus the server's own part (how late completions
# left the kernel, reply hand-over to the Asio thread).
set -uo pipefail
cd "$(dirname "$0")/.."
ssdlab=${1:-build/ssdlab}
runtime=${RUNTIME:-5}
runs=${RUNS:-3}
command -v fio > /dev/null || { echo "fio not installed (Debian package fio)"; exit 1; }
command -v python3 > /dev/null || { echo "python3 needed to read the JSON"; exit 1; }
[ -x "$ssdlab" ] || { echo "no $ssdlab: build it first"; exit 1; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL $pid 2> /dev/null; rm -rf "$tmp"' EXIT

echo "== pacing at $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u '+%Y-%m-%d %H:%M UTC')," \
     "$(nproc) CPUs, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %3s %8s %9s %9s %8s %9s %9s %8s %9s %9s\n' drive run IOPS "wall mean" "sim mean" excess \
       "wall p99" "sim p99" excess "late max" "handover"

# one LABEL FILL_MIB ARGS...: a fresh server, FILL_MIB written, then QD1 random reads over them.
one() {
  local label=$1 fill=$2; shift 2
  rm -rf "$tmp/log" "$tmp/out"  # not the previous server's port
  "$ssdlab" serve "$@" --pace realtime --listen 127.0.0.1:0 --out "$tmp/out" > "$tmp/log" 2>&1 &
  pid=$!
  local port=
  for _ in $(seq 200); do
    port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$tmp/log" 2> /dev/null | cut -d: -f2)
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || { cat "$tmp/log"; exit 1; }
  fio --name=fill --ioengine=nbd --uri=nbd://127.0.0.1:$port --rw=write --bs=1M --iodepth=2 --size=${fill}M \
      --output="$tmp/fill.txt" || exit 1
  fio --name=qd1 --ioengine=nbd --uri=nbd://127.0.0.1:$port --rw=randread --bs=4k --iodepth=1 --size=${fill}M \
      --runtime="$runtime" --time_based --lat_percentiles=1 --output-format=json --output="$tmp/qd1.json" || exit 1
  kill -TERM $pid
  wait $pid
  pid=
  python3 - "$tmp/qd1.json" "$tmp/out/summary.json" "$label" "$run" << 'PY'
import json, sys
fio = json.load(open(sys.argv[1]))["jobs"][0]["read"]
nbd = json.load(open(sys.argv[2]))["nbd"]
sim = nbd["requests"]["read"]["latency_us"]
wall_mean = fio["lat_ns"]["mean"] / 1e3
wall_p99 = fio["lat_ns"]["percentile"]["99.000000"] / 1e3
print("%-34s %3s %8.0f %9.1f %9.1f %8.1f %9.1f %9.1f %8.1f %9.1f %9.1f" % (
    sys.argv[3], sys.argv[4], fio["iops"], wall_mean, sim["mean"], wall_mean - sim["mean"], wall_p99, sim["p99"],
    wall_p99 - sim["p99"], nbd["pacing"]["reply_late_us"]["max"], nbd["reply_handover_us"]["mean"]))
PY
}

for run in $(seq "$runs"); do
  one "small-drive, tR 500 us, 8 MiB" 8 --drive test/nbd/small-drive.yaml -p nand.t_read=500us
done
for run in $(seq "$runs"); do
  one "configs/scaled-fast.yaml, 64 MiB" 64 --drive configs/scaled-fast.yaml
done
echo "(us; excess = wall minus simulated; p99 excess is the difference of the two p99s; late max: the latest" \
     "completion against its simulated time; handover: mean completion-to-reply on the Asio thread)"
