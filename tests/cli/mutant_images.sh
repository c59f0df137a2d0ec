# The mutation check of props's reduce property: props_mutant is props
# linked with an engine whose known() checks only the state itself, not
# its images under the permutations of interchangeable threads
# (results.c under WL_MUTANT_IMAGES: the bug symmetry with observed-only
# pruning once had, which answered ATOM2x2 Never).  On the same 400
# tests of interchangeable threads the mutant must print at least one
# FAIL and the real props none.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
B=$(dirname "$WL")
MODEL="$SHARED/spec/ptx-v6.0-isa.cat"
[ -x "$B/tests/props_mutant" ] || fail "no $B/tests/props_mutant (make test builds it)"
"$B/tests/props_mutant" --only reduce --kind copies --count 400 --timeout 2 \
  --model "$MODEL" > "$T/mutant" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { tail -n 5 "$T/mutant"; fail "props_mutant: exit $rc, not 1"; }
grep -q '^FAIL reduce ' "$T/mutant" ||
  { tail -n 5 "$T/mutant"; fail "props_mutant: no FAIL line (is WL_MUTANT_IMAGES in engine/model/results.c?)"; }
"$B/tests/props" --only reduce --kind copies --count 400 --timeout 2 \
  --model "$MODEL" > "$T/real" 2>&1 ||
  { grep -A 12 '^FAIL' "$T/real" | head -n 40; fail "props: exit $?"; }
! grep -q '^FAIL' "$T/real" || fail "props: a FAIL line"
grep -q '^props: 400 tests, 0 failures' "$T/real" ||
  { tail -n 3 "$T/real"; fail "props: summary"; }
echo "mutant_images: $(grep -c '^FAIL reduce ' "$T/mutant") failures of the mutant, none of props"
