# tsunagi run --report: the run report of SCENARIO opens in headless Chromium without console
# output, and the rendered DOM holds the true topology (one mark per rank), the overlay (one
# cluster per inferred group, one mark per rank), the timeline (one row per process of the
# trace, gathered in labelled group bands, a legend of the phases, the zoom controls and the
# script that drives them: wheel, drag, buttons; an arrow per workload message of messages.csv)
# and the other pictures; the DOT and SVG files beside it exist and Graphviz rendered them.
# Usage: report.sh SCENARIO [run options...]
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/browser_check.sh"
scenario=$1
shift
browser_self_test "$WORK"

"$TSUNAGI" run "$SRC/scenarios/$scenario" --out "$WORK/run" --quiet --report "$@" >"$WORK/summary.txt"
cat "$WORK/summary.txt"
grep -q "$WORK/run/report.html" "$WORK/summary.txt" || fail "the summary does not list report.html"
for file in report.html topology.json topology.svg overlay.svg timeline.svg \
  connections.svg topology.dot overlay.dot topology-graphviz.svg overlay-graphviz.svg; do
  [ -s "$WORK/run/$file" ] || fail "$file missing or empty"
done
# What was inferred: a picture when groups came from RTTs, else none (and the page says so).
if [ "$(json_get "$WORK/run/result.json" inference.groups_source)" = '"rtt"' ]; then
  [ -s "$WORK/run/inferred.svg" ] || fail "inferred.svg missing"
else
  [ ! -e "$WORK/run/inferred.svg" ] || fail "inferred.svg drawn for groups nobody inferred"
fi
# Self-contained: nothing the page would load from elsewhere.
if grep -Eo '<(link|img|iframe|object|embed)[^>]*>|(src|href)="[^"#][^"]*"|@import|url\(' \
  "$WORK/run/report.html"; then
  fail "report.html refers to something outside itself (above)"
fi

# The page in the browser, with one more script at its end that turns the mouse wheel over the
# timeline (the times shown must narrow), drags it (they must move earlier), then clicks the
# last phase's button and the linear-axis box: the spans, the message arrows and the axis labels
# must move, with no console message (one browser start for all: each costs seconds).
cat >"$WORK/zoom_check.js" <<'JS'
(function () {
  var figure = document.getElementById('timeline-svg');
  var plot = figure.querySelector('svg.plot');
  function state() {
    var xs = [];
    document.querySelectorAll('#timeline-svg rect.phase, #timeline-svg g.axis text')
      .forEach(function (e) { xs.push(e.getAttribute('x') + e.textContent); });
    document.querySelectorAll('#timeline-svg path.message')
      .forEach(function (e) { xs.push(e.getAttribute('d')); });
    return xs.join(' ');
  }
  // The times the timeline shows, as its script publishes them.
  function shown() { return [+figure.dataset.viewT0, +figure.dataset.viewT1]; }
  var box = plot.getBoundingClientRect();
  var middle = { clientX: box.left + box.width / 2, clientY: box.top + 4, bubbles: true,
                 cancelable: true };
  // Three turns of the wheel towards the user over the middle of the plot: a narrower range
  // around the middle.
  var whole = shown();
  for (var i = 0; i < 3; i++) {
    plot.dispatchEvent(new WheelEvent('wheel', Object.assign({ deltaY: -100 }, middle)));
  }
  var wheeled = shown();
  // A drag to the right by a fifth of the plot: earlier times, the same span on the axis.
  plot.dispatchEvent(new MouseEvent('mousedown', middle));
  window.dispatchEvent(new MouseEvent('mousemove', Object.assign({}, middle,
    { clientX: middle.clientX + box.width / 5 })));
  window.dispatchEvent(new MouseEvent('mouseup', middle));
  var dragged = shown();
  document.body.dataset.wheelCheck = whole[0] < wheeled[0] && wheeled[1] < whole[1]
    ? 'narrowed' : 'still ' + whole + ' -> ' + wheeled;
  document.body.dataset.dragCheck = dragged[0] < wheeled[0] && dragged[1] < wheeled[1]
    ? 'earlier' : 'still ' + wheeled + ' -> ' + dragged;
  var before = state();
  var buttons = document.querySelectorAll('#timeline-controls button');
  buttons[buttons.length - 1].click();
  var zoomed = state();
  document.getElementById('timeline-linear').click();
  var linear = state();
  document.body.dataset.zoomCheck = before !== zoomed && zoomed !== linear ? 'moved' : 'still';
})();
JS
python3 -c 'import sys; page, js = open(sys.argv[1]).read(), open(sys.argv[2]).read()
print(page.replace("</body>", "<script>" + js + "</script></body>"), end="")' \
  "$WORK/run/report.html" "$WORK/zoom_check.js" >"$WORK/zoom.html"
