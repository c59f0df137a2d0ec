#!/bin/sh
# verify.sh BUILD COUNT -- the long run of the properties (make verify):
# tests/props.c on COUNT generated tests, split over two processes with
# different seeds, the reduce property on COUNT tests of interchangeable
# threads (every combination of the search's reductions turned off) and
# on COUNT/10 ticket-idiom tests, and the Lua-function form
# (tests/lua/props_fn.lua) on COUNT more.  Prints each run's summary and
# the time it took; exit 1 on any failure.
set -u
B=${1:-build/release}
COUNT=${2:-50000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(sh "$ROOT/scripts/shared.sh" "$ROOT")
MODEL="$SHARED/spec/ptx-v6.0-isa.cat"
half=$((COUNT / 2))
rest=$((COUNT - half))
t0=$(date +%s)
"$B/tests/props" --large --count "$half" --seed 101 --model "$MODEL" \
  > "${TMPDIR:-/tmp}/verify.$$.1" 2>&1 &
p1=$!
"$B/tests/props" --large --count "$rest" --seed 202 --model "$MODEL" \
  > "${TMPDIR:-/tmp}/verify.$$.2" 2>&1 &
p2=$!
fail=0
wait $p1 || fail=1
wait $p2 || fail=1
for k in 1 2; do
  grep -E '^FAIL' -A 12 "${TMPDIR:-/tmp}/verify.$$.$k" | head -n 60
  grep -E '^props:' "${TMPDIR:-/tmp}/verify.$$.$k"
  rm -f "${TMPDIR:-/tmp}/verify.$$.$k"
done
t1=$(date +%s)
echo "verify: props on $COUNT generated tests in $((t1 - t0)) s"
# the reductions on COUNT tests of interchangeable threads (the copies
# kind), every combination of reductions turned off
"$B/tests/props" --only reduce --kind copies --all-combos --count "$half" \
  --seed 303 --model "$MODEL" > "${TMPDIR:-/tmp}/verify.$$.1" 2>&1 &
p1=$!
"$B/tests/props" --only reduce --kind copies --all-combos --count "$rest" \
  --seed 404 --model "$MODEL" > "${TMPDIR:-/tmp}/verify.$$.2" 2>&1 &
p2=$!
wait $p1 || fail=1
wait $p2 || fail=1
for k in 1 2; do
  grep -E '^FAIL' -A 12 "${TMPDIR:-/tmp}/verify.$$.$k" | head -n 60
  grep -E '^props:' "${TMPDIR:-/tmp}/verify.$$.$k"
  rm -f "${TMPDIR:-/tmp}/verify.$$.$k"
done
t1b=$(date +%s)
echo "verify: props reduce on $COUNT tests of interchangeable threads in $((t1b - t1)) s"
# and on COUNT/10 ticket-idiom tests (the commutation of inert RMWs),
# up to 4 threads (the cat evaluator on each)
"$B/tests/props" --only reduce --kind tickets --all-combos \
  --count $((COUNT / 10)) --seed 505 --timeout 1 --model "$MODEL" \
  > "${TMPDIR:-/tmp}/verify.$$.3" 2>&1 || fail=1
grep -E '^FAIL' -A 12 "${TMPDIR:-/tmp}/verify.$$.3" | head -n 60
grep -E '^props:' "${TMPDIR:-/tmp}/verify.$$.3"
rm -f "${TMPDIR:-/tmp}/verify.$$.3"
t1c=$(date +%s)
echo "verify: props reduce on $((COUNT / 10)) ticket tests in $((t1c - t1b)) s"
t1=$t1c
out=$(cd "$ROOT" && "$B/warplab" run tests/lua/props_fn.lua "$SHARED" "$COUNT" 7 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^FAIL|^props_fn' -A 12 | head -n 60
[ $rc -eq 0 ] || fail=1
t2=$(date +%s)
echo "verify: the Lua-function form of $COUNT generated tests in $((t2 - t1)) s"
if [ $fail -eq 0 ]; then echo "verify: no failure"; else echo "verify: FAILED"; fi
exit $fail
