# warplab sample: histograms from the simulator.  The same seed gives the
# same histogram for any --jobs; bad options exit 2, a missing file 1;
# --timeout prints the partial histogram, marked, and exits 3; Ctrl-C
# (SIGINT) stops the workers, prints the partial histogram, exits 130.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
L="$ROOT/scripts/litmus"
notime() { grep -v '^Time ' "$1"; }

for f in SB MP+weak; do
  for p in weak h100; do
    "$WL" sample -n 20000 --seed 3 --profile $p --jobs 1 "$L/$f.litmus" \
      > "$T/j1" 2> "$T/err" || { cat "$T/err"; fail "$f $p jobs=1: exit $?"; }
    "$WL" sample -n 20000 --seed 3 --profile $p --jobs 2 "$L/$f.litmus" \
      > "$T/j2" 2> "$T/err" || { cat "$T/err"; fail "$f $p jobs=2: exit $?"; }
    "$WL" sample -n 20000 --seed=3 --profile=$p --jobs=5 "$L/$f.litmus" \
      > "$T/j5" 2> "$T/err" || { cat "$T/err"; fail "$f $p jobs=5: exit $?"; }
    notime "$T/j1" > "$T/a"; notime "$T/j2" > "$T/b"; notime "$T/j5" > "$T/c"
    cmp -s "$T/a" "$T/b" || { diff "$T/a" "$T/b"; fail "$f $p: jobs 1 vs 2"; }
    cmp -s "$T/a" "$T/c" || { diff "$T/a" "$T/c"; fail "$f $p: jobs 1 vs 5"; }
    grep -q "^Test $f Allowed" "$T/a" || { cat "$T/a"; fail "no Test line"; }
    grep -q "^Observation $f " "$T/a" || fail "no Observation line"
    ! grep -q '^Partial' "$T/a" || fail "complete run marked partial"
  done
done
# runs drawn from the exact law (WARPLAB_LAW_STATS says the law is
# exact) give the same histogram for any --jobs as well, and so do the
# step-by-step runs (--no-exact)
for f in SB MP+weak LB; do
  for p in weak h100; do
    for j in 1 2 3; do
      WARPLAB_LAW_STATS=1 "$WL" sample -n 300000 --seed 4 --profile $p \
        --jobs $j "$L/$f.litmus" > "$T/e$j" 2> "$T/err" ||
        { cat "$T/err"; fail "$f $p exact jobs=$j: exit $?"; }
      grep -q "^law $f: exact, " "$T/err" ||
        { cat "$T/err"; fail "$f $p: the law is not exact"; }
      notime "$T/e$j" > "$T/x$j"
    done
    cmp -s "$T/x1" "$T/x2" || { diff "$T/x1" "$T/x2"; fail "$f $p exact: jobs 1 vs 2"; }
    cmp -s "$T/x1" "$T/x3" || { diff "$T/x1" "$T/x3"; fail "$f $p exact: jobs 1 vs 3"; }
    "$WL" sample --no-exact -n 3000 --seed 4 --profile $p --jobs 1 \
      "$L/$f.litmus" | grep -v '^Time ' > "$T/s1"
    "$WL" sample --no-exact -n 3000 --seed 4 --profile $p --jobs 2 \
      "$L/$f.litmus" | grep -v '^Time ' > "$T/s2"
    cmp -s "$T/s1" "$T/s2" || { diff "$T/s1" "$T/s2"; fail "$f $p --no-exact: jobs 1 vs 2"; }
  done
done
# the counts add up to -n; another seed gives another histogram
"$WL" sample -n 20000 --seed 3 --profile weak "$L/MP+weak.litmus" > "$T/a"
sum=$(awk '/^[0-9]+ *[*:]>/ { s += $1 } END { print s }' "$T/a")
[ "$sum" = 20000 ] || { cat "$T/a"; fail "counts add up to $sum"; }
grep -q '\*>1:r0=1; 1:r1=0; .* weak$' "$T/a" ||
  { cat "$T/a"; fail "weak MP"; }
"$WL" sample -n 20000 --seed 4 --profile weak "$L/MP+weak.litmus" > "$T/b"
! cmp -s "$T/a" "$T/b" || fail "seeds 3 and 4 give the same histogram"
# two files, in order
"$WL" sample -n 100 "$L/SB.litmus" "$L/MP.litmus" > "$T/two" || fail "two"
got=$(grep '^Test ' "$T/two" | tr '\n' ' ')
[ "$got" = "Test SB Allowed Test MP Allowed " ] || { cat "$T/two"; fail "two"; }

# usage errors: exit 2
for args in "-n 0" "-n x" "-n -5" "--seed -1" "--profile fast" "--jobs 0" \
            "--jobs 9999" "--timeout 0" "--timeout x" "--max-steps 0" \
            "--frobnicate" "-n"; do
  "$WL" sample $args "$L/SB.litmus" > /dev/null 2> "$T/err"
  rc=$?
  [ $rc -eq 2 ] || fail "'$args': want exit 2, got $rc"
  grep -q "warplab sample: " "$T/err" || { cat "$T/err"; fail "'$args' msg"; }
done
"$WL" sample 2> /dev/null; [ $? -eq 2 ] || fail "no file: want exit 2"
# a missing file: exit 1, the other files still run
"$WL" sample -n 100 "$T/missing.litmus" "$L/SB.litmus" > "$T/out" 2> "$T/err"
[ $? -eq 1 ] || fail "missing file: want exit 1"
grep -q "missing.litmus: No such file" "$T/err" || fail "missing file message"
grep -q "^Test SB" "$T/out" || fail "the next file did not run"

# --timeout: the partial histogram, marked, and exit status 3
"$WL" sample -n 1000000000000 --jobs 2 --timeout 0.001 "$L/SB.litmus" \
  > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/err"; fail "--timeout: want exit 3, got $rc"; }
grep -q "^Partial SB: interrupted after [0-9]* runs" "$T/out" ||
  { cat "$T/out"; fail "--timeout: no Partial line"; }
grep -q "^Observation SB " "$T/out" || fail "--timeout: no histogram"
grep -q "SB.litmus: stopped by --timeout after [0-9]* of 1000000000000 runs" \
  "$T/err" || { cat "$T/err"; fail "--timeout message"; }

# Ctrl-C: coreutils timeout sends SIGINT after 1 s (a deadline, not a
# sleep); --preserve-status passes on warplab's own exit status.
timeout --preserve-status -s INT 1 \
  "$WL" sample -n 1000000000000 --jobs 2 "$L/SB.litmus" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 130 ] || { cat "$T/err"; fail "SIGINT: want exit 130, got $rc"; }
grep -q "^Partial SB: interrupted after [0-9]* runs" "$T/out" ||
  { cat "$T/out"; fail "SIGINT: no Partial line"; }
grep -q "^Observation SB " "$T/out" || fail "SIGINT: no histogram"
grep -q "SB.litmus: interrupted by SIGINT after [0-9]* of 1000000000000 runs" "$T/err" ||
  { cat "$T/err"; fail "SIGINT message"; }
# the files after an interrupted one are skipped
timeout --preserve-status -s INT 1 "$WL" sample -n 1000000000000 --jobs 2 \
  "$L/SB.litmus" "$L/MP.litmus" > "$T/out" 2> /dev/null
[ $? -eq 130 ] || fail "SIGINT with two files: want 130"
! grep -q "^Test MP" "$T/out" || fail "SIGINT: the next file ran"
exit 0
