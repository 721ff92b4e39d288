#!/usr/bin/env bash
# Issue 13: a Dragonfly scenario runs to the end on SimGrid and its routers are the inferred
# switch groups; with --tree, an inferred switch tree is reported as not applicable (a
# Dragonfly has none) rather than scored.
# Usage: dragonfly_run.sh [--tree] SCENARIO [--set ...]
source "$(dirname "$0")/lib.sh"
tree=no
if [ "$1" = --tree ]; then tree=yes; shift; fi
scenario=$SRC/scenarios/$1
shift
"$TSUNAGI" run "$scenario" --out "$WORK/a" --quiet "$@" >/dev/null
expect_json "$WORK/a/result.json" ok true
expect_json "$WORK/a/result.json" inference.groups_correct true
# A multicast scenario: every multicast verified, nothing at non-members (result.json fails
# the run otherwise, so `ok` above already says it; the count is printed for the log).
if grep -q '"multicast"' "$WORK/a/result.json"; then
  expect_json "$WORK/a/result.json" multicast.frames_at_non_member 0
  expect_json "$WORK/a/result.json" workload.verified true
fi
[ "$tree" = yes ] || exit 0
"$TSUNAGI" run "$scenario" --out "$WORK/b" --quiet "$@" --set protocol.inference.tree=rtt >/dev/null
expect_json "$WORK/b/result.json" inference.tree_correct '"not applicable (Dragonfly)"'
