# The herd7 text of the bundled MP test, line for line (Time aside).
set -eu
# (the findings line after it, "Race MP: ...", is checked at the end)
out=$("$WL" litmus "$ROOT/scripts/litmus/MP.litmus" | grep -v '^Time' |
      grep -v '^Race ')
want='Test MP Allowed
States 3
1:r0=0; 1:r1=0;
1:r0=0; 1:r1=1;
1:r0=1; 1:r1=1;
No
Witnesses
Positive: 0 Negative: 3
Condition exists (1:r0=1 /\ 1:r1=0)
Observation MP Never 0 3'
[ "$out" = "$want" ] || { echo "got:"; echo "$out"; exit 1; }
"$WL" litmus "$ROOT/scripts/litmus/MP.litmus" | grep -q '^Time MP [0-9]*\.[0-9][0-9]$'
# MP's weak x is a PTX data race: both places are named
"$WL" litmus "$ROOT/scripts/litmus/MP.litmus" |
  grep -q "^Race MP: data race on 'x': .*MP.litmus:6: thread P0 st.weak (writes 1) and .*MP.litmus:7: thread P1 ld.weak (reads 0)"
