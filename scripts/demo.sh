#!/bin/sh
# demo.sh BUILD -- the tour: classic litmus tests, what PTX allows, why.
set -eu
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WL="$B/warplab"
cat <<'TXT'
warplab tour: every outcome the PTX 6.0 memory model allows, exhaustively.
Each test below is a .litmus file in scripts/litmus/; the condition line
names the surprising outcome, and "Ok" means it can happen ("exists"), or
that the property always holds ("forall").
TXT
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
echo "Run your own: $WL litmus FILE.litmus  (--json for witnesses; $WL help)"
