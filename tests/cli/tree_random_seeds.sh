#!/usr/bin/env bash
# Random trees (scenarios/generated/random-tree.toml), seed by seed: group inference must be
# right on every seed whose network meets the documented condition (docs/tree-inference.md,
# "When group inference is right"; result.json inference.groups_condition_holds), and the exact
# tree method must be right wherever its own assumptions hold too. A wrong answer on such a
# seed fails the sweep; seeds outside the condition are listed, never silently dropped.
#
# Usage: tree_random_seeds.sh FIRST LAST [--min-met N] [--tree-vs-rtt] [tsunagi run options...]
#   --min-met N: at least N seeds must meet the condition (so a sweep cannot pass empty).
#   --tree-vs-rtt: the run's tree (tree = "partition") must be right on every seed meeting the
#     group condition where tree = "rtt" (all pairs of representatives, run once more) is right;
#     tree = "partition" claims to be right where the rtt method is (docs/tree-inference.md).
source "$(dirname "$0")/lib.sh"
first=${1:?first seed}
last=${2:?last seed}
shift 2
min_met=1
if [ "${1:-}" = "--min-met" ]; then
  min_met=$2
  shift 2
fi
vs_rtt=false
if [ "${1:-}" = "--tree-vs-rtt" ]; then
  vs_rtt=true
  shift
fi
met=0 outside="" tree_checked=0 rtt_right=0
tree_correct_of() {
  python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["inference"].get("tree_correct")))' "$1"
}
for seed in $(seq "$first" "$last"); do
  "$TSUNAGI" run "$SRC/scenarios/generated/random-tree.toml" --quiet \
    --set network.random_tree.seed="$seed" "$@" --out "$WORK/$seed" > /dev/null ||
    fail "seed $seed: the run failed ($WORK/$seed)"
  read -r groups condition assume tree why < <(python3 - "$WORK/$seed/result.json" <<'PY'
import json, sys
i = json.load(open(sys.argv[1]))["inference"]
print(json.dumps(i["groups_correct"]), json.dumps(i["groups_condition_holds"]),
      json.dumps(i.get("tree_assumptions_hold")), json.dumps(i.get("tree_correct")),
      i["groups_condition"])
PY
)
  echo "seed $seed: groups_correct=$groups condition=$condition ($why)" \
       "tree_assumptions_hold=$assume tree_correct=$tree"
  if [ "$condition" != true ]; then
    outside="$outside $seed"
    continue
  fi
  met=$((met + 1))
  [ "$groups" = true ] || fail "seed $seed meets the group condition but its groups are wrong"
  if [ "$vs_rtt" = true ]; then
    "$TSUNAGI" run "$SRC/scenarios/generated/random-tree.toml" --quiet \
      --set network.random_tree.seed="$seed" "$@" --set protocol.inference.tree=rtt \
      --out "$WORK/$seed-rtt" > /dev/null || fail "seed $seed: the rtt run failed"
    rtt=$(tree_correct_of "$WORK/$seed-rtt/result.json")
    echo "seed $seed: tree = rtt: tree_correct=$rtt"
    if [ "$rtt" = true ]; then
      rtt_right=$((rtt_right + 1))
      [ "$tree" = true ] || fail "seed $seed: the rtt tree is right but this run's tree is wrong"
    fi
  elif [ "$assume" = true ] && [ "$tree" != null ]; then
    tree_checked=$((tree_checked + 1))
    [ "$tree" = true ] || fail "seed $seed meets the tree method's assumptions but the tree is wrong"
  fi
done
[ "$met" -ge "$min_met" ] || fail "only $met seeds meet the group condition (want >= $min_met)"
[ "$vs_rtt" = false ] || [ "$rtt_right" -ge 1 ] || fail "the rtt tree was right on no seed"
echo "ok: $met of $((last - first + 1)) seeds meet the group condition, all with the right" \
     "groups; $tree_checked trees checked, all right; $rtt_right right with tree = rtt, all" \
     "right here too; outside the condition:${outside:- none}"
