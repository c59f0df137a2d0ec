# warplab litmus --jobs N FILE: one exploration split into units on N
# workers (bindings/lexplore.c), merged in unit order.  The output is
# byte-identical (but the Time line and JSON's "time") to the plain
# exploration's for N = 1, 2, 4: on the 8-block last-block-done
# reduction (bench/idioms.sh's lastblock: its states, verdict, counts),
# on the 5-block one with every variable (--full-states) and as JSON
# (every state, its witness, race and hang), counting executions, and on
# conformance files as JSON.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }

lastblock() { # n blocks (bench/lastblock.awk, as bench/idioms.sh's)
  awk -v n="$1" -f "$ROOT/bench/lastblock.awk" > "$T/lastblock_$1.litmus"
}

# same NAME OPTIONS... FILE...: the plain output (stdout, stderr, exit
# status) and --jobs 1, 2, 4's
same() {
  name=$1
  shift
  "$WL" litmus "$@" > "$T/plain" 2> "$T/perr"
  prc=$?
  sed -e '/^Time /d' -e 's/"time": [0-9.]*//' "$T/plain" > "$T/p"
  for j in 1 2 4; do
    "$WL" litmus --jobs $j "$@" > "$T/out" 2> "$T/err"
    rc=$?
    [ $rc -eq $prc ] || { cat "$T/err"; fail "$name: --jobs $j: exit $rc, plain $prc"; }
    sed -e '/^Time /d' -e 's/"time": [0-9.]*//' "$T/out" > "$T/o"
    cmp -s "$T/p" "$T/o" || { diff "$T/p" "$T/o" | head -20; fail "$name: --jobs $j differs"; }
    cmp -s "$T/perr" "$T/err" || { diff "$T/perr" "$T/err" | head -20; fail "$name: --jobs $j: stderr differs"; }
  done
}

lastblock 8
lastblock 5
same "lastblock 8" "$T/lastblock_8.litmus"
grep -q '^States 1$' "$T/p" && grep -q '^No$' "$T/p" ||
  { cat "$T/p"; fail "lastblock 8: want one state, No"; }
same "lastblock 5 --full-states" --full-states "$T/lastblock_5.litmus"
same "lastblock 5 --json" --json "$T/lastblock_5.litmus"
grep -q '"witness"' "$T/p" || fail "lastblock 5 --json: no witness"
same "lastblock 5 --count-executions" --count-executions "$T/lastblock_5.litmus"
# loops (the value search): three identical blocks around an exch spin
# lock (symmetry), without stutters at an unroll bound that cuts (the
# loop flag), and with every variable
cat > "$T/lock3.litmus" <<'LITMUS'
PTX LOCK3
{ m=0; x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;
 LC00: | LC00: | LC00: ;
 atom.acquire.gpu.exch r0, m, 1 | atom.acquire.gpu.exch r0, m, 1 | atom.acquire.gpu.exch r0, m, 1 ;
 bne r0, 0, LC00 | bne r0, 0, LC00 | bne r0, 0, LC00 ;
 ld.relaxed.gpu r1, x | ld.relaxed.gpu r1, x | ld.relaxed.gpu r1, x ;
 add r1, r1, 1 | add r1, r1, 1 | add r1, r1, 1 ;
 st.relaxed.gpu x, r1 | st.relaxed.gpu x, r1 | st.relaxed.gpu x, r1 ;
 st.release.gpu m, 0 | st.release.gpu m, 0 | st.release.gpu m, 0 ;
exists (x != 3)
LITMUS
same "lock3 --no-stutter --unroll 1" --no-stutter --unroll 1 "$T/lock3.litmus"
grep -q '^Loop ' "$T/p" || { cat "$T/p"; fail "lock3 --no-stutter --unroll 1: want the loop flag"; }
same "lock3 --full-states" --full-states "$T/lock3.litmus"
C="$SHARED/conformance/dat3m/PTX"
if [ -d "$C" ]; then
  set -- $(ls "$C"/Nvidia/*.litmus | head -n 16)
  same "conformance --json" --json "$@"
fi
# a bad value names the option
"$WL" litmus --jobs 0 "$T/lastblock_5.litmus" > /dev/null 2> "$T/err"
[ $? -eq 2 ] || fail "--jobs 0: want exit 2"
grep -q -- "--jobs" "$T/err" || { cat "$T/err"; fail "--jobs 0: no message"; }
exit 0
