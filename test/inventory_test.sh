#!/usr/bin/env bash
# Every TEST_CASE in test/unit and test/timing is exactly one ctest entry that runs it: a name
# that ctest splits (at ';') or a case that discovery missed would otherwise "pass" unseen.
# usage: inventory_test.sh SOURCE_DIR BUILD_DIR UNIT_TESTS TIMING_TESTS
set -uo pipefail
src=$1 build=$2 unit=$3 timing=$4
fail=0
count_cases() { grep -hE '^\s*(TEST_CASE|SCENARIO|TEMPLATE_TEST_CASE)\s*\(' "$@" | wc -l; }
entries=$(cd "$build" && ctest -N | grep -E '^\s*Test +#[0-9]+:')
for suite in unit timing; do
  bin=$unit; [ "$suite" = timing ] && bin=$timing
  in_source=$(count_cases "$src"/test/$suite/*.cpp)
  listed=$(SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$bin" --list-test-names-only | grep -c .)
  in_ctest=$(grep -cE "Test +#[0-9]+: $suite:" <<<"$entries")
  echo "$suite: $in_source TEST_CASEs in source, $listed in the binary, $in_ctest ctest entries"
  if [ "$in_source" -ne "$listed" ] || [ "$in_source" -ne "$in_ctest" ]; then
    echo "FAIL: $suite counts differ"; fail=1
  fi
  semis=$(SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$bin" --list-test-names-only | grep ';')
  if [ -n "$semis" ]; then echo "FAIL: test names with ';' (ctest splits them):"; echo "$semis"; fail=1; fi
done
# The rest are the shell tests (cli:, nbd:, fuzz:, this one), declared by add_test in test/.
others=$(grep -cvE "Test +#[0-9]+: (unit|timing):" <<<"$entries")
echo "ctest entries: $(grep -c . <<<"$entries") = Catch cases + $others shell tests"
[ $fail -eq 0 ] && echo "inventory: ok"
exit $fail
