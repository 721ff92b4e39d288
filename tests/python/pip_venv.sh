#!/usr/bin/env bash
# pip install ./python into a throwaway venv, offline (--no-build-isolation: setuptools from the
# system; --no-deps: pandas from the system via --system-site-packages), then import tsunagi
# outside the source tree and load a run. The venv is removed on exit (lib.sh's WORK).
source "$(dirname "$0")/lib.sh"
TSUNAGI=${TSUNAGI:?}
need_module pandas python3-pandas
need_module ensurepip python3-venv
need_module setuptools python3-setuptools

"$TSUNAGI" run "$SRC/scenarios/teaching/two-switches.toml" --out "$WORK/run" --quiet >/dev/null \
  || fail "tsunagi run failed"
"$PYTHON" -m venv --system-site-packages "$WORK/venv" || fail "python3 -m venv"
# A copy, so that the build's egg-info and build/ land in WORK, not in the source tree.
cp -r "$SRC/python" "$WORK/src"
"$WORK/venv/bin/pip" install --quiet --no-build-isolation --no-deps --no-index "$WORK/src" \
  >"$WORK/pip.log" 2>&1 || { cat "$WORK/pip.log"; fail "pip install ./python"; }
cd "$WORK"  # not the source tree: the installed copy must be the one imported
env -u PYTHONPATH "$WORK/venv/bin/python" - "$WORK/run" <<'PY' || fail "import tsunagi from the venv"
import sys
import tsunagi
assert "/venv/" in tsunagi.__file__, tsunagi.__file__
run = tsunagi.load(sys.argv[1])
assert run.result["ok"] and len(run.trace) == run.result["run"]["trace_lines"]
print(f"ok: {tsunagi.__file__}: {run!r}, trace {run.trace.shape}")
PY
# Into a variable first: grep -q stopping early would break pip's pipe (and pipefail).
shown=$("$WORK/venv/bin/pip" show tsunagi) || fail "pip show tsunagi"
grep -q '^Version: 0.1.0' <<<"$shown" || fail "pip show tsunagi: $shown"
