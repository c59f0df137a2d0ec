# --max-memory stops a large exploration with a partial result, marked
# in the herd text and on stderr; --count-executions counts executions.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/sl7.litmus" <<'LIT'
PTX SL7
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 | P4@cta 4,gpu 0 | P5@cta 5,gpu 0 | P6@cta 6,gpu 0 ;
 st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 | st.relaxed.gpu x, 3 | st.relaxed.gpu x, 4 | st.relaxed.gpu x, 5 | st.relaxed.gpu x, 6 | st.relaxed.gpu x, 7 ;
 ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;
exists (0:r0 == 1)
LIT
# told apart by the observed register only, SL7's seven states fit
"$WL" litmus --max-memory 4 "$T/sl7.litmus" > "$T/out" 2> "$T/err" ||
  { cat "$T/out" "$T/err"; exit 1; }
grep -q '^States 7$' "$T/out" && grep -q '^Positive: 1 Negative: 6$' "$T/out" ||
  { cat "$T/out"; exit 1; }
# every full state (458,752 of them) does not
"$WL" litmus --full-states --max-memory 4 "$T/sl7.litmus" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 1 ] || { echo "want exit 1, got $rc"; exit 1; }
grep -q '^Warning SL7: partial result (SL7: exploration stopped at the memory limit (4 MB' "$T/out" || { cat "$T/out"; exit 1; }
grep -q '^States [1-9]' "$T/out" || { cat "$T/out"; exit 1; }
grep -q 'sl7.litmus: SL7: exploration stopped at the memory limit (4 MB; --max-memory / max_memory) with [0-9]* states found; the result above is partial' "$T/err" || { cat "$T/err"; exit 1; }
"$WL" litmus --json --max-memory 4 "$T/sl7.litmus" 2>/dev/null | grep -q '"partial": true' || exit 1
"$WL" litmus --max-memory 0 "$T/sl7.litmus" 2>/dev/null; [ $? -eq 2 ] || exit 1
"$WL" litmus --max-memory 12Q "$T/sl7.litmus" 2>/dev/null; [ $? -eq 2 ] || exit 1
# SB with fence.sc: three states; counting executions finds four
out=$("$WL" litmus "$ROOT/scripts/litmus/SB.litmus" | grep '^Observation')
all=$("$WL" litmus --count-executions "$ROOT/scripts/litmus/SB.litmus" | grep '^Observation')
[ -n "$out" ] && [ -n "$all" ] || exit 1
