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
# mktemp, not /tmp/NAME.$$: a predictable name is a link another user can plant (CI runs as root).
report=$(mktemp)
trap 'rm -f "$report"' EXIT
if ! clang-format --dry-run -Werror "${files[@]}" 2>"$report"; then
  echo "check-format: these files are not formatted:" >&2
  grep -oE '^[^:]+\.(cpp|hpp)' "$report" | sort -u >&2
  echo "fix with: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted" >&2
