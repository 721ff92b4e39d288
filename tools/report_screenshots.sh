#!/usr/bin/env bash
# Screenshots of sections of a run report, for the docs (docs/cli.md, "Large runs"):
#   tools/report_screenshots.sh RUN_DIR NAME [SECTION...]
# writes docs/figures/NAME-SECTION.png for each SECTION (default: timeline overlay):
# headless Chromium's picture of a copy of RUN_DIR/report.html in which the title and every
# other section are hidden, the window as tall as the section's figure, scaled down until the
# file is under 200 KB. Needs chromium.
set -euo pipefail
run=$(cd "$1" && pwd)
name=$2
shift 2
sections=("$@")
[ ${#sections[@]} -gt 0 ] || sections=(timeline overlay)
out="$(cd "$(dirname "$0")/.." && pwd)/docs/figures"  # every generated picture (tools/figures.sh)
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for section in "${sections[@]}"; do
  # The figure's height (its viewBox), plus the heading, caption and buttons above it.
  height=$(grep -o "id=\"$section-svg\" viewBox=\"0 0 [0-9.]* [0-9.]*\"" "$run/report.html" |
    head -1 | awk '{gsub(/"/, "", $NF); printf "%d", $NF + 230}')
  width=$(grep -o "id=\"$section-svg\" viewBox=\"0 0 [0-9.]*" "$run/report.html" |
    head -1 | awk '{w = $NF + 60; printf "%d", (w < 800 ? 800 : w > 1250 ? 1250 : w)}')
  sed "s|</style>|h1, table.facts, #dom-summary, section:not(#$section) { display: none; }</style>|" \
    "$run/report.html" >"$scratch/page.html"
  shot="$out/$name-$section.png"
  # Smaller until the file is under 200 KB (the overlay, all thin lines and many colours,
  # starts at 0.6): docs keep small pictures.
  for scale in 1 0.85 0.7 0.6 0.5; do
    if [ "$section" = overlay ] && awk -v s="$scale" 'BEGIN { exit !(s > 0.6) }'; then continue; fi
    # --no-sandbox: Chromium refuses its sandbox when run as root (containers, CI).
    timeout 300 chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
      --user-data-dir="$scratch/profile" --window-size="$width,$height" \
      --force-device-scale-factor="$scale" --screenshot="$shot" "file://$scratch/page.html" \
      2>/dev/null
    [ "$(stat -c %s "$shot")" -ge 200000 ] || break
  done
  echo "$shot: ${width}x$height at $scale, $(stat -c %s "$shot") bytes"
done
