# The herd7 text of the bundled MP test, line for line (Time aside).
set -eu
out=$("$WL" litmus "$ROOT/scripts/litmus/MP.litmus" | grep -v '^Time')
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