open_in_browser "$WORK/zoom.html" "$WORK/page"
# What a person would see, kept among the test artefacts: report-<scenario>-<backend>.png for
# the teaching run and kaneda-112 on SimGrid (a screenshot costs a browser start, ~2 s).
backend=$(json_get "$WORK/run/result.json" backend | tr -d '"')
case "$(basename "$scenario" .toml)-$backend" in
  two-switches-simgrid | kaneda-112-simgrid)
    keep_screenshot "$WORK/run/report.html" "report-$(basename "$scenario" .toml)-$backend" ;;
esac
# The timeline's script ran to its end (it marks the figure once its handlers are set).
grep -q 'id="timeline-svg"[^>]*data-zoomable="yes"' "$WORK/page.dom.html" ||
  fail "the timeline's zoom script did not run"
grep -q 'data-wheel-check="narrowed"' "$WORK/page.dom.html" ||
  fail "the wheel did not zoom the timeline: $(grep -o 'data-wheel-check="[^"]*"' "$WORK/page.dom.html")"
grep -q 'data-drag-check="earlier"' "$WORK/page.dom.html" ||
  fail "dragging did not pan the timeline: $(grep -o 'data-drag-check="[^"]*"' "$WORK/page.dom.html")"
grep -q 'data-zoom-check="moved"' "$WORK/page.dom.html" ||
  fail "a phase button or the linear axis did not move the timeline"
echo "ok: the wheel zooms, dragging pans, a phase button and the linear-axis box redraw"

# The same page again through `tsunagi report DIR`: byte-identical (deterministic).
cp "$WORK/run/report.html" "$WORK/first.html"
"$TSUNAGI" report "$WORK/run" >/dev/null
cmp -s "$WORK/first.html" "$WORK/run/report.html" || fail "tsunagi report wrote another page"

python3 - "$WORK/page.dom.html" "$WORK/run/result.json" "$WORK/run/trace.jsonl" "$WORK/run/messages.csv" <<'PY'
import csv, html.parser, json, os, sys
dom_file, result_file, trace_file, messages_file = sys.argv[1:]
result = json.load(open(result_file))
procs = {json.loads(line)["proc"] for line in open(trace_file) if line.strip()}

class Counter(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.counts, self.ids = [], {}, set()
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        svg = next((s for s in reversed(self.stack) if s), None)
        if tag == "svg":
            svg = a.get("id")
        if tag not in ("line", "rect", "circle", "path", "text", "title", "br", "meta", "input"):
            self.stack.append(svg if tag == "svg" else (self.stack[-1] if self.stack else None))
        classes = a.get("class", "").split() + ["*"]
        for c in classes:
            key = (svg, tag, c)
            self.counts[key] = self.counts.get(key, 0) + 1
    def handle_endtag(self, tag):
        if tag not in ("line", "rect", "circle", "path", "text", "title", "br", "meta", "input") and self.stack:
            self.stack.pop()

page = Counter()
page.feed(open(dom_file).read())
n = result["processes"]
def count(svg, tag, cls):
    return page.counts.get((svg, tag, cls), 0)
for needed in ("topology-svg", "inferred-svg" if result["inference"].get("groups_source") == "rtt"
               else "topology-svg", "overlay-svg", "timeline-svg", "connections-svg", "dom-summary"):
    assert needed in page.ids, f"no #{needed} in the rendered page"
assert count("topology-svg", "g", "rank") == n, (count("topology-svg", "g", "rank"), n)
assert count("overlay-svg", "g", "rank") == n, count("overlay-svg", "g", "rank")
groups = len(result["inference"].get("groups") or [])
clusters = count("overlay-svg", "g", "cluster")
assert clusters >= max(groups, 1), f"{clusters} clusters in the overlay for {groups} groups"
assert count("timeline-svg", "g", "process") == len(procs), (count("timeline-svg", "g", "process"), len(procs))
assert count("timeline-svg", "g", "group-row") == 0, "rows per group in a small run"
assert count("timeline-svg", "rect", "phase") >= len(procs)
# Rows gathered by group: one labelled band per group (and one for ranks in none).
bands = count("timeline-svg", "g", "band")
assert bands >= max(groups, 1), f"{bands} bands for {groups} groups"
assert count("timeline-svg", "text", "band-label") >= 1, "no band is labelled"
assert count("timeline-svg", "g", "legend-phase") == 10, "the phases' legend is incomplete"
buttons = count(None, "button", "*")
assert buttons >= 3, f"{buttons} zoom buttons (whole run and at least two phases)"
assert "timeline-linear" in page.ids, "no linear-axis switch"
edges = sum(v for (svg, tag, c), v in page.counts.items() if svg == "overlay-svg" and tag == "g" and c == "edge")
assert edges >= 1, "no edge groups in the overlay"
static = count("overlay-svg", "line", "*")
assert static >= 1, "no lines in the overlay"
# Workload messages: each one the run sent is a row of messages.csv (these scenarios' workloads
# send nothing to their own rank, which never touches the wire) and, once arrived, an arrow.
sent = result["messages"]["sent"]
rows = list(csv.DictReader(open(messages_file))) if os.path.exists(messages_file) else []
assert len(rows) == min(sent, 2000), f"messages.csv has {len(rows)} rows for {sent} sent"
arrived = [r for r in rows if r["received_ns"]]
if sent <= 2000:
    assert len(arrived) == result["messages"]["delivered"], (len(arrived), result["messages"])
assert all(int(r["sent_ns"]) < int(r["received_ns"]) for r in arrived), "arrived before it left"
drawn = count("timeline-svg", "path", "message")
assert drawn == len(arrived) and drawn > 0, f"{drawn} message arrows for {len(arrived)} messages"
print(f"ok: DOM has {n} ranks in the topology and overlay, {len(procs)} timeline rows, "
      f"{static} overlay lines, "
      f"{count('topology-svg', 'g', 'mismatch')} ranks marked wrong, {bands} timeline bands, "
      f"{buttons} zoom buttons, {count('timeline-svg', 'path', 'arrow')} arrows, "
      f"{drawn} message arrows, "
      f"(groups: {result['inference'].get('groups_source')}, correct: {result['inference'].get('groups_correct')})")
if result["inference"].get("groups_correct") is True:
    assert count("topology-svg", "g", "mismatch") == 0, "ranks marked wrong in a correct run"
PY

# Mismatches are marked: move one rank of a correctly inferred group into the next group, and
# every rank of both groups (and only those) must be drawn as wrong.
python3 - "$WORK/run/result.json" "$WORK/moved.txt" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
inference = result["inference"]
if inference.get("groups_correct") is not True or len(inference["groups"]) < 2:
    open(sys.argv[2], "w").write("")
    sys.exit(0)
g = inference["groups"]
g[1].append(g[0].pop())
json.dump(result, open(sys.argv[1], "w"))
open(sys.argv[2], "w").write(str(len(g[0]) + len(g[1])))
PY
expected=$(cat "$WORK/moved.txt")
if [ -n "$expected" ]; then
  "$TSUNAGI" report "$WORK/run" >/dev/null
  marked=$(grep -o 'class="rank mismatch"' "$WORK/run/report.html" | wc -l)
  [ "$marked" = "$expected" ] || fail "$marked ranks marked wrong after moving one rank, expected $expected"
  echo "ok: moving one rank marks the $marked ranks of the two groups it changed"
  open_in_browser "$WORK/run/report.html" "$WORK/moved"
fi
