#!/bin/sh
# demo.sh BUILD -- the tour: Lua scripts in scripts/examples/ (what PTX
# allows, with explanations), then the classic .litmus tests.
set -eu
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WL="$B/warplab"
cat <<'TXT'
warplab tour: every outcome the PTX 6.0 memory model allows, exhaustively;
kernels on a simulated GPU and what their memory accesses cost.
Part 1 runs the Lua scripts in scripts/examples/ (warplab run FILE.lua):
01-06 litmus tests, 07 the threadfence reduction as a real kernel, 08-11
shared-memory banks, tiled matrix multiplication, constant memory vs
__ldg, occupancy, 12-15 undefined behaviour found and explained (a
stencil without its __syncthreads(), a flag polled with plain loads, a
warp reduction without __syncwarp(), the if/else with a __syncthreads()
in each branch);
part 2 the .litmus files in scripts/litmus/ (warplab litmus FILE.litmus);
part 3 samples some of them on the simulator (warplab sample).
TXT
for f in "$ROOT"/scripts/examples/*.lua; do
  echo
  echo "=== $(basename "$f")"
  sed -n '1,/^local wl/p' "$f" | grep '^--' | sed 's/^-- \{0,1\}/  /'
  echo
  (cd "$ROOT" && "$WL" run "scripts/examples/$(basename "$f")") | sed 's/^/    /'
done
echo
echo "Part 2: litmus files. \"Ok\" means the condition's outcome can happen"
echo "(exists) or the property always holds (forall)."
for t in MP+weak MP MP+threadfence MP+threadfence_block SB SB+threadfence \
         LB LB+data CoRR IRIW+threadfence MP+syncthreads Spinlock; do
  f="$ROOT/scripts/litmus/$t.litmus"
  echo
  echo "=== $t"
  # the explanation: the quoted text under the test's name
  sed -n '/^"/,/"$/p' "$f" | tr -d '"' | sed 's/^/  /'
  echo
  "$WL" litmus "$f" | grep -v -e '^Time' -e '^$' | sed 's/^/    /'
done
echo
echo "Part 3: the same tests sampled on the simulated GPU (h100 profile,"
echo "100,000 runs, seed 1): how often a machine shows each outcome, and"
echo "which outcomes are weak (sequential consistency cannot give them)."
for t in MP+weak SB MP+threadfence; do
  echo
  echo "=== $t (warplab sample -n 100000)"
  "$WL" sample -n 100000 --seed 1 "$ROOT/scripts/litmus/$t.litmus" |
    grep -v -e '^Time' -e '^$' | sed 's/^/    /'
done
echo
echo "Run your own: $WL run script.lua, $WL litmus FILE.litmus,"
echo "$WL sample FILE.litmus ($WL help)"
