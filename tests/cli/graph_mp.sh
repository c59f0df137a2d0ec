# Execution graphs and why-not (issue 14): MP across CTAs with
# __threadfence_block() (fence.sc.cta) allows the stale read, and the
# witness graph of that state shows the from-read edge that closes the
# cycle, highlighted; with __threadfence() (fence.sc.gpu) the outcome is
# forbidden and why-not names the axiom (axiom-Causality) with its
# cycle, as text, JSON and a graph.
set -eu
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
L="$ROOT/scripts/litmus"
"$WL" litmus --graph "$D" --why-not "$L/MP+threadfence_block.litmus" \
  "$L/MP+threadfence.litmus" > "$D/out.txt"
# the state of the condition (r0=1, r1=0) of the cta-fenced test
hit=""
for f in "$D"/MP+threadfence_block.*.dot; do
  if grep -q 'condition holds' "$f"; then hit=$f; fi
done
[ -n "$hit" ] || { echo "no graph of the condition's state"; exit 1; }
# the read of x = 0 is fr-before the write x = 1: the highlighted edge
grep -q 'id="hl_fr_' "$hit"
grep 'id="hl_fr_' "$hit" | grep -q 'label="fr"'
# and the cycle is closed: po and rf highlighted too
grep -q 'id="hl_rf_' "$hit"
grep -q 'id="hl_po_' "$hit"
# SVG from Graphviz keeps the id
if command -v dot >/dev/null 2>&1; then
  grep -q 'id="hl_fr_' "${hit%.dot}.svg"
fi
# the gpu-fenced test: forbidden by axiom-Causality
grep -q 'Why not MP+threadfence: exists' "$D/out.txt"
grep -q 'forbidden by axiom-Causality' "$D/out.txt"
grep -q -- '-fr->.*-sc->' "$D/out.txt"
grep -q 'id="hl_sc_' "$D/MP+threadfence.whynot.dot"
! grep -q 'Why not MP+threadfence_block' "$D/out.txt"
# JSON: the whynot object inside the result, which stays valid JSON
"$WL" litmus --json --why-not "$L/MP+threadfence.litmus" > "$D/out.json"
grep -q '"whynot": {"test": "MP+threadfence"' "$D/out.json"
grep -q '"check": "axiom-Causality"' "$D/out.json"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); w=d[0]["whynot"]; assert w["status"]=="forbidden" and w["check"]=="axiom-Causality", w; assert any(e["kind"]=="fr" for e in w["edges"])' "$D/out.json"
fi
# the report names the axiom too
"$WL" report --runs 100 -o "$D/r.html" "$L/MP+threadfence.litmus"
grep -q 'why not: axiom-Causality' "$D/r.html"
