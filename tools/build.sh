#!/usr/bin/env bash
# Installs the Debian packages if needed, then configures and builds tsunagi.
# Usage: tools/build.sh [BUILD_DIR] [extra cmake args...]   (default BUILD_DIR: build)
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
cmake --build "$build_dir" --parallel "$(nproc)" >&2
