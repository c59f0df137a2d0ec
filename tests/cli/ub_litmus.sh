# warplab litmus: data races and hangs after the states ("Race"/"Hang"
# lines, "race"/"hang" in --json), --check-error's status 4 for CI,
# --no-checks, and the Dat3M hang tests of the corpus.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
D="$SHARED/conformance/dat3m/PTX"
# a weak flag: a race between the two weak accesses of x
"$WL" litmus "$ROOT/scripts/litmus/MP.litmus" > "$T/out" || fail "MP: exit"
grep -q "^Race MP: data race on 'x': .*MP.litmus:6: thread P0 st.weak (writes 1) and .*MP.litmus:7: thread P1 ld.weak (reads 0): not morally strong and not ordered by causality order" "$T/out" || { cat "$T/out"; fail "MP: no race line"; }
grep -q "^Hang" "$T/out" && fail "MP has no loop"
"$WL" litmus --check-error "$ROOT/scripts/litmus/MP.litmus" > /dev/null
[ $? -eq 4 ] || fail "--check-error with a finding: want 4"
"$WL" litmus --check-error --no-checks "$ROOT/scripts/litmus/MP.litmus" \
  > "$T/out" || fail "--no-checks: want 0"
grep -q "^Race" "$T/out" && fail "--no-checks prints no race"
# morally strong accesses only: nothing found, exit 0 with --check-error
printf 'PTX MP+rlx\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (1:r0=1 /\\ 1:r1=0)\n' > "$T/rlx.litmus"
"$WL" litmus --check-error "$T/rlx.litmus" > "$T/out" || fail "clean: want 0"
grep -q "^Race\|^Hang" "$T/out" && fail "clean test has findings"
"$WL" litmus --json "$T/rlx.litmus" > "$T/out" || fail "json clean"
grep -q '"race": false' "$T/out" || fail "json: race false"
grep -q '"hang": false' "$T/out" || fail "json: hang false"
"$WL" litmus --json --no-checks "$T/rlx.litmus" | grep -q '"race": null' ||
  fail "json: race null without the search"
# a spin loop that may read the flag's reset forever (Dat3M: 0)
"$WL" litmus "$D/Manual/XF-Barrier-weak.litmus" > "$T/out" || fail "XF exit"
grep -q "^Hang XF-Barrier-weak: .*XF-Barrier-weak.litmus:14: thread P1 can spin forever in the loop of this line, reading f=1 (the last values written); P0 ends, P2 ends (liveness violation)" "$T/out" || { cat "$T/out"; fail "XF: hang line"; }
"$WL" litmus --json "$D/Manual/XF-Barrier-weak.litmus" > "$T/out"
grep -q '"hang": {"kind": "spin", "thread": 1, "name": "P1", "line": 14, "reads": \[{"location": "f", "value": 1}\]' "$T/out" || { grep hang "$T/out"; fail "XF: json hang"; }
# relaxed accesses: coherence lets the flag's reset be seen: no hang
"$WL" litmus "$D/Manual/XF-Barrier-rlx.litmus" > "$T/out"
grep -q "^Hang" "$T/out" && fail "XF-rlx must not hang"
# a barrier that expects 4 of 3 threads
"$WL" litmus "$D/Barrier/quorum1-hang.litmus" > "$T/out"
grep -q "^Hang test1-hang: .*quorum1-hang.litmus:7: thread P0 can wait forever at barrier 1 (too few threads arrive); P1 waits at the barrier of line 6, P2 waits at the barrier of line 6" "$T/out" || { cat "$T/out"; fail "quorum1-hang"; }
"$WL" litmus --check-error "$D/Barrier/quorum1-pass.litmus" > "$T/out"
[ $? -eq 4 ] || fail "quorum1-pass races on x: want 4"
grep -q "^Hang" "$T/out" && fail "quorum1-pass must not hang"
# the seed's if/else with a barrier in each branch, written in PTX: the
# two threads run the same instructions (a register tells them apart)
cat > "$T/ifelse.litmus" <<'LIT'
PTX ifelse-ptx
{ x=0; P0:r9=0; P1:r9=1; }
 P0@cta 0,gpu 0        | P1@cta 0,gpu 0        ;
 bne r9, 0, LC00       | bne r9, 0, LC10       ;
 st.weak x, 1          | st.weak x, 1          ;
 bar.sync 0            | bar.sync 0            ;
 bra LC01              | bra LC11              ;
 LC00:                 | LC10:                 ;
 bar.sync 0            | bar.sync 0            ;
 ld.weak r0, x         | ld.weak r0, x         ;
 LC01:                 | LC11:                 ;
exists (1:r0 == 0)
LIT
"$WL" litmus "$T/ifelse.litmus" > "$T/out" 2> "$T/err" && fail "ifelse: want an error"
grep -q "ifelse.litmus:6: barrier divergence: threads running the same instructions wait at different barriers: the bar.sync of line 6 is reached by P0; not by P1 at line 9" "$T/err" ||
  { cat "$T/err"; fail "ifelse-ptx"; }
# -q prints no findings; --help documents the options
"$WL" litmus -q "$ROOT/scripts/litmus/MP.litmus" | grep -q "^Race" &&
  fail "-q prints the verdict only"
"$WL" litmus --help | grep -q -- "--check-error" || fail "help"
"$WL" litmus --help | grep -q -- "--no-checks" || fail "help no-checks"
exit 0
