#!/usr/bin/env bash
# Set up a fresh Debian 12 machine (as root), build ssdlab, then either run the default
# scenario (`run`) or the whole test suite (`test`). Safe to repeat: it installs only what
# is missing and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
packages=(g++ make cmake pkg-config libsystemc-dev libboost-dev libyaml-cpp-dev catch2
          libcli11-dev nlohmann-json3-dev fio qemu-utils libnbd-bin
          libxxhash-dev zlib1g-dev libzstd-dev
          clang libclang-rt-14-dev clang-format
          python3-matplotlib chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${SSDLAB_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

case "$mode" in
  run)
    "$build/ssdlab" run scenarios/quickstart.yaml --out results/quickstart
    ;;
  test)
    # First the libFuzzer targets, built with clang in a directory of their own, each run
    # briefly from a fixed seed on its corpus (docs/fuzzing.md); then the suite, whose summary
    # closes the output. Both run even if one fails.
    status=0
    fuzz_build=${SSDLAB_FUZZ_BUILD_DIR:-build-fuzz}
    (CXX=clang++ cmake -S . -B "$fuzz_build" -DSSDLAB_FUZZ=ON -DSSDLAB_TESTS=OFF >/dev/null &&
       cmake --build "$fuzz_build" -j"$(nproc)" --target fuzz_all &&
       cd "$fuzz_build" && ctest --output-on-failure -j"$(nproc)" -L fuzz) || status=1
    (cd "$build" && ctest --output-on-failure -j"$(nproc)") || status=1
    exit $status
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
