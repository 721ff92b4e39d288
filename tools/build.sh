#!/usr/bin/env bash
# Installs the Debian packages if needed, then configures and builds tsunagi.
# Usage: tools/build.sh [BUILD_DIR] [extra cmake args...]   (default BUILD_DIR: build)
# TSUNAGI_TARGETS="a b" builds only those targets (the demo builds the CLI alone; the test
# command then builds the rest in the same folder and configuration, never the same step twice).
set -euo pipefail
cd "$(dirname "$0")/.."
"$PWD/tools/install-deps.sh"
build_dir=${1:-build}
shift || true
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >&2
elif [ $# -gt 0 ]; then
  cmake -S . -B "$build_dir" "$@" >&2  # an existing build takes the extra settings too
fi
targets=()
for t in ${TSUNAGI_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" --parallel "$(nproc)" "${targets[@]}" >&2
