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
# SMs: every program reads %smid and takes -S; --sm sets its default;
# tests in one CTA or on two GPUs refuse same/different
grep -q '#define DEF_SM 0' "$T/mp.cu" || fail "sm: default not any"
for want in 'mov.u32 %0, %%smid;' 'opt_val(argc, argv, &i, "--sm", "-S")' \
  'p.blocksm\[blockIdx.x\] = sm_id();' '# sm: %s (counted:'; do
  grep -q "$want" "$T/mp.cu" || fail "sm: no '$want'"
done
"$WL" cuda --sm different "$S/MP+none+diffCTA.litmus" > "$T/mpd.cu" ||
  fail "--sm different: exit $?"
grep -q '#define DEF_SM 2' "$T/mpd.cu" || fail "--sm different: DEF_SM"
"$WL" cuda --sm same "$S/MP+none+diffCTA.litmus" | grep -q '#define DEF_SM 1' ||
  fail "--sm same: DEF_SM"
"$WL" cuda --sm any "$S/MP+fence.sc.cta+diffCTA.litmus" | cmp -s - "$T/mp.cu" ||
  fail "--sm any: not the default text"
"$WL" cuda --sm same "$S/MP+none+sameCTA.litmus" > /dev/null 2> "$T/err"
[ $? -eq 1 ] || fail "--sm same in one CTA: exit status"
grep -q 'sm same needs a test whose threads are in several CTAs' "$T/err" ||
  { cat "$T/err"; fail "--sm same in one CTA: message"; }
"$WL" cuda --sm sometimes "$S/MP+none+diffCTA.litmus" > /dev/null 2> "$T/err"
[ $? -eq 2 ] || fail "--sm sometimes: exit status"
grep -q 'takes any, same or different' "$T/err" || fail "--sm: message"
# the program takes warplab cuda's option names (issue 20, item 27):
# every setting of warplab cuda is a long option of both programs (the
# short forms stay), and each program has --help
for prog in "$T/mp.cu" "$T/sb.cu"; do
  for o in blocks threads launches stress stress-iters spacing seed budget \
    sm rounds; do
    grep -q "opt_val(argc, argv, &i, \"--$o\"" "$prog" ||
      fail "$(basename "$prog"): no --$o"
  done
  for want in 'strcmp(argv\[i\], "--no-shuffle")' 'strcmp(argv\[i\], "--help")' \
    '"--blocks", "-b"' '"--seed", "-r"' '"--launches", "-n"'; do
    grep -q "$want" "$prog" || fail "$(basename "$prog"): no '$want'"
  done
done
"$WL" cuda --help | grep -q -- '--stress-iters N' || fail "help: --stress-iters"
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
# refusals: barriers; usage errors
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
# two GPUs: one launch per GPU, peer access, each location on its home
T2="$ROOT/tests/hw/two_gpu"
"$WL" cuda --rounds 7 "$T2/SB+fence.sc.sys+home1.litmus" > "$T/two.cu" ||
  fail "two GPUs: exit $?"
for want in '#define NGPUS 2' '#define DEF_ROUNDS 7' '#define HS_GPU 1' \
  '#define NGROUPS 2' 'static const int role_gpu\[NROLES\] = {0, 1};' \
  '__constant__ int loc_home\[NLOCS + 1\] = {1, 1, 0};' \
  '__constant__ int reg_gpu\[NREGS + 1\] = {0, 1, 0};' \
  'cudaDeviceEnablePeerAccess(1 - g, 0)' 'cudaDeviceCanAccessPeer' \
  'this machine has %d' 'fence.sc.sys;' 'st.relaxed.sys.global.b32' \
  'cudaMalloc(&p\[0\].gmem\[g\]' 'p.gmem\[loc_home\[l\]\]' \
  'Histogram (%zu states)'; do
  grep -q "$want" "$T/two.cu" || fail "two GPUs: no '$want'"
done
# one test_kernel launch per GPU with roles, each on its own device
[ "$(grep -c 'test_kernel<<<' "$T/two.cu")" -eq 1 ] || fail "two GPUs: launches"
grep -q 'if (has\[g\]) {' "$T/two.cu" || fail "two GPUs: per-GPU launch"
# the default home is P0's GPU; a location on a GPU without threads
# still makes a two-GPU program
"$WL" cuda "$T2/MP+none+home0.litmus" | grep -q '#define HS_GPU 0' ||
  fail "two GPUs: home 0"
