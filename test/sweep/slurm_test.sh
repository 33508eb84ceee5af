#!/usr/bin/env bash
# `ssdlab sweep --engine slurm` on a one-node Slurm cluster of its own (../shared/reference/SLURM.md):
# munged, slurmctld and slurmd from Debian run from a private folder (config, state, sockets, logs;
# free ports; nothing in /etc touched, no systemd), SLURM_CONF pointing at it. A 6-point sweep
# with 2 aging runs: one point fails by itself (a file where its results must go), one is
# cancelled with scancel while it waits for the aging array; the others go on. --retry then
# runs both successfully, collect makes the table. The daemons are stopped on every exit.
# Skipped (77) only when the Slurm packages are not installed.
# usage: slurm_test.sh SSDLAB_BINARY SOURCE_DIR
set -uo pipefail
bin=$1
src=$2
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  if ! command -v "$tool" > /dev/null; then
    echo "SKIP: $tool not installed (Debian: slurmctld slurmd slurm-client munge; scripts/quickstart.sh test)"
    exit 77
  fi
done
if [ "$(id -u)" != 0 ]; then
  echo "FAIL: the one-node cluster runs its daemons as root (SlurmUser=root); run the test as root"
  exit 1
fi
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
dir=$(mktemp -d /tmp/ssdlab-slurm.XXXXXX)
chmod 755 "$dir"
fails=0
check() {
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}
stop_daemons() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2> /dev/null
  done
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    for _ in $(seq 50); do
      [ -s "$pidfile" ] && kill -0 "$(cat "$pidfile" 2> /dev/null)" 2> /dev/null || break
      sleep 0.1
    done
  done
}
cleanup() {
  stop_daemons
  if [ "$fails" -ne 0 ] || [ -n "${SSDLAB_KEEP_SLURM_LOGS:-}" ]; then
    for log in slurmctld slurmd; do echo "---- $log.log (last lines)"; tail -n 15 "$dir/$log.log" 2> /dev/null; done
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# The whole test is bounded: a watchdog ends it (and the trap stops the daemons).
(
  trap 'kill $sleeper 2> /dev/null; exit 0' TERM
  sleep 240 &
  sleeper=$!
  wait $sleeper && echo "FAIL: the test took more than 240 s" && kill -TERM $$
) &
watchdog=$!
trap 'kill $watchdog 2> /dev/null; cleanup' EXIT

# ---- munge: its own key and socket ----
mungekey --create --keyfile="$dir/munge.key" || exit 1
chmod 600 "$dir/munge.key"
mkdir -p "$dir/munge" && chmod 755 "$dir/munge"
munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munged.seed" || { echo "FAIL: munged did not start"; exit 1; }

# ---- slurm.conf: this host alone, free ports, everything under $dir ----
read -r ctld_port node_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mkdir -p "$dir/state" "$dir/spool"
cat > "$dir/slurm.conf" << CONF
ClusterName=ssdlabtest
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$node_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
$(slurmd -C | head -1) NodeAddr=127.0.0.1
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -i || { echo "FAIL: slurmctld did not start"; exit 1; }
slurmd || { echo "FAIL: slurmd did not start"; exit 1; }
for _ in $(seq 120); do
  [ "$(sinfo -h -o %T 2> /dev/null)" = idle ] && break
  sleep 0.5
done
check "the one-node cluster is up (sinfo: idle)" test "$(sinfo -h -o %T)" = idle
[ "$fails" -eq 0 ] || exit 1

# ---- the sweep: one point fails by itself, one is cancelled while pending ----
out=$dir/out
plan=$src/test/sweep/slurm-plan.yaml
"$bin" sweep "$plan" --out "$out" --dry-run > "$dir/dry.txt"
cat "$dir/dry.txt"
check "--dry-run: 6 points, 2 aging runs" grep -q '6 points (2 combinations of 1 axis x 3 seeds), 2 aging runs' "$dir/dry.txt"
victim=$(awk '$1 == 4 { print $2 }' "$dir/dry.txt")
mkdir -p "$out/points" && echo "in the way" > "$out/points/$victim"
timeout 150 "$bin" sweep "$plan" --out "$out" --engine slurm -j 2 --poll 0.5 > "$dir/run1.txt" 2>&1 &
sweep=$!
# The points array waits for the aging array (afterany): cancel its task 5 while it is pending.
for _ in $(seq 200); do
  points_job=$(awk '$2 == "points" { print $1 }' "$out/slurm/jobs.tsv" 2> /dev/null | head -1)
  [ -n "$points_job" ] && break
  sleep 0.1
done
echo "squeue while the aging array runs:"
squeue -r -j "$points_job" -o '%i %T %r'
scancel "${points_job}_5"
wait $sweep
rc=$?
cat "$dir/run1.txt"
check "exit status 2: one point failed, one cancelled" test $rc -eq 2
check "an aging array, then a points array after it" \
  bash -c "grep -q '^submitted aging array: job [0-9]*, 2 tasks' '$dir/run1.txt' &&
           grep -q '^submitted points array: job $points_job, 6 tasks (after job [0-9]*)' '$dir/run1.txt'"
check "4 points done, 2 failed" grep -q '^6 points: 4 done, 0 running, 2 failed, 0 pending' "$dir/run1.txt"
check "the point that failed by itself: its reason" \
  grep -q "cannot move its results to $out/points/$victim: Not a directory" "$dir/run1.txt"
check "the cancelled point: failed, as the queue showed it (a cancelled pending element leaves no job record)" \
  grep -q "slurm job ${points_job}_5: left the queue while PENDING, without running (cancelled: scancel)" "$dir/run1.txt"
echo "slurmctld.log on the cancel:"
grep -E "kill.*JobId=${points_job}_5|JobId=${points_job}_5.*(cancel|kill)" "$dir/slurmctld.log"
echo "scontrol -o show job $points_job (as Slurm reported it):"
scontrol -o show job "$points_job" | tee "$dir/scontrol.txt" |
  grep -o 'JobId=[0-9]* ArrayJobId=[0-9]* ArrayTaskId=[0-9-]* .*JobState=[A-Z]* .*ExitCode=[0-9:]*' |
  sed -E 's/ (JobName|UserId|GroupId|MCS_label|Priority|Nice|Account|QOS)=[^ ]*//g; s/ (Requeue|Restarts|BatchFlag|Reboot|RunTime|TimeLimit|TimeMin|SubmitTime|EligibleTime|AccrueTime|StartTime|EndTime|Deadline|SuspendTime|SecsPreSuspend|LastSchedEval|Scheduler|Partition|AllocNode:Sid|ReqNodeList|ExcNodeList|NodeList|BatchHost|NumNodes|NumCPUs|NumTasks|CPUs\/Task|ReqB:S:C:T|TRES|Socks\/Node|NtasksPerN:B:S:C|CoreSpec|MinCPUsNode|MinMemoryNode|MinTmpDiskNode|Features|DelayBoot|OverSubscribe|Contiguous|Licenses|Network|Command|WorkDir|StdErr|StdIn|StdOut|Power|Dependency)=[^ ]*//g'
check "scontrol: the failed task FAILED with exit 1, 4 others COMPLETED with 0, the cancelled one never ran" \
  bash -c "grep -q 'ArrayTaskId=4 .*JobState=FAILED .*ExitCode=1:0' '$dir/scontrol.txt' &&
           [ \$(grep -c 'JobState=COMPLETED .*ExitCode=0:0' '$dir/scontrol.txt') -eq 4 ] &&
           ! grep -q 'ArrayTaskId=5 .*JobState=COMPLETED' '$dir/scontrol.txt'"
"$bin" sweep --status "$out" > "$dir/status.txt"
rc=$?
cat "$dir/status.txt"
check "--status: exit 2, 2 failed" bash -c "[ $rc -eq 2 ] && grep -q '^6 points: 4 done, 0 running, 2 failed' '$dir/status.txt'"

# ---- --retry: both run again in a new array, and succeed ----
rm "$out/points/$victim"
timeout 120 "$bin" sweep "$plan" --out "$out" --engine slurm --retry 1 --poll 0.5 > "$dir/run2.txt" 2>&1
rc=$?
cat "$dir/run2.txt"
check "--retry: exit 0, all 6 done" bash -c "[ $rc -eq 0 ] && grep -q '^6 points: 6 done' '$dir/run2.txt'"
check "--retry: one array of the 2 failed points, no aging again" \
  bash -c "grep -q 'to run: 2 points (4 done before)' '$dir/run2.txt' && grep -q '^submitted points array: job [0-9]*, 2 tasks (' '$dir/run2.txt' &&
           ! grep -q 'aging array' '$dir/run2.txt'"
retry_job=$(awk 'END { print $1 }' "$out/slurm/jobs.tsv")
echo "scontrol -o show job $retry_job:"
scontrol -o show job "$retry_job" | grep -oE '(ArrayTaskId|JobState|ExitCode)=[^ ]*' | paste -d ' ' - - -
check "scontrol: both retried tasks COMPLETED, exit 0" \
  test "$(scontrol -o show job "$retry_job" | grep -c 'JobState=COMPLETED .*ExitCode=0:0')" -eq 2

"$bin" sweep collect "$out" > "$dir/collect.txt"
cat "$dir/collect.txt"
echo "the collected table (randwrite phase):"
python3 - "$out/results.sqlite" << 'PY' | tee "$dir/table.txt"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print("%-12s %4s %8s %6s %6s %8s %9s" % ("id", "seed", "channels", "blocks", "waf", "iops", "p99_us"))
for r in db.execute('select id, seed, "nand.channels", "nand.blocks_per_plane", waf, iops, "latency_us.p99" '
                    'from results where phase = "randwrite" order by "nand.channels", seed'):
    print("%-12s %4d %8d %6d %6.3f %8.0f %9.1f" % r)
PY
check "collect: 6 points with 2 phases each, aged drives (randwrite WAF > 1.3)" \
  python3 -c "
import sqlite3, sys
db = sqlite3.connect('$out/results.sqlite')
ok = db.execute('select count(*) from points where status = \"done\"').fetchone()[0] == 6
ok &= db.execute('select count(*) from phases').fetchone()[0] == 12
ok &= db.execute('select count(*) from results where phase = \"randwrite\" and waf > 1.3').fetchone()[0] == 6
sys.exit(not ok)"
check "collect: the CSV, one row per point and phase" test "$(wc -l < "$out/results.csv")" -eq 13

if [ "$fails" -ne 0 ]; then
  echo "$fails check(s) failed"
  exit 1
fi
echo "all checks passed"
