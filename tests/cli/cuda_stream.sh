# warplab cuda --stream K (issue 22 item 4): an MP test across two GPUs
# as a streaming program.  Checked here: the program carries the test's
# own instructions for the writer's stores and fence and the reader's
# poll, fence and load, the two outcomes a read stands for, the homes;
# tests that are no two-GPU MP shape and one-GPU harness settings for a
# two-GPU test are refused with a message; the program (built with nvcc
# or the host stand-in, no GPU needed) takes --stream and refuses the
# options of other harnesses by name.  And the h100 profile's link
# model on the litmus forms (tests/hw/two_gpu): the stream's
# __threadfence() failure shows, __threadfence_system() stays at 0, MP
# with the reader remote shows, and the model's gpu-fence event never
# shows an outcome the model forbids when the writer shares its GPU.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
T2="$ROOT/tests/hw/two_gpu"
"$WL" cuda --stream 77 --blocks 8 --threads 32 "$T2/MP+fence.sc.gpu+home1.litmus" \
  -o "$T/s.cu" || fail "--stream: exit $?"
for want in '#define DEF_STREAM 77' '#define DEF_BLOCKS 8' \
  '#define W_GPU 0' '#define R_GPU 1' '#define DATA_HOME 1' '#define FLAG_HOME 1' \
  'asm volatile("st.relaxed.sys.global.b32 [%0], %1;"' \
  'asm volatile("fence.sc.gpu;" ::: "memory");' \
  'asm volatile("ld.relaxed.sys.global.b32 %0, [%1];"' \
  'static const int state_vals[2][NVALS] = {{1, 1, 1, 1}, {1, 0, 1, 1}};' \
  'static const int state_cond[2] = {0, 1};' 'weak += dv < fv;'; do
  grep -q -F -- "$want" "$T/s.cu" || fail "--stream: no '$want'"
done
# no fence: the fence functions are empty
"$WL" cuda --stream 5 "$T2/MP+none+home0.litmus" -o "$T/n.cu" || fail "none: $?"
grep -q 'asm volatile("fence' "$T/n.cu" && fail "none: a fence"
grep -q '#define DATA_HOME 0' "$T/n.cu" || fail "none: home"
# refusals
"$WL" cuda --stream 5 "$ROOT/tests/hw/shapes/MP+none+diffCTA.litmus" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q -- '--stream needs a test whose threads are on two GPUs' "$T/err" ||
  fail "one GPU: not refused"
"$WL" cuda --stream 5 "$T2/SB+none+home0.litmus" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q -- '--stream runs an MP shape only' "$T/err" ||
  fail "SB: not refused"
"$WL" cuda --stream 0 "$T2/MP+none+home0.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--stream 0: exit status"
for opt in "--harness sync" "--sync 0" "--delay 5" "--tune"; do
  # shellcheck disable=SC2086
  "$WL" cuda $opt "$T2/MP+none+home0.litmus" > /dev/null 2> "$T/err"
  [ $? -eq 1 ] && grep -q "is a setting of the one-GPU harness" "$T/err" ||
    fail "two GPUs: $opt not refused"
done
sed 's/st.relaxed.sys y, 1/st.relaxed.sys y, r9/' "$T2/MP+none+home0.litmus" > "$T/reg.litmus"
"$WL" cuda --stream 5 "$T/reg.litmus" > /dev/null 2>&1
[ $? -eq 1 ] || fail "a register stored: not refused"
# the program
sh "$ROOT/tests/cuda_stub/host.sh" "$T/s.cu" "$T/s"
rc=$?
if [ $rc -ne 77 ]; then
  [ $rc -eq 0 ] || fail "the stream program does not build"
  "$T/s" --help > "$T/help" || fail "program --help: $?"
  grep -q -F -- '--stream K        rounds each writer/reader pair runs (77)' "$T/help" ||
    fail "program --help: --stream"
  "$T/s" --rounds 3 > /dev/null 2> "$T/err"
  [ $? -eq 2 ] && grep -q "'--rounds' is no option of the streaming program" "$T/err" ||
    fail "program: --rounds not refused"
  "$T/s" --stream 0 > /dev/null 2>&1
  [ $? -eq 2 ] || fail "program: --stream 0 not refused"
  "$WL" cuda "$T2/MP+none+home0.litmus" -o "$T/o.cu" || fail "two: $?"
  sh "$ROOT/tests/cuda_stub/host.sh" "$T/o.cu" "$T/o" || fail "two: build"
  "$T/o" --harness sync > /dev/null 2> "$T/err"
  [ $? -eq 2 ] && grep -q -- "--harness is an option of one-GPU programs" "$T/err" ||
    fail "two-GPU program: --harness not refused by name"
  "$T/o" --stream 5 > /dev/null 2> "$T/err"
  [ $? -eq 2 ] && grep -q -- "warplab cuda --stream K" "$T/err" ||
    fail "two-GPU program: --stream not explained"
fi
# the link model (fixed seed; the rates are checked within 3x by
# bench/link_rates.sh and tests/stages.sh)
seen() {
  "$WL" sample --profile h100 -n "$1" --seed 12345 "$2" |
    sed -n 's/^Positive: \([0-9]*\),.*/\1/p'
}
n=$(seen 1000000 "$T2/MPstream+fence.sc.gpu+home1.litmus")
[ "${n:-0}" -gt 0 ] || fail "h100: MPstream fence.sc.gpu home 1 never shown"
n=$(seen 300000 "$T2/MPstream+fence.sc.sys+home1.litmus")
[ "${n:-1}" -eq 0 ] || fail "h100: MPstream fence.sc.sys home 1 shown $n times"
n=$(seen 300000 "$T2/MP+fence.sc.gpu+home1.litmus")
[ "${n:-1}" -eq 0 ] || fail "h100: MP fence.sc.gpu home 1 (one round) shown $n times"
n=$(seen 100000 "$T2/MP+none+home0.litmus")
[ "${n:-0}" -gt 300 ] || fail "h100: MP none home 0: $n of 100000"
# the writer shares its GPU with the reader: fence.sc.gpu orders for it,
# so its stores must not be passed on the link (the model forbids it)
cat > "$T/same.litmus" <<'L'
PTX MP-samegpu-busylink
{ x=0 @ gpu 1; y=0 @ gpu 1; z=0 @ gpu 1; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 st.relaxed.sys x, 1  | LC10:                ;
 fence.sc.gpu         | ld.relaxed.sys r0, y ;
 st.relaxed.sys y, 1  | beq r0, 0, LC10      ;
 st.relaxed.sys z, 1  | fence.sc.gpu         ;
 fence.sc.gpu         | ld.relaxed.sys r1, x ;
 st.relaxed.sys z, 2  |                      ;
exists (1:r0=1 /\ 1:r1=0)
L
"$WL" sample --profile h100 -n 1000000 --seed 7 "$T/same.litmus" > "$T/same.hist" ||
  fail "same GPU: sample $?"
"$WL" compare "$T/same.hist" "$T/same.litmus" > "$T/same.cmp"
[ $? -eq 0 ] || { cat "$T/same.cmp"; fail "same GPU: a forbidden outcome"; }
exit 0