cat > "$T/far.litmus" <<'L'
PTX far
{ x=0 @ gpu 1; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;
 st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;
exists (1:r0=1 /\ 1:r1=0)
L
"$WL" cuda "$T/far.litmus" > "$T/far.cu" || fail "far: exit $?"
grep -q '__constant__ int loc_home\[NLOCS + 1\] = {1, 0, 0};' "$T/far.cu" ||
  fail "far: homes"
grep -q 'static const int role_gpu\[NROLES\] = {0, 0};' "$T/far.cu" ||
  fail "far: roles"
# GPUs other than 0 and 1 are refused with the thread's line
sed 's/gpu 1 /gpu 2 /; s/@ gpu 1;/@ gpu 0;/g' "$T2/SB+none+home0.litmus" \
  > "$T/g2.litmus"
"$WL" cuda "$T/g2.litmus" > /dev/null 2> "$T/err"
[ $? -eq 1 ] || fail "gpu 2: exit status"
grep -q 'g2.litmus:4: P1: a two-GPU test runs on GPUs 0 and 1 only' "$T/err" ||
  { cat "$T/err"; fail "gpu 2 message"; }
"$WL" cuda --rounds 0 "$T2/SB+none+home0.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--rounds 0: exit status"
"$WL" cuda --blocks 0 "$S/MP+none+diffCTA.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--blocks 0: exit status"
"$WL" cuda > /dev/null 2>&1
[ $? -eq 2 ] || fail "no file: exit status"
"$WL" cuda "$T/missing.litmus" > /dev/null 2>&1
[ $? -eq 1 ] || fail "missing file: exit status"
# the programs build: with nvcc where it is installed, else with the
# host's C++ compiler against tests/cuda_stub (the C++ around the GPU
# code: tables, literals, option parsing); skipped when neither is there
build() {
  if command -v nvcc > /dev/null 2>&1; then
    nvcc -arch=sm_90 -w -o "$2" "$1"
  else
    sh "$ROOT/tests/cuda_stub/host.sh" "$1" "$2"
  fi
}
built=1
for p in loop two mpd; do
  build "$T/$p.cu" "$T/$p"
  rc=$?
  [ $rc -eq 77 ] && { built=0; break; }
  [ $rc -eq 0 ] || fail "build $p.cu: exit $rc"
done
if [ $built -eq 1 ]; then
  # without a GPU the program still parses its options before it needs
  # one: --sm (and -S) check their value, --help lists warplab cuda's
  # names with the defaults the test was written with
  "$T/mpd" -S sometimes > /dev/null 2>&1
  [ $? -eq 2 ] || fail "-S sometimes: exit status"
  "$T/mpd" --sm=sometimes > /dev/null 2>&1
  [ $? -eq 2 ] || fail "--sm=sometimes: exit status"
  "$T/mpd" --bogus > /dev/null 2>&1
  [ $? -eq 2 ] || fail "--bogus: exit status"
  "$T/mpd" --blocks=0 > /dev/null 2> "$T/err"
  [ $? -eq 2 ] || fail "--blocks=0: exit status"
  grep -q -- "--blocks takes 1..1048576, not '0'" "$T/err" || fail "--blocks=0: message"
  "$T/mpd" --seed > /dev/null 2> "$T/err"
  [ $? -eq 2 ] || fail "--seed without a value: exit status"
  "$T/mpd" --help > "$T/help" || fail "--help: exit $?"
  for want in '--blocks N' '--stress-iters N' '--seed S' '--no-shuffle' \
    '--sm any|same|different' '(-S; different)' '(test MP+none+diffCTA)'; do
    grep -q -F -- "$want" "$T/help" || fail "program --help: no '$want'"
  done
  "$T/two" --help > "$T/help" || fail "two --help: exit $?"
  grep -q -F -- '--rounds N        instances each slot runs per launch (-R; 7)' \
    "$T/help" || fail "two-GPU --help: --rounds"
  "$T/two" --sm same > /dev/null 2>&1
  [ $? -eq 2 ] || fail "two --sm same: exit status"
fi
exit 0
