# compare's coverage (issue 22, item 2): the allowed outcomes split into
# those sequential consistency gives (SC) and the others (weak), each
# with observed / allowed; the never-observed weak ones are marked
# "weak"; --summary DIR matches a folder of histograms to .litmus files
# by test name and prints one Coverage line per test and one Summary
# line.  Synthetic histograms of MP+none+diffCTA (SC: 00 01 11; weak: 10)
# and SB (SC: 01 10 11; weak: 00): one missing SC states, one with all,
# one with a forbidden outcome.
set -u
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "$*"; exit 1; }
MP="$ROOT/tests/hw/shapes/MP+none+diffCTA.litmus"
MPF="$ROOT/tests/hw/shapes/MP+fence.sc.gpu+diffCTA.litmus"
[ -f "$MPF" ] || MPF="$ROOT/tests/hw/shapes/MP+fence.sc.cta+diffCTA.litmus"
hist() { # hist FILE TEST LINE...
  f=$1; t=$2; shift 2
  { echo "# a note"; echo "Test $t Allowed"; echo "Histogram ($# states)"
    for l in "$@"; do echo "$l"; done; } > "$f"
}
# missing SC states (01 never seen) and the weak one
hist "$D/some.txt" "MP+none+diffCTA" "10 :>1:r0=0; 1:r1=0;" "5 :>1:r0=1; 1:r1=1;"
"$WL" compare "$D/some.txt" "$MP" > "$D/out" 2> "$D/err" || { cat "$D/err"; fail "some: exit $?"; }
grep -q '^Coverage MP+none+diffCTA: SC states 2 of 3 observed (66.7%), weak states 0 of 1 (0.0%)$' "$D/out" ||
  { cat "$D/out"; fail "some: coverage line"; }
grep -q '^ *1 *1:r0=1; 1:r1=0; weak$' "$D/out" || { cat "$D/out"; fail "some: the unseen weak state is not marked"; }
grep -q '^ *1 *1:r0=0; 1:r1=1;$' "$D/out" || { cat "$D/out"; fail "some: the unseen SC state"; }
grep -q '^Verdict MP+none+diffCTA Ok:' "$D/out" || fail "some: verdict"
# all SC states and the weak one
hist "$D/all.txt" "MP+none+diffCTA" "10 :>1:r0=0; 1:r1=0;" "3 :>1:r0=0; 1:r1=1;" \
  "5 :>1:r0=1; 1:r1=1;" "1 *>1:r0=1; 1:r1=0;"
"$WL" compare "$D/all.txt" "$MP" > "$D/out" 2>&1 || fail "all: exit $?"
grep -q '^Coverage MP+none+diffCTA: SC states 3 of 3 observed (100.0%), weak states 1 of 1 (100.0%)$' "$D/out" ||
  { cat "$D/out"; fail "all: coverage line"; }
# a forbidden outcome: not counted as covered, exit 4
hist "$D/forb.txt" "$(sed -n 's/^PTX //p' "$MPF")" "10 :>1:r0=0; 1:r1=0;" "1 *>1:r0=1; 1:r1=0;"
"$WL" compare "$D/forb.txt" "$MPF" > "$D/out" 2> "$D/err"
[ $? -eq 4 ] || { cat "$D/out" "$D/err"; fail "forbidden: exit not 4"; }
grep -q '^Coverage .*: SC states 1 of 3 observed (33.3%), weak states 0 of 0 (100.0%)$' "$D/out" ||
  { cat "$D/out"; fail "forbidden: coverage line"; }
# --summary: a folder of the three (the histograms found by test name,
# whatever the files are called), .litmus files and a folder of them
mkdir -p "$D/h" "$D/t"
cp "$D/some.txt" "$D/h/a"
cp "$D/forb.txt" "$D/h/b.hist"
cp "$MP" "$MPF" "$D/t/"
cp "$ROOT/tests/hw/shapes/SB+none+diffCTA.litmus" "$D/t/" 2>/dev/null ||
  cp "$(ls "$ROOT"/tests/hw/shapes/SB*.litmus | head -n 1)" "$D/t/"
"$WL" compare --summary "$D/h" "$D/t" > "$D/out" 2> "$D/err"
[ $? -eq 4 ] || { cat "$D/out" "$D/err"; fail "summary: exit not 4"; }
grep -q 'model forbids' "$D/err" || fail "summary: no forbidden message"
grep -q '^Coverage SB[^:]*: no histogram in' "$D/out" || { cat "$D/out"; fail "summary: the test without one"; }
grep -q "^Summary $D/h: 2 tests, SC coverage 3 of 6 (50.0%), weak coverage 0 of 1 (0.0%), forbidden observations 1 (in 1 tests); every SC state seen in 0 of 2 tests; 1 without a histogram\$" "$D/out" ||
  { cat "$D/out"; fail "summary line"; }
cp "$D/all.txt" "$D/h/a"
rm "$D/h/b.hist"
"$WL" compare --summary "$D/h" "$MP" > "$D/out" 2> "$D/err" || { cat "$D/err"; fail "summary all: exit $?"; }
grep -q "^Summary $D/h: 1 tests, SC coverage 3 of 3 (100.0%), weak coverage 1 of 1 (100.0%), forbidden observations 0 (in 0 tests); every SC state seen in 1 of 1 tests\$" "$D/out" ||
  { cat "$D/out"; fail "summary all line"; }
# usage errors
"$WL" compare --summary "$D/h" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--summary without files: not 2"
"$WL" compare --summary "$D/nope" "$MP" > /dev/null 2> "$D/err"
[ $? -eq 1 ] && grep -q "not a readable folder" "$D/err" || fail "--summary of a missing folder"
exit 0
