# warplab cuda: the program's text for a test (its instructions as inline
# PTX, the harness, the tables), refusals with file:line:col, -o; when
# nvcc is installed, the program builds for sm_90.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
S="$ROOT/tests/hw/shapes"
"$WL" cuda "$S/MP+fence.sc.cta+diffCTA.litmus" -o "$T/mp.cu" ||
  fail "cuda MP: exit $?"
for want in 'st.relaxed.sys.global.b32' 'ld.relaxed.sys.global.b32' \
  'fence.sc.cta;' '#define NROLES 2' '#define NGROUPS 2' \
  'static const char \*const test_name = "MP+fence.sc.cta+diffCTA";' \
  '__global__ void test_kernel' 'Histogram (%zu states)'; do
  grep -q "$want" "$T/mp.cu" || fail "MP: no '$want'"
done
# stdout without -o is the same text; settings become the defaults
"$WL" cuda "$S/MP+fence.sc.cta+diffCTA.litmus" > "$T/mp2.cu" || fail "stdout"
cmp -s "$T/mp.cu" "$T/mp2.cu" || fail "-o and stdout differ"
"$WL" cuda --blocks 64 --threads 128 --launches 7 --stress 8 --spacing 4 \
  --seed 9 --budget 50 --no-shuffle "$S/SB+none+sameCTA.litmus" \
  > "$T/sb.cu" || fail "settings: exit $?"
for want in '#define DEF_BLOCKS 64' '#define DEF_THREADS 128' \
  '#define DEF_LAUNCHES 7' '#define DEF_STRESS 8' '#define DEF_SPACING 4' \
  '#define DEF_SEED 9ULL' '#define DEF_BUDGET 50' '#define DEF_SHUFFLE 0' \
  '#define NGROUPS 1'; do
  grep -q "$want" "$T/sb.cu" || fail "settings: no '$want'"
done
# loops: labels and bra inside the asm, a budget on backward branches
cat > "$T/loop.litmus" <<'L'
PTX spin
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0           ;
 st.relaxed.gpu x, 1 | LC0:                     ;
 st.release.gpu y, 1 | ld.acquire.gpu r0, y     ;
                     | beq r0, 0, LC0           ;
                     | atom.relaxed.gpu.add r1, x, 2 ;
                     | red.acq_rel.gpu.add x, 1 ;
exists (1:r1=1)
L
"$WL" cuda "$T/loop.litmus" > "$T/loop.cu" || fail "loop: exit $?"
for want in 'wl_rL0:' '@wl_rp bra wl_rL0;' 'sub.s32 wl_rbud' \
  'atom.relaxed.gpu.global.add.u32 wl_r1' 'atom.acq_rel.gpu.global.add.u32' \
  'st.release.gpu.global.b32' 'ld.acquire.gpu.global.b32'; do
  grep -q "$want" "$T/loop.cu" || fail "loop: no '$want'"
done
# refusals: barriers, several GPUs; usage errors
cat > "$T/bar.litmus" <<'L'
PTX bar
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | bar.cta.sync 0 ;
 bar.cta.sync 0 | ld.weak r0, x  ;
exists (1:r0=0)
L
"$WL" cuda "$T/bar.litmus" > /dev/null 2> "$T/err"
[ $? -eq 1 ] || fail "barrier: exit status"
grep -q 'bar.litmus:5:2: P0: barriers' "$T/err" || { cat "$T/err"; fail "barrier message"; }
"$WL" cuda --blocks 0 "$S/MP+none+diffCTA.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--blocks 0: exit status"
"$WL" cuda > /dev/null 2>&1
[ $? -eq 2 ] || fail "no file: exit status"
"$WL" cuda "$T/missing.litmus" > /dev/null 2>&1
[ $? -eq 1 ] || fail "missing file: exit status"
if command -v nvcc > /dev/null 2>&1; then
  nvcc -arch=sm_90 -w -o "$T/loop" "$T/loop.cu" || fail "nvcc loop.cu"
fi
exit 0
