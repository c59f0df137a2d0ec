# --timeout, SIGINT and SIGTERM stop the cat engine while it evaluates
# one candidate (issue 20, item 6): a let rec of 20,000 names, each
# the next one's (a1 = a2, ..., aN = po), reaches its fixpoint after
# 20,000 rounds of 20,000 updates: seconds per candidate, so the
# explorer's own poll (every 1024 candidates) came minutes late.  The
# evaluator now polls the explorer's stop inside the loop.  Bounded:
# each run is killed after 60 s, which fails the test.
set -eu
WL=$(cd "$(dirname "$WL")" && pwd)/$(basename "$WL")
T="$ROOT/tests/litmus/MP+sc.cta+diffCTA+relacq.gpu.litmus"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
awk 'BEGIN { print "Slow"; printf "let rec a1 = a2"
  for (i = 2; i < 20000; i++) printf "\nand a%d = a%d", i, i + 1
  print "\nand a20000 = po"; print "acyclic a1 as slow" }' > "$d/slow.cat"
# --timeout 1: the file fails (exit 1) with the timeout's message
rc=0
timeout -k 5 60 "$WL" litmus --timeout 1 --model "$d/slow.cat" "$T" \
  > "$d/out" 2> "$d/err" || rc=$?
[ "$rc" = 1 ] || { echo "--timeout: exit $rc"; cat "$d/err"; exit 1; }
grep -q "gave up after --timeout 1 s" "$d/err" || { cat "$d/err"; exit 1; }
# SIGINT and SIGTERM after 2 s (timeout(1) sends them): the partial
# result, and 128 + the signal
for s in INT TERM; do
  rc=0
  timeout -k 60 -s $s --preserve-status 2 "$WL" litmus \
    --model "$d/slow.cat" "$T" > "$d/out" 2> "$d/err" || rc=$?
  want=$([ $s = INT ] && echo 130 || echo 143)
  [ "$rc" = "$want" ] || { echo "SIG$s: exit $rc"; cat "$d/err"; exit 1; }
  grep -q "interrupted by SIG$s" "$d/err" || { cat "$d/err"; exit 1; }
  grep -q "Partial" "$d/out" || { cat "$d/out"; exit 1; }
done
