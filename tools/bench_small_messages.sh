#!/usr/bin/env bash
# Every scenario of the repo on SimGrid twice: every message a flow (simgrid.uncontended_below
# = 0, the behaviour before issue 34) and the default (small messages dated by the adapter).
# Prints one Markdown row per scenario: `tsunagi compare` exit status, workload makespan,
# simulated end, overlay connected, wall seconds (docs/benchmarks.md, "Small messages").
#
# Usage: tools/bench_small_messages.sh [TSUNAGI] [OUT_DIR]   (kaneda-is-128 takes ~1 minute)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
tsunagi=${1:-$src/build/app/tsunagi}
out=${2:-$(mktemp -d /tmp/tsunagi-small-messages.XXXXXX)}
mkdir -p "$out"
echo "| scenario | compare | workload makespan | simulated end | overlay connected | wall s (flows → dated) |"
echo "|---|---|---|---|---|---|"
for file in "$src"/scenarios/teaching/*.toml "$src"/scenarios/papers/*.toml \
  "$src"/scenarios/generated/*.toml; do
  name=$(basename "$file" .toml)
  "$tsunagi" run "$file" --out "$out/$name-flows" --quiet --set simgrid.uncontended_below=0 \
    > "$out/$name-flows.txt" 2>&1 || true
  "$tsunagi" run "$file" --out "$out/$name-dated" --quiet > "$out/$name-dated.txt" 2>&1 || true
  status=0
  "$tsunagi" compare "$out/$name-flows" "$out/$name-dated" > "$out/$name-compare.txt" 2>&1 ||
    status=$?
  /usr/bin/python3 - "$out/$name" "$name" "$status" <<'PY'
import json, sys
base, name, status = sys.argv[1:]
def load(kind):
    d = json.load(open(f"{base}-{kind}/result.json"))
    return ((d.get("workload") or {}).get("makespan_ns"), d["simulated_end_s"] * 1e9,
            (d.get("overlay") or {}).get("connected_ns"), d["wall_s"], d["ok"])
def cell(a, b):
    if not a or b is None:
        return "—"
    return f"{a / 1e6:.3f} → {b / 1e6:.3f} ms ({(b - a) / a * 100:+.2f} %)"
try:
    f, d = load("flows"), load("dated")
except (OSError, KeyError, ValueError) as error:
    print(f"| {name} | run failed: {error} | | | | |")
    sys.exit(0)
ok = "" if f[4] and d[4] else " (a run not ok)"
print(f"| {name} | exit {status}{ok} | {cell(f[0], d[0])} | {cell(f[1], d[1])} | "
      f"{cell(f[2], d[2])} | {f[3]:.2f} → {d[3]:.2f} |")
PY
done
