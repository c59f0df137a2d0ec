# The search's reductions on interchangeable threads (symmetry with
# observed-only pruning once lost states): ATOM2x2 (two CTAs adding 1
# twice to a counter), BINS4 (four CTAs adding to two bins in opposite
# orders) and 8 and 9 CTAs adding 1 once each.  warplab litmus's
# defaults give the verdict lines below; the reductions turned off, the
# other searches, and the search without symmetry telling states apart
# by every variable (for the larger ones, where the cat evaluator takes
# too long) agree.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
D="$ROOT/tests/cli/reduce"
A2="$ROOT/tests/props/reduce-atom2x2.litmus"

# the default command: the three (four) verdict lines
"$WL" litmus "$A2" "$D/bins4.litmus" "$D/atom8.litmus" "$D/atom9.litmus" \
  > "$T/out" 2>&1 || { cat "$T/out"; fail "litmus: exit status"; }
grep '^Observation' "$T/out" > "$T/obs"
printf '%s\n' "Observation ATOM2x2 Sometimes 1 2" \
  "Observation BINS4 Sometimes 1 15" "Observation ATOM8 Sometimes 1 7" \
  "Observation ATOM9 Sometimes 1 8" | cmp -s - "$T/obs" ||
  { cat "$T/out"; fail "verdicts"; }
grep -q '^States 16$' "$T/out" || fail "BINS4: 16 states"

# The States block (and verdict) of FILE under the options given.
states() {
  f=$1
  shift
  "$WL" litmus "$@" "$f" 2>&1 | sed -n '/^States/,/^Witnesses/p'
}
for f in "$A2" "$D/bins4.litmus" "$D/atom8.litmus"; do
  states "$f" > "$T/ref"
  for o in "--no-symmetry" "--no-prefix" "--no-stutter" "--no-thin-air-filter" \
           "--no-symmetry --no-prefix --no-stutter --no-thin-air-filter" \
           "--search rf" "--search rf --no-symmetry"; do
    # shellcheck disable=SC2086
    states "$f" $o > "$T/v"
    cmp -s "$T/ref" "$T/v" || { diff "$T/ref" "$T/v"; fail "$f: $o differs"; }
  done
done
for f in "$A2" "$D/bins4.litmus"; do
  states "$f" > "$T/ref"
  for o in "--search values" "--search values --no-symmetry"; do
    # shellcheck disable=SC2086
    states "$f" $o > "$T/v"
    cmp -s "$T/ref" "$T/v" || { diff "$T/ref" "$T/v"; fail "$f: $o differs"; }
  done
done

# without symmetry, every variable telling states apart: the verdict,
# and P0's values projected from the full states
full() {
  "$WL" litmus --no-symmetry --full-states "$1" > "$T/full" 2>&1 ||
    { cat "$T/full"; fail "$1: --no-symmetry --full-states"; }
  grep -q '^Ok$' "$T/full" || fail "$1: not Ok without symmetry"
  sed -n "s/^\\(0:r0=[0-9]*;\\( 0:r1=[0-9]*;\\)\\{0,1\\}\\).*/\\1/p" "$T/full" |
    sort -u | tr '\n' ' '
}
[ "$(full "$D/bins4.litmus" | wc -w)" = 32 ] || fail "BINS4: 16 full"
want=""
for v in 0 1 2 3 4 5 6 7; do want="${want}0:r0=$v; "; done
[ "$(full "$D/atom8.litmus")" = "$want" ] || fail "ATOM8: r0 0..7"
[ "$(full "$D/atom9.litmus")" = "${want}0:r0=8; " ] || fail "ATOM9: r0 0..8"
echo "reduce: ok"
