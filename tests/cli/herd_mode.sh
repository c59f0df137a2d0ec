# warplab litmus --herd: herd7's own text, which msort7 and mcompare7
# read: no Race/Hang/Warning lines on stdout (they go to stderr), a
# Hash= line after Time, herd's Positive/Negative (for ~exists the
# states that fail the proposition are the positive ones), herd's
# Observation NAME Never|Sometimes|Always P N, locations written [x] and
# the condition as herd prints it, and a blank line after each test.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
MP="$ROOT/scripts/litmus/MP.litmus"

"$WL" litmus --herd "$MP" > "$T/out" 2> "$T/err" || fail "exit $?"
sed 's/^Time MP [0-9]*\.[0-9][0-9]$/Time MP T/' "$T/out" > "$T/got"
printf '%s\n' 'Test MP Allowed' 'States 3' '1:r0=0; 1:r1=0;' \
  '1:r0=0; 1:r1=1;' '1:r0=1; 1:r1=1;' 'No' 'Witnesses' \
  'Positive: 0 Negative: 3' 'Condition exists (1:r0=1 /\ 1:r1=0)' \
  'Observation MP Never 0 3' 'Time MP T' \
  'Hash=4ac7fce79bc5c8e0e2e78281baf11845' '' > "$T/want"
cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "MP text"; }
# the race is still found, and said on stderr
grep -q "^Race MP: data race on 'x'" "$T/err" || { cat "$T/err"; fail "race"; }

# the hash: the same for the same test whatever its name, layout and
# comments; another for another test
sed -e 's/^PTX MP/PTX MP_renamed/' -e 's/  */ /g' -e 's/;$/; (* c *)/' \
  "$MP" > "$T/mp2.litmus"
"$WL" litmus --herd "$T/mp2.litmus" 2> /dev/null | grep '^Hash=' > "$T/h2"
grep -q '^Hash=4ac7fce79bc5c8e0e2e78281baf11845$' "$T/h2" ||
  { cat "$T/h2"; fail "layout changed the hash"; }
sed 's/st.weak x, 1/st.weak x, 2/' "$MP" > "$T/mp3.litmus"
"$WL" litmus --herd "$T/mp3.litmus" 2> /dev/null | grep '^Hash=' > "$T/h3"
grep -q '^Hash=[0-9a-f]\{32\}$' "$T/h3" || fail "hash form"
! grep -q '4ac7fce79bc5c8e0e2e78281baf11845' "$T/h3" ||
  fail "another test, the same hash"

# ~exists: herd's Positive counts the states where the proposition fails
cat > "$T/ne.litmus" <<'L'
PTX NE
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;
~exists (P1:r0 == 1)
L
"$WL" litmus --herd "$T/ne.litmus" > "$T/ne" 2> "$T/err" || fail "ne: exit"
grep -q '^No$' "$T/ne" || { cat "$T/ne"; fail "ne verdict"; }
grep -q '^Positive: 1 Negative: 1$' "$T/ne" || { cat "$T/ne"; fail "ne P/N"; }
grep -q '^Condition ~exists (1:r0=1)$' "$T/ne" || { cat "$T/ne"; fail "ne cond"; }
grep -q '^Observation NE Sometimes 1 1$' "$T/ne" || { cat "$T/ne"; fail "ne obs"; }

# locations as herd writes them, [x], in the states and the condition
cat > "$T/loc.litmus" <<'L'
PTX LOC
{ x=0; flag=0; }
 P0@cta 0,gpu 0 ;
 st.weak x, 1 ;
 ld.weak r0, flag ;
exists (x == 1 /\ P0:r0 == 0 \/ flag != 0)
L
"$WL" litmus --herd "$T/loc.litmus" > "$T/loc" 2> "$T/err" || fail "loc: exit"
grep -q '^0:r0=0; \[flag\]=0; \[x\]=1;$' "$T/loc" || { cat "$T/loc"; fail "loc state"; }
grep -q '^Condition exists (\[x\]=1 /\\ 0:r0=0 \\/ \[flag\]!=0)$' "$T/loc" ||
  { cat "$T/loc"; fail "loc condition"; }

# every test of the bundled corpus in the form msort7 reads: per test
# Test, States N and N states, Ok|No (maybe after Loop), Witnesses,
# Positive/Negative, Condition, Observation, Time, Hash, a blank line
"$WL" litmus --herd "$ROOT"/scripts/litmus/*.litmus > "$T/all" 2> /dev/null
awk '
  function bad(m) { print FILENAME ":" NR ": " m ": " $0; err = 1; exit 1 }
  st == 0 { if ($0 !~ /^Test [^ ]+ (Allowed|Forbidden|Required)$/) bad("Test")
            name = $2; st = 1; n++; next }
  st == 1 { if ($0 !~ /^States [0-9]+$/) bad("States"); k = $2; st = 2; next }
  st == 2 && k > 0 { if ($0 !~ /;$/) bad("state"); k--; next }
  st == 2 { if ($0 !~ /^(Loop )?(Ok|No)$/) bad("Ok|No"); st = 3; next }
  st == 3 { if ($0 != "Witnesses") bad("Witnesses"); st = 4; next }
  st == 4 { if ($0 !~ /^Positive: [0-9]+ Negative: [0-9]+$/) bad("P/N"); st = 5; next }
  st == 5 { if ($0 !~ /^Condition (exists|~exists|forall) /) bad("Condition")
            if ($0 ~ /==|P[0-9]+:/) bad("herd condition"); st = 6; next }
  st == 6 { if (NF != 5 || $1 != "Observation" || $2 != name ||
                $3 !~ /^(Never|Sometimes|Always)$/ || $4 !~ /^[0-9]+$/ ||
                $5 !~ /^[0-9]+$/) bad("Observation"); st = 7; next }
  st == 7 { if (NF != 3 || $1 != "Time" || $2 != name ||
                $3 !~ /^[0-9]+\.[0-9][0-9]$/) bad("Time"); st = 8; next }
  st == 8 { if ($0 !~ /^Hash=[0-9a-f]+$/) bad("Hash"); st = 9; next }
  st == 9 { if ($0 != "") bad("blank"); st = 0; next }
  END { if (!err && (st != 0 || n < 5)) { print "ended in state " st " after " n " tests"; exit 1 } }
' "$T/all" || fail "not herd's form"
! grep -q -E '^(Race|Hang|Warning|Partial)' "$T/all" || fail "extra lines"

# --herd and --json together: a usage error
"$WL" litmus --herd --json "$MP" > /dev/null 2> "$T/err"
[ $? -eq 2 ] || fail "--herd --json: want exit 2"
grep -q "warplab litmus: --herd and --json" "$T/err" || { cat "$T/err"; fail "msg"; }
# -q is its own format: with --json it printed '[MP No' (invalid JSON)
for o in --json --herd; do
  "$WL" litmus -q $o "$MP" > "$T/out" 2> "$T/err"
  [ $? -eq 2 ] || fail "-q $o: want exit 2"
  [ ! -s "$T/out" ] || fail "-q $o: printed something"
  grep -q "warplab litmus: -q and $o" "$T/err" || { cat "$T/err"; fail "-q $o msg"; }
done
exit 0
