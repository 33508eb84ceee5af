#!/usr/bin/env bash
# Set up a fresh Debian 12 machine (as root), build ssdlab, then either run the default
# scenario (`run`) or the whole test suite (`test`). Safe to repeat: it installs only what
# is missing and rebuilds incrementally.
#
# `run` installs and builds only what running needs: the compiler, the libraries the `ssdlab`
# binary links and matplotlib for its plots; it builds the `ssdlab` binary alone. `test` adds
# what only the tests need (Catch2, the real NBD clients, clang for the fuzzers, clang-format,
# chromium for the report check) and builds every test binary.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
case "$mode" in
  run | test) ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac

run_packages=(g++ make cmake pkg-config libsystemc-dev libboost-dev libyaml-cpp-dev
              libcli11-dev nlohmann-json3-dev libxxhash-dev zlib1g-dev libzstd-dev libsqlite3-dev
              python3-matplotlib)
# slurmctld slurmd slurm-client munge: a one-node Slurm cluster for `ssdlab sweep --engine slurm`'s test.
test_packages=(catch2 fio qemu-utils libnbd-bin clang libclang-rt-14-dev clang-format chromium
               slurmctld slurmd slurm-client munge)
packages=("${run_packages[@]}")
[ "$mode" = test ] && packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${#missing[@]} Debian packages and what they depend on: ${missing[*]}"
  echo "   (on a fresh machine this downloads and unpacks a few hundred packages: several minutes)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  # apt's own output is hundreds of lines; print a count now and then so a long install shows
  # that it is moving, and the whole log if it fails.
  log=$(mktemp /tmp/ssdlab-apt.XXXXXX)
  if ! apt-get -o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0 install -y -q --no-install-recommends \
      "${missing[@]}" 2>&1 | tee "$log" | awk '
        /^Get:/ { got++; if (got % 50 == 0) { printf "   downloaded %d files\n", got; fflush() } }
        /^Setting up / { set++; if (set % 50 == 0) { printf "   set up %d packages\n", set; fflush() } }
        END { printf "   done: %d files downloaded, %d packages set up\n", got, set }'; then
    cat "$log" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
fi

# The SystemC library prints a banner when a model is first built; the build runs test
# binaries to list their cases, so hide it here for the whole script.
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
build=${SSDLAB_BUILD_DIR:-build}
if [ "$mode" = run ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSSDLAB_TESTS=OFF >/dev/null
  cmake --build "$build" -j"$(nproc)" --target ssdlab
  "$build/ssdlab" run scenarios/quickstart.yaml --out results/quickstart
  exit 0
fi

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSSDLAB_TESTS=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
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
