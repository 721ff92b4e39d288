#!/usr/bin/env bash
# tsunagi run and tsunagi sweep on the teaching scenario, then: result.json against
# schemas/result.schema.json (and three broken copies of it rejected), and tsunagi.load from
# python/ (PYTHONPATH) with the DataFrames' shapes and columns checked.
source "$(dirname "$0")/lib.sh"
TSUNAGI=${TSUNAGI:?}
need_module pandas python3-pandas
need_module jsonschema python3-jsonschema

scenario="$SRC/scenarios/teaching/two-switches.toml"
"$TSUNAGI" run "$scenario" --out "$WORK/run" --quiet >/dev/null || fail "tsunagi run failed"
"$TSUNAGI" sweep "$scenario" --set protocol.shortcut_capacity=0..1 --seeds 1..2 -j 1 \
  --out "$WORK/sweep" >/dev/null 2>"$WORK/sweep.err" || { cat "$WORK/sweep.err"; fail "tsunagi sweep failed"; }

"$PYTHON" "$SRC/tests/python/check_schemas.py" results "$WORK/run/result.json" \
  "$WORK"/sweep/*/result.json || fail "result.json does not match schemas/result.schema.json"
PYTHONPATH="$SRC/python" "$PYTHON" "$SRC/tests/python/load_check.py" "$WORK/run" "$WORK/sweep" "$WORK" \
  || fail "tsunagi.load"
echo "ok: result.json valid, tsunagi.load gives the expected frames"
