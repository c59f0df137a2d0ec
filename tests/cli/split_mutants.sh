# The mutation checks of the split property (tests/split.c): props_split
# linked with engine/model/split.c built with WL_MUTANT_SPLITDROP (the
# last unit left out) or WL_MUTANT_SPLITWIT (a state found again keeps
# the later unit's witness), and props_split merging the units in the
# order they ran instead of unit order (--merge-order run), and
# props_split's ranks giving a unit the states of units after it
# (--ranks all, where MPI ranks must give their own earlier units'
# only), must each print a FAIL line on generated tests; the real
# props_split none.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
B=$(dirname "$WL")
P="$B/tests/props_split"
[ -x "$P" ] || fail "no $P (make test builds it)"
args="--count 24 --seed 5 --timeout 1 --kind random3,copies,tickets"
# shellcheck disable=SC2086
check() { # NAME BINARY [OPTION]: must fail
  name=$1 bin=$2
  shift 2
  [ -x "$bin" ] || fail "no $bin (make test builds it)"
  "$bin" $args "$@" > "$T/m" 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || { tail -n 5 "$T/m"; fail "$name: exit $rc, not 1"; }
  grep -q '^FAIL split ' "$T/m" || { tail -n 5 "$T/m"; fail "$name: no FAIL line"; }
  echo "mutant $name: $(grep -c '^FAIL split ' "$T/m") failures on 24 tests"
}
check splitdrop "$B/tests/props_split_splitdrop"
check splitwit "$B/tests/props_split_splitwit"
check merge-order-run "$P" --merge-order run
check ranks-all "$P" --ranks all
# shellcheck disable=SC2086
"$P" $args > "$T/real" 2>&1 || { grep -A 8 '^FAIL' "$T/real" | head -n 30; fail "props_split: exit $?"; }
! grep -q '^FAIL' "$T/real" || fail "props_split: a FAIL line"
grep -q '^props_split: 24 tests, 0 failures' "$T/real" || { tail -n 2 "$T/real"; fail "props_split: summary"; }
exit 0
