# --timeout gives up on a file that takes too long, clearly, and goes on.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# two threads exchanging one location in loops: minutes at --unroll 8
cat > "$T/xchg.litmus" <<'LIT'
PTX xchg
{ m=0; }
 P0@cta 0,gpu 0                 | P1@cta 0,gpu 0                 ;
 LC00:                          | LC10:                          ;
 atom.relaxed.gpu.exch r0, m, 1 | atom.relaxed.gpu.exch r2, m, 1 ;
 bne r0, 1, LC01                | bne r2, 1, LC11                ;
 goto LC02                      | goto LC10                      ;
 LC01:                          | LC11:                          ;
 atom.relaxed.gpu.exch r1, m, 0 |                                ;
 bne r1, 1, LC02                |                                ;
 goto LC01                      |                                ;
 LC02:                          |                                ;
exists (m=0)
LIT
out=$("$WL" litmus -q --unroll 8 --timeout 0.01 "$T/xchg.litmus" "$ROOT/scripts/litmus/SB.litmus" 2> "$T/err")
rc=$?
[ $rc -eq 1 ] || { echo "want exit 1, got $rc"; exit 1; }
[ "$out" = "SB Ok" ] || { echo "got: $out"; exit 1; }
grep -q "xchg.litmus: gave up after --timeout 0.01 s" "$T/err" || { cat "$T/err"; exit 1; }
"$WL" litmus --timeout -3 "$T/xchg.litmus" 2>/dev/null; [ $? -eq 2 ] || exit 1
