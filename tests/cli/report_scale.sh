# The run report at a few hundred ranks (issue 33): 400 ranks in 10 groups (switched-100k's
# shape with one leaf per aggregation switch, 0.5 s of CPU) give a timeline of one row per group,
# each labelled, not one per rank; an overlay of one disc per group; a true network whose ranks
# are summed up per switch; and a page far below the 20 MB a 10,000-rank report may take
# (docs/cli.md, "tsunagi report"). No browser: the markup is counted (report.sh opens pages).
source "$(dirname "$0")/lib.sh"
"$TSUNAGI" run "$SRC/scenarios/bench/switched-100k.toml" --set network.tree.levels.1.fanout=1 \
  --out "$WORK/run" --quiet --report >"$WORK/summary.txt" || fail "the run failed: $(cat "$WORK/summary.txt")"
python3 - "$WORK/run/report.html" "$WORK/run/result.json" <<'PY'
import json, os, re, sys
page_file, result_file = sys.argv[1:]
page = open(page_file).read()
result = json.load(open(result_file))
ranks, groups = result["processes"], len(result["inference"]["groups"])
assert ranks > 300 and groups >= 2, (ranks, groups)
timeline = page[page.index('id="timeline-svg"'):]
timeline = timeline[:timeline.index("</figure>")]
per_rank = len(re.findall(r'<g class="process" data-proc="r\d+"', timeline))
per_group = len(re.findall(r'<g class="group-row"', timeline))
labels = len(re.findall(r'class="band-label"', timeline))
assert per_rank == 0, f"{per_rank} timeline rows of single ranks above 300 ranks"
assert per_group == groups, f"{per_group} group rows for {groups} groups"
assert labels == groups, f"{labels} group labels for {groups} groups"
overlay = page[page.index('id="overlay-svg"'):]
overlay = overlay[:overlay.index("</svg>")]
assert len(re.findall(r'class="cluster"', overlay)) == groups, "not one overlay disc per group"
assert 'class="rank' not in overlay, "ranks drawn one by one in the overlay"
size = os.path.getsize(page_file)
# 400 ranks: about 250 KB. A page that grew with ranks x rows would be far above this.
assert size < 1_000_000, f"report.html is {size} bytes"
print(f"ok: {ranks} ranks, {groups} groups: {per_group} timeline rows, {labels} labels, "
      f"report.html {size} bytes")
PY

# A wrong group still shows when ranks are summed up: move one rank of G0 into G1, and the bars
# of exactly two switches (every rank of both groups is now in a wrong group) are marked.
python3 - "$WORK/run/result.json" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
groups = result["inference"]["groups"]
groups[1].append(groups[0].pop())
json.dump(result, open(sys.argv[1], "w"))
PY
"$TSUNAGI" report "$WORK/run" >/dev/null 2>&1 || fail "tsunagi report failed on the changed result"
marked=$(grep -o 'class="ranks mismatch"' "$WORK/run/report.html" | wc -l)
[ "$marked" = 2 ] || fail "$marked switch bars marked wrong after moving one rank, expected 2"
echo "ok: moving one rank marks the bars of its two switches"
