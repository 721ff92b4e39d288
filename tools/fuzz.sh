#!/usr/bin/env bash
# Builds the core's libFuzzer targets with clang (ASan + UBSan) and runs them (docs/security.md,
# "Fuzzing"). Targets: wire (deframer, decoders, handshake), node, rendezvous, relay (each role
# driven by fuzzed event sequences). The inputs that once crashed a target are committed in
# tests/fuzz/regressions/<target>/ (read only); everything else is generated when fuzzing
# starts: libFuzzer grows its corpus in BUILD_DIR/corpus/<target>/ from those and from what it
# mutates, and a later run there goes on from what the earlier ones kept. An input it finds
# that crashed is left as crash-*: once fixed, it goes into tests/fuzz/regressions/<target>/.
#
# Usage: tools/fuzz.sh [--seconds S | --runs N] [--timeout S] [--build DIR] [TARGET...]
#   --seconds S   run each target for S seconds (default 10; the ctest fuzz:short uses 8)
#   --runs N      run each target for N executions instead (the long run: --runs 10000000)
#   --timeout S   an input that runs longer than S seconds of wall time is a finding (default
#                 10; raise it for runs at low priority beside other work, which can starve one
#                 input of the CPU for longer than that: a false timeout)
#   --build DIR   build directory (default build-fuzz)
# One target runs at a time, on one core. Exits non-zero on a build failure or any finding
# (the crashing input is left in the current directory as crash-* / leak-* / timeout-*).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
limit=(-max_total_time=10)
timeout=10
build=build-fuzz
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n 2,19p "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(wire node rendezvous relay)
clang=$(command -v clang++-14 || command -v clang++ || true)
if [ -z "$clang" ]; then
  echo "fuzz.sh: clang++ not found; install clang-14 libclang-rt-14-dev (tools/install-deps.sh)" >&2
  exit 2
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$src/tests/fuzz" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$clang" "${launcher[@]}" >&2
fi
nice cmake --build "$build" >&2
for target in "${targets[@]}"; do
  work="$build/corpus/$target"
  mkdir -p "$work"
  seeds=()
  [ -d "$src/tests/fuzz/regressions/$target" ] && seeds=("$src/tests/fuzz/regressions/$target")
  echo "fuzz.sh: fuzz_$target ${limit[*]}" >&2
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    nice "$build/fuzz_$target" "${limit[@]}" -max_len=4096 -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" "${seeds[@]}"
done
