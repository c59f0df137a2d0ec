# --timeout gives up on a file that takes too long, clearly, and goes on.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# seven threads storing to and loading from one location: seconds
cat > "$T/xchg.litmus" <<'LIT'
PTX xchg
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 | P4@cta 4,gpu 0 | P5@cta 5,gpu 0 | P6@cta 6,gpu 0 ;
 st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 | st.relaxed.gpu x, 3 | st.relaxed.gpu x, 4 | st.relaxed.gpu x, 5 | st.relaxed.gpu x, 6 | st.relaxed.gpu x, 7 ;
 ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;
exists (x=0)
LIT
out=$("$WL" litmus -q --unroll 8 --timeout 0.01 "$T/xchg.litmus" "$ROOT/scripts/litmus/SB.litmus" 2> "$T/err")
rc=$?
[ $rc -eq 1 ] || { echo "want exit 1, got $rc"; exit 1; }
[ "$out" = "SB Ok" ] || { echo "got: $out"; exit 1; }
grep -q "xchg.litmus: gave up after --timeout 0.01 s" "$T/err" || { cat "$T/err"; exit 1; }
"$WL" litmus --timeout -3 "$T/xchg.litmus" 2>/dev/null; [ $? -eq 2 ] || exit 1
