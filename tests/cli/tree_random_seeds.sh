#!/usr/bin/env bash
# Issue 3: over 20 seeds of the random tree generator, the exact method recovers every tree
# that meets its documented assumptions (docs/tree-inference.md): groups right from RTTs,
# hosts on leaf switches only, every uplink a bottleneck. Which seeds those are is pinned
# here, so a change to the generator or to group inference shows up as a failure to look at.
source "$(dirname "$0")/lib.sh"
EXPECTED_SEEDS="1 6 10 11 12 13 14 16 17 20"
met=""
for seed in $(seq 1 20); do
  "$TSUNAGI" run "$SRC/scenarios/generated/random-tree.toml" --quiet \
    --set network.random_tree.seed="$seed" --out "$WORK/$seed" > /dev/null
  read -r groups assume tree < <(python3 - "$WORK/$seed/result.json" <<'PY'
import json, sys
i = json.load(open(sys.argv[1]))["inference"]
print(json.dumps(i["groups_correct"]), json.dumps(i.get("tree_assumptions_hold")),
      json.dumps(i.get("tree_correct")))
PY
)
  echo "seed $seed: groups_correct=$groups tree_assumptions_hold=$assume tree_correct=$tree"
  if [ "$groups" = true ] && [ "$assume" = true ]; then
    met="$met $seed"
    [ "$tree" = true ] || fail "seed $seed meets the assumptions but the tree is wrong"
  fi
done
[ "${met# }" = "$EXPECTED_SEEDS" ] || fail "seeds meeting the assumptions: '${met# }', pinned '$EXPECTED_SEEDS'"
echo "ok: seeds$met meet the assumptions and all come back right"
