#!/bin/bash
# install:tlm_platform: `cmake --install` into a temporary prefix, then examples/tlm_platform
# built as an outside project against it (find_package(ssdlab), ssdlab::drive) and run; its
# output must show every transaction answered, the data read back and zeros after the trim.
# The pkg-config file must name the drive library and the installed include directory, and
# build the same example with the same output.
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d /tmp/ssdlab-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The outside project uses the compiler the libraries were built with (a clang build's
# sanitizer-instrumented libraries do not link with another compiler's runtimes).
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cxx=${cxx:-c++}
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --libs --cflags ssdlab | tee "$tmp/pc"
grep -q -- "-lssdlab_drive" "$tmp/pc"
inc=$(grep -o -- '-I[^ ]*' "$tmp/pc" | head -1)
[ "$(realpath "${inc#-I}")" = "$(realpath "$tmp/prefix/include/ssdlab")" ] && [ -f "${inc#-I}/model/tlm_target.h" ]
cmake -S "$src/examples/tlm_platform" -B "$tmp/example" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build "$tmp/example" -j2 >/dev/null
out=$(SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$tmp/example/tlm_platform")
echo "$out"
[ "$(grep -c ' us ok$' <<< "$out")" = 4 ]
grep -q '^read back matches$' <<< "$out"
grep -q '^after trim zeros$' <<< "$out"
grep -q ': 0 failures$' <<< "$out"
# The same example through the pkg-config file alone.
"$cxx" "$src/examples/tlm_platform/tlm_platform.cpp" -o "$tmp/tlm_platform_pc" \
    -DSSDLAB_CONFIG_DIR="\"$tmp/prefix/share/ssdlab/configs\"" \
    $(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs ssdlab)
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$tmp/tlm_platform_pc" | diff - <(echo "$out")
echo "install:tlm_platform: ok (CMake package and pkg-config)"
