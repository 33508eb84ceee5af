#!/bin/bash
# meta:default_config_keys: configs/default.yaml documents every drive key of the parameter table
# (`ssdlab params --markdown`, the "Drive config" table): each key is set there or, for a key
# that excludes another (capacity vs op), shown as a comment at its place in the nesting.
# usage: default_config_keys_test.sh SSDLAB SOURCE_DIR
set -uo pipefail
ssdlab=$1 src=$2
config=$src/configs/default.yaml
table=$("$ssdlab" params --markdown) || exit 1
want=$(awk '/^## Drive config/ { on = 1; next } /^## / { on = 0 }
            on && /^\| `/ { split($0, f, "`"); print f[2] }' <<< "$table" | sort -u)
[ -n "$want" ] || { echo "the parameter table lists no drive key"; exit 1; }
# The dotted path of each key line of the YAML (two spaces per level; "# key:" counts as a key).
have=$(awk 'match($0, /^ *(# *)?[a-z_]+:/) {
              text = substr($0, 1, RLENGTH); indent = match(text, /[^ ]/) - 1
              key = text; sub(/^ *(# *)?/, "", key); sub(/:$/, "", key)
              depth = int(indent / 2); path[depth] = key; p = key
              for (i = depth - 1; i >= 0; --i) p = path[i] "." p
              print p }' "$config" | sort -u)
missing=$(comm -23 <(echo "$want") <(echo "$have"))
if [ -n "$missing" ]; then
  echo "configs/default.yaml does not document these keys of the parameter table:"
  echo "$missing" | sed 's/^/  /'
  exit 1
fi
echo "configs/default.yaml documents all $(echo "$want" | wc -l) drive keys"
