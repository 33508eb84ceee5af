# Helpers for the `ssdlab serve` tests: start a server on a free loopback port, stop it,
# skip visibly when a client program is missing. Sourced by each test script with the
# script's arguments (`. "$(dirname "$0")/lib.sh" "$@"`): SSDLAB_BINARY SOURCE_DIR [CLIENT].
# Sets SSDLAB, SRC, CLIENT and TMP (a scratch directory removed on exit).
set -uo pipefail
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
SSDLAB=$1
SRC=$2
CLIENT=${3:-}
TMP=$(mktemp -d)
SERVER_PID=
fails=0
checks=0

check() {  # check "description" command...
  local what=$1; shift
  checks=$((checks + 1))
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}

need() {  # need PROGRAM PACKAGE: skip the whole test (exit 77) when PROGRAM is missing
  if ! command -v "$1" > /dev/null 2>&1; then
    echo "SKIP: $1 not installed (Debian package $2)"
    exit 77
  fi
}

# start_server NAME ARGS...: `ssdlab serve ARGS --listen 127.0.0.1:0 --out $TMP/NAME`, log in
# $TMP/NAME.log; sets SERVER_PID, PORT and URI once it listens. With FD_LIMIT set, the server
# runs under `ulimit -n $FD_LIMIT`.
start_server() {
  local name=$1; shift
  local log=$TMP/$name.log
  (
    [ -z "${FD_LIMIT:-}" ] || ulimit -n "$FD_LIMIT"
    exec "$SSDLAB" serve "$@" --listen 127.0.0.1:0 --out "$TMP/$name"
  ) > "$log" 2>&1 &
  SERVER_PID=$!
  PORT=
  for _ in $(seq 200); do
    PORT=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$log" 2> /dev/null | head -1 | cut -d: -f2)
    [ -n "$PORT" ] && break
    if ! kill -0 "$SERVER_PID" 2> /dev/null; then
      echo "server did not start:"; cat "$log"; SERVER_PID=; return 1
    fi
    sleep 0.05
  done
  [ -n "$PORT" ] || { echo "server never listened:"; cat "$log"; return 1; }
  URI=nbd://127.0.0.1:$PORT
  echo "server $name: $URI (pid $SERVER_PID)"
}

# stop_server: SIGTERM, wait; returns the server's exit status.
stop_server() {
  [ -n "$SERVER_PID" ] || return 1
  kill -TERM "$SERVER_PID"
  local rc=0
  wait "$SERVER_PID" || rc=$?
  SERVER_PID=
  return $rc
}

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill -KILL "$SERVER_PID" 2> /dev/null; wait "$SERVER_PID" 2> /dev/null; fi
  rm -rf "$TMP"
}

# field FILE KEY: the value of the first `"KEY": value` in a JSON file (keys used are unique).
field() { sed -n "s/.*\"$2\": \([^,]*\),\{0,1\}$/\1/p" "$1" | head -1; }

# cpu_ticks PID: user + system CPU time of a process so far, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

finish() {
  echo "$((checks - fails)) passed, $fails failed"
  [ "$fails" -eq 0 ]
}

trap cleanup EXIT
