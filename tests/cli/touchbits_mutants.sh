# The mutation checks of the touched-bytes property (tests/unit/
# test_touchbits.c): the test linked with engine/sim/touchbits.c built
# with WL_MUTANT_TBCHUNK (a chunk never made skips the next one too: a
# byte a part wrote after a gap of one chunk is not seen, so its write
# is not joined and a conflict there is missed) or WL_MUTANT_TBWORD (an
# empty 64-byte word skips a byte too many) must fail; the real test
# (a unit test of make test) passes.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
B=$(dirname "$WL")
for m in tbchunk tbword; do
  bin="$B/tests/touchbits_$m"
  [ -x "$bin" ] || fail "no $bin (make test builds it)"
  "$bin" > "$T/m" 2>&1 && { tail -n 5 "$T/m"; fail "mutant $m: the property passed"; }
  grep -q '^\[  FAILED  \] test_generated' "$T/m" ||
    { tail -n 5 "$T/m"; fail "mutant $m: the generated cases did not fail"; }
  echo "mutant $m: $(grep -m1 -E '^\[ +(ERROR|LINE) +\]' "$T/m")"
done
