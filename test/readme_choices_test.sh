#!/bin/bash
# meta:readme_choices: the README names every choice of the keys that select a mechanism (FTL
# scheme, hybrid scheme, GC policy), as the parameter table lists them (`ssdlab params
# --markdown`: key | kind | unit | default | choices | meaning).
# usage: readme_choices_test.sh SSDLAB SOURCE_DIR
set -uo pipefail
ssdlab=$1 src=$2
table=$("$ssdlab" params --markdown) || exit 1
fail=0
for key in controller.ftl controller.hybrid.scheme controller.gc.policy; do
  choices=$(awk -F' \\| ' -v k="| \`$key\`" '$1 == k { gsub(/,/, "", $5); print $5 }' <<< "$table")
  if [ -z "$choices" ]; then
    echo "the parameter table lists no choices for $key"
    fail=1
  fi
  for c in $choices; do
    grep -qw -- "$c" "$src/README.md" || { echo "README.md does not name $key choice '$c'"; fail=1; }
  done
  echo "$key:" $choices
done
exit $fail
