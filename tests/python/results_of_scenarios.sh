#!/usr/bin/env bash
# Runs every scenario file under the given folders of the source tree (not those under a folder
# named "broken": tests/python/check_schemas.py) on each backend of BACKENDS (default simgrid),
# then checks every result.json against schemas/result.schema.json and loads every run with
# tsunagi.load (its frames built, series included). A run that fails is a failure: these are
# the repository's own scenarios.
#   results_of_scenarios.sh scenarios/teaching tests/realnet/wan validation
source "$(dirname "$0")/lib.sh"
TSUNAGI=${TSUNAGI:?}
need_module jsonschema python3-jsonschema
need_module pandas python3-pandas
[ $# -gt 0 ] || fail "usage: $0 FOLDER..."

cd "$SRC"
mkdir -p "$WORK/runs"
mapfile -t files < <(find "$@" -name '*.toml' -not -path '*/broken/*' | sort)
[ ${#files[@]} -gt 0 ] || fail "no scenario files under $*"
for backend in ${BACKENDS:-simgrid}; do
  for f in "${files[@]}"; do
    out="$WORK/runs/$(echo "$f" | tr / _)-$backend"
    start=$(date +%s.%N)
    "$TSUNAGI" run "$f" --backend "$backend" --quiet --out "$out" >"$out.log" 2>&1 ||
      { tail -5 "$out.log"; fail "tsunagi run $f --backend $backend"; }
    printf '%-48s %-8s %5.1f s\n' "$f" "$backend" "$(echo "$(date +%s.%N) - $start" | bc)"
  done
done
"$PYTHON" "$SRC/tests/python/check_schemas.py" results "$WORK"/runs/*/result.json ||
  fail "a result.json does not match schemas/result.schema.json"
PYTHONPATH="$SRC/python" "$PYTHON" - "$WORK"/runs/*/ <<'PY' || fail "tsunagi.load"
import sys
import tsunagi
for d in sys.argv[1:]:
    run = tsunagi.load(d)
    frames = [run.trace, run.ranks, run.figures, run.failed_exits]
    for key, rows in (("multicast", "series"), ("lmmc", "series"), ("indices", "pairs")):
        frame = getattr(run, key)
        present = rows in (run.result.get(key) or {})
        if present != (frame is not None) or (present and len(frame) != len(run.result[key][rows])):
            sys.exit(f"{d}: {key}.{rows} present: {present}, but run.{key} is {frame!r}")
    assert len(run.trace) == run.result["run"]["trace_lines"], d
    assert len(run.ranks) == run.result["processes"], d
print(f"loaded {len(sys.argv) - 1} runs with tsunagi.load")
PY
