#!/usr/bin/env bash
# Fails (and lists the files) when a tracked C++ file differs from what clang-format makes of it
# with the repo's .clang-format. Fix with: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "check-format: clang-format is not installed (tools/install-deps.sh installs it)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if ! clang-format --dry-run -Werror "${files[@]}" 2>/tmp/tsunagi-format.$$; then
  echo "check-format: these files are not formatted:" >&2
  grep -oE '^[^:]+\.(cpp|hpp)' /tmp/tsunagi-format.$$ | sort -u >&2
  echo "fix with: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i" >&2
  rm -f /tmp/tsunagi-format.$$
  exit 1
fi
rm -f /tmp/tsunagi-format.$$
echo "check-format: ${#files[@]} files formatted" >&2
