# The mutation checks of props's reduce property (Makefile: MUTANTS):
# each props_mutant_NAME is props linked with one engine file built with
# WL_MUTANT_NAME, which breaks one reduction of the search; on the
# generated tests that exercise that reduction the mutant must print at
# least one FAIL and the real props none:
#   images   copies   known() without the images under symmetry (the
#                     bug that answered ATOM2x2 Never)
#   twins    copies   a twin touched by reads-from taken for an
#                     untouched one (rfsearch.c)
#   commute  tickets  inert RMWs commuted whatever their decisions
#                     (rfsearch.c)
# and of its law property (the exact law against step-by-step runs), on
# random programs:
#   lawknob  random   knob/chance draws' two weights swapped (exact.h)
#   lawl1    random   states encoded without their L1 lines (exact.c)
#   lawharn  random   states encoded without the delay harness's waits
#                     (exact.c)
# (in a build with assertions, make check's, a law mutant may instead
# trip one of exact.c's own invariants: that counts as caught)
# and of its sample property on a kept test:
#   linklone tests/props/link-samegpu-busylink.litmus: a gpu-scope fence
#            leaves its thread's stores on the link whether or not the
#            thread is alone on its GPU (engine/mem/machine.h)
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
B=$(dirname "$WL")
MODEL="$SHARED/spec/ptx-v6.0-isa.cat"
for spec in images:copies:400:0.5 twins:copies:400:0.5 commute:tickets:400:1; do
  name=${spec%%:*}
  rest=${spec#*:}
  kind=${rest%%:*}
  rest=${rest#*:}
  count=${rest%%:*}
  limit=${rest#*:}
  bin="$B/tests/props_mutant_$name"
  [ -x "$bin" ] || fail "no $bin (make test builds it)"
  "$bin" --only reduce --kind "$kind" --count "$count" --timeout "$limit" \
    --model "$MODEL" > "$T/mutant" 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || { tail -n 5 "$T/mutant"; fail "props_mutant_$name: exit $rc, not 1"; }
  grep -q '^FAIL reduce ' "$T/mutant" ||
    { tail -n 5 "$T/mutant"; fail "props_mutant_$name: no FAIL line (is WL_MUTANT_$name in the engine?)"; }
  "$B/tests/props" --only reduce --kind "$kind" --count "$count" --timeout "$limit" \
    --model "$MODEL" > "$T/real" 2>&1 ||
    { grep -A 12 '^FAIL' "$T/real" | head -n 40; fail "props --kind $kind: exit $?"; }
  ! grep -q '^FAIL' "$T/real" || fail "props --kind $kind: a FAIL line"
  grep -q "^props: $count tests, 0 failures" "$T/real" ||
    { tail -n 3 "$T/real"; fail "props --kind $kind: summary"; }
  echo "mutant $name: $(grep -c '^FAIL reduce ' "$T/mutant") of $count $kind tests fail, none with props"
done
for name in lawknob lawl1 lawharn; do
  bin="$B/tests/props_mutant_$name"
  [ -x "$bin" ] || fail "no $bin (make test builds it)"
  "$bin" --only law --kind random,random3 --count 60 --model "$MODEL" \
    > "$T/mutant" 2>&1
  rc=$?
  if [ "$rc" -eq 134 ] && grep -q '^warplab: assertion failed' "$T/mutant"; then
    # a build with assertions (make check's ASan build): the engine's
    # own invariant caught the mutant before the property could
    echo "mutant $name: caught by an assertion ($(grep -m1 '^warplab: assertion failed' "$T/mutant" | cut -c1-100))"
    continue
  fi
  [ "$rc" -eq 1 ] || { tail -n 5 "$T/mutant"; fail "props_mutant_$name: exit $rc, not 1"; }
  grep -q '^FAIL law ' "$T/mutant" ||
    { tail -n 5 "$T/mutant"; fail "props_mutant_$name: no FAIL line (is WL_MUTANT_$name in the engine?)"; }
  "$B/tests/props" --only law --kind random,random3 --count 60 --model "$MODEL" \
    > "$T/real" 2>&1 ||
    { grep -A 12 '^FAIL' "$T/real" | head -n 40; fail "props --only law: exit $?"; }
  grep -q "^props: 60 tests, 0 failures" "$T/real" ||
    { tail -n 3 "$T/real"; fail "props --only law: summary"; }
  echo "mutant $name: $(grep -c '^FAIL law ' "$T/mutant") of 60 random tests fail, none with props"
done

bin="$B/tests/props_mutant_linklone"
[ -x "$bin" ] || fail "no $bin (make test builds it)"
kept="$ROOT/tests/props/link-samegpu-busylink.litmus"
"$bin" --only sample --runs 2000000 --model "$MODEL" --from "$kept" > "$T/mutant" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -q '^FAIL sample ' "$T/mutant" ||
  { tail -n 5 "$T/mutant"; fail "props_mutant_linklone: exit $rc, no FAIL sample line"; }
"$B/tests/props" --only sample --runs 2000000 --model "$MODEL" --from "$kept" \
  > "$T/real" 2>&1 || { tail -n 5 "$T/real"; fail "props --from $kept: exit $?"; }
echo "mutant linklone: fails on link-samegpu-busylink, props does not"
