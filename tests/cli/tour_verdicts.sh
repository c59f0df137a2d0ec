# Every bundled litmus test gives its documented verdict.
set -eu
out=$("$WL" litmus -q "$ROOT"/scripts/litmus/*.litmus)
want='CoRR No
IRIW+threadfence No
LB+data No
LB Ok
MP+syncthreads Ok
MP+threadfence No
MP+threadfence_block Ok
MP+weak Ok
MP No
SB+threadfence No
SB Ok
Spinlock Ok'
[ "$out" = "$want" ] || { echo "got:"; echo "$out"; exit 1; }
