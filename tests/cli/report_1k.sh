#!/usr/bin/env bash
# The run report of a 1,000-rank run (issue 33): switched-1k with the hierarchical plan and
# partition inference (1 s of CPU) gives 25 groups; the page must open in headless Chromium
# without console output, its timeline must hold one labelled row per group and none per rank,
# and a screenshot of it is kept among the test artefacts (report-switched-1k-simgrid.png).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/browser_check.sh"
"$TSUNAGI" run "$SRC/scenarios/bench/switched-1k.toml" --out "$WORK/run" --quiet --report \
  --set protocol.plan=hierarchical --set protocol.routing=groups \
  --set protocol.inference.groups=partition --set protocol.inference.tree=partition \
  --set protocol.directory=on_demand >"$WORK/summary.txt" ||
  fail "the run failed: $(cat "$WORK/summary.txt")"
expect_json "$WORK/run/result.json" ok true
expect_json "$WORK/run/result.json" processes 1000
python3 - "$WORK/run/report.html" "$WORK/run/result.json" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
groups = len(json.load(open(sys.argv[2]))["inference"]["groups"])
timeline = page[page.index('id="timeline-svg"'):]
timeline = timeline[:timeline.index("</figure>")]
rows = len(re.findall(r'<g class="group-row"', timeline))
labels = len(re.findall(r'class="band-label"', timeline))
single = len(re.findall(r'<g class="process" data-proc="r\d+"', timeline))
assert groups >= 2, groups
assert rows == groups and labels == groups, (rows, labels, groups)
assert single == 0, f"{single} rows of single ranks"
print(f"ok: 1,000 ranks drawn as {rows} labelled group rows; page {len(page)} bytes")
PY
open_in_browser "$WORK/run/report.html" "$WORK/page"
keep_screenshot "$WORK/run/report.html" "report-switched-1k-simgrid"
