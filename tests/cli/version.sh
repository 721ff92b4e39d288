#!/usr/bin/env bash
# `tsunagi --version` names the version and the commit it was built from (cmake/build_commit.cmake).
source "$(dirname "$0")/lib.sh"
line=$("$TSUNAGI" --version)
echo "$line"
[[ $line =~ ^tsunagi\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{7,40}(-dirty)?|unknown)\)$ ]] ||
  fail "--version printed '$line', expected 'tsunagi X.Y.Z (commit HASH[-dirty])'"
hash=${BASH_REMATCH[1]%-dirty}
# Built from a git checkout, the hash is one of its commits (not necessarily HEAD: the build
# may be older than the last commit).
if command -v git >/dev/null && git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
  [ "$hash" != unknown ] || fail "built from a git checkout, but the commit is unknown"
  git -C "$SRC" cat-file -e "$hash^{commit}" 2>/dev/null || fail "$hash is not a commit of $SRC"
fi
echo "ok: --version names the commit"
