# The report of the tour in headless Chromium (issue 14): the page is
# rendered with no console message, every graph, chart and table is in
# the DOM the browser built, nothing is fetched from a network, and a
# screenshot is kept (BUILD/report/tour.png, beside tour.html).
# Chromium is installed by scripts/deps.sh (WARPLAB_DEPS=chromium) when
# it is missing; the test is skipped, saying so, only when that fails.
set -eu
# run by itself (sh tests/cli/report_browser.sh from the top of the repository), it
# finds what the runner (tests/run.sh) would give it
: "${ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${WL:=$ROOT/build/release/warplab}"
: "${SHARED:=$(sh "$ROOT/scripts/shared.sh" "$ROOT")}"
OUTDIR="$(cd "$(dirname "$WL")" && pwd)/report"
mkdir -p "$OUTDIR"
if ! command -v chromium >/dev/null 2>&1; then
  WARPLAB_DEPS=chromium sh "$ROOT/scripts/deps.sh" >/dev/null 2>&1 || true
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo "SKIP report_browser: chromium cannot be installed here" >&2
  exit 0
fi
H="$OUTDIR/tour.html"
"$WL" report --runs 100 --graphs 2 --title "warplab tour" -o "$H" \
  "$ROOT"/scripts/examples/*.lua
# self-contained: no address a browser would fetch
if grep -Eq '(src|href)="(https?:)?//' "$H"; then
  echo "the page refers to the network"; exit 1
fi
U=$(mktemp -d)
trap 'rm -rf "$U"' EXIT
run_chromium() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$U" \
    --enable-logging=stderr --v=0 "$@" "file://$H"
}
run_chromium --dump-dom > "$U/dom.html" 2> "$U/log1"
run_chromium --screenshot="$OUTDIR/tour.png" --window-size=1400,3000 \
  > /dev/null 2> "$U/log2"
# console messages (errors included) are logged as CONSOLE lines
if grep -h 'CONSOLE' "$U/log1" "$U/log2"; then
  echo "console messages while rendering the report"; exit 1
fi
[ -s "$OUTDIR/tour.png" ] || { echo "no screenshot"; exit 1; }
count() { grep -o "$1" "$U/dom.html" | wc -l; }
tests=$(count '<section class="test"')
kernels=$(count '<section class="kernel"')
[ "$tests" -ge 40 ] || { echo "only $tests tests in the page"; exit 1; }
[ "$kernels" -ge 10 ] || { echo "only $kernels kernels in the page"; exit 1; }
# every explored test has its states table; every sampled one its chart
# (the two divergent __syncthreads() of the tour, 06 and 15, have none)
[ "$(count 'class="states"')" -ge $((tests - 2)) ]
[ "$(count '<svg class="wl-hist"')" -ge $((tests - 2)) ]
# graphs are SVG drawn by Graphviz (not the DOT fallback)
[ "$(count '<svg class="wl-graph"')" -ge "$tests" ]
[ "$(count 'class="dot wl-graph"')" -eq 0 ]
# why-not explanations, kernels' tables and heatmaps
[ "$(count 'class="whynot"')" -ge 5 ]
grep -q 'why not: axiom-' "$U/dom.html"
[ "$(count 'class="costs"')" -eq "$kernels" ]
[ "$(count 'class="occupancy"')" -eq "$kernels" ]
[ "$(count '<svg class="wl-heatmap"')" -ge 3 ]
# the divergent __syncthreads of the tour is a checker finding
grep -q 'class="findings"' "$U/dom.html"
grep -q 'barrier divergence' "$U/dom.html"
