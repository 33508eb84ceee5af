# Shared by the command-line tests (source after setting bin and src): a scratch directory
# removed at exit, no SystemC banner, check() counting failures, finish() as the exit status.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fails=0
check() {  # check "description" command...
  local what=$1
  shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}
finish() {  # the last line of a test: its summary and exit status
  if [ "$fails" -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
  fi
  echo "all checks passed"
  exit 0
}
