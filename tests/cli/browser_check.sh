# open_in_browser PAGE OUT_PREFIX: loads PAGE in headless Chromium (Debian package chromium,
# tools/install-deps.sh), writes the DOM after the page's script ran to OUT_PREFIX.dom.html and
# Chromium's log to OUT_PREFIX.log, and fails if the page wrote anything to the console (an
# uncaught exception is logged as a console message too) or tried to load anything.
#
# Why this way: `--dump-dom` prints the DOM once the page has loaded and its inline script has
# run, and `--enable-logging=stderr --v=0` makes Chromium log every console message of the page
# as an `INFO:CONSOLE` line, errors included; a page that fetched something would log the
# failed request (`net::ERR_...`, `Failed to load resource`). No DevTools client is needed, so
# the check depends on nothing but the browser. The report page logs nothing when all is well,
# so any console line is a failure. browser_self_test proves that such lines are caught.
open_in_browser() {
  local page=$1 out=$2
  command -v chromium >/dev/null || fail "chromium not installed (tools/install-deps.sh installs it)"
  # --no-sandbox: tests run as root, where Chromium refuses its sandbox.
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$out.profile" --enable-logging=stderr --v=0 \
    --dump-dom "file://$page" >"$out.dom.html" 2>"$out.log" ||
    fail "chromium failed on $page (log: $(tail -3 "$out.log"))"
  if grep -E 'CONSOLE|net::ERR|Failed to load resource' "$out.log" >&2; then
    fail "$page: console output or a failed load in the browser (lines above)"
  fi
  grep -q 'data-ready="yes"' "$out.dom.html" || fail "$page: its script did not run to the end"
  echo "ok: $page opened in $(chromium --version 2>/dev/null | head -1), no console output"
}

# A page with an uncaught error must fail open_in_browser: the check can fail.
browser_self_test() {
  local dir=$1
  printf '<!DOCTYPE html><html><body><script>document.body.dataset.ready = "yes";\nno_such_function();</script></body></html>\n' \
    >"$dir/broken.html"
  if (open_in_browser "$dir/broken.html" "$dir/broken") 2>/dev/null; then
    fail "the browser check missed an uncaught exception"
  fi
  grep -q 'no_such_function is not defined' "$dir/broken.log" ||
    fail "chromium did not log the page's exception: $(grep -c . "$dir/broken.log") log lines"
  echo "ok: the browser check catches an uncaught exception"
}

# keep_screenshot PAGE NAME: headless Chromium's picture of the whole of PAGE (1400 px wide) kept
# as a test artefact, TSUNAGI_ARTEFACTS/NAME.png (the build's test-artefacts/ under ctest), so
# that a person can look at what the checks above only counted. A screenshot is as tall as the
# window, so the window is as tall as the page: the heights of its figures (the report's
# top-level <svg ... id="X-svg" ... height="H">), 230 px for each one's heading, caption and
# buttons, and 400 px for the title and the facts (kaneda-112: 4,265 px, its timeline whole).
# An empty or tiny picture fails: a page that did not render leaves a blank one of a few KB.
keep_screenshot() {
  local page=$1 name=$2
  local dir=${TSUNAGI_ARTEFACTS:-$WORK/artefacts}
  mkdir -p "$dir"
  local height
  height=$(grep -o '<svg [^>]*id="[a-z]*-svg"[^>]*>' "$page" | grep -o ' height="[0-9.]*"' |
    tr -dc '0-9.\n' | awk '{h += $1 + 230} END {h += 400; printf "%d", (h < 2400 ? 2400 : h > 16000 ? 16000 : h)}' ||
    true)  # a page without figures: 2400
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$WORK/$name.profile" --hide-scrollbars --window-size="1400,$height" \
    --screenshot="$dir/$name.png" "file://$page" >/dev/null 2>&1 ||
    fail "chromium could not take a screenshot of $page"
  local size
  size=$(stat -c %s "$dir/$name.png" 2>/dev/null || echo 0)
  [ "$size" -gt 20000 ] || fail "$dir/$name.png is $size bytes: the page did not render"
  echo "ok: screenshot kept: $dir/$name.png (1400x$height, $size bytes)"
}
