#!/bin/sh
# cat_load.sh BUILD -- reading a large cat model: 200,000 lets (each
# reading the one before), then a 20,000-name let rec, loaded and run on
# one small test.  Reading is linear in the model's size (a name costs a
# hash probe, engine/model/cat/names.c): the target is under 2 s for
# each.  Before (each name walked every binding; the let rec's types
# took a round per name): lets 50.7 s, rec 2.5 s on the 2-core
# development machine under load; after: 0.34 s and 0.02 s.
set -eu
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T="$ROOT/tests/litmus/MP+sc.cta+diffCTA+relacq.gpu.litmus"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
awk 'BEGIN { print "Lets"; print "let a0 = po"
  for (i = 1; i < 200000; i++) printf "let a%d = a%d | rf\n", i, i - 1
  print "acyclic a199999 as big" }' > "$d/lets.cat"
awk 'BEGIN { print "Rec"; printf "let rec r0 = po"
  for (i = 1; i < 20000; i++) printf "\nand r%d = r%d", i, i - 1
  print "\nacyclic r19999 as big" }' > "$d/rec.cat"
for m in lets rec; do
  t0=$(date +%s.%N)
  "$B/warplab" litmus -q --model "$d/$m.cat" "$T" > /dev/null
  t1=$(date +%s.%N)
  awk -v m="$m" -v a="$t0" -v b="$t1" -v n="$(wc -c < "$d/$m.cat")" \
    'BEGIN { s = b - a; printf "cat load: %s.cat (%d bytes): %.2f s%s\n",
             m, n, s, s < 2 ? "" : " (over the 2 s target)" }'
done
