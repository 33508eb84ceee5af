#!/usr/bin/env bash
# Formats every tracked C++ file with the project's .clang-format (clang-format 14, Debian 12).
# `scripts/format.sh --check` changes nothing and fails, listing the files, if any would change.
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$fmt" ] || { echo "format: clang-format not installed (apt-get install clang-format)"; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find . -path ./build\* -prune -o \( -name '*.cpp' -o -name '*.h' \) -print)
if [ "${1:-}" = --check ]; then
  bad=()
  for f in "${files[@]}"; do
    "$fmt" --style=file "$f" | cmp -s - "$f" || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "format: ${#bad[@]} of ${#files[@]} files differ from .clang-format (run scripts/format.sh):"
    printf '  %s\n' "${bad[@]}"
    exit 1
  fi
  echo "format: ${#files[@]} files match .clang-format"
else
  "$fmt" --style=file -i "${files[@]}"
fi
