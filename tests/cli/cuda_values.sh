# warplab cuda refuses values wider than the harness's 32-bit words
# (issue 20, item 3) with file:line:col, wherever the test writes them:
# initial values of locations and registers, operands of st, atom (add,
# cas), red, mov, arithmetic and branches, constants of the condition;
# -2^31 and 2^31-1 themselves are written as they are.  Values the test
# computes are checked in the program: register arithmetic in 64 bits
# as the model does it, atom/red add and sub whose sum may leave 32 bits
# (the old value plus the operand), an instance that leaves 32 bits
# being counted on a "Wide" line instead of in the histogram.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
n=0
# case INIT P0-CELL P1-CELL CONDITION WANT: WANT is the expected message
case_() {
  n=$((n + 1))
  printf 'PTX v%d\n{ %s }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n %s | %s ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (%s)\n' \
    "$n" "$1" "$2" "$3" "$4" > "$T/v$n.litmus"
  "$WL" cuda "$T/v$n.litmus" > "$T/v$n.cu" 2> "$T/err"
  rc=$?
  [ $rc -eq 1 ] || fail "case $n ($5): exit $rc, not 1"
  grep -q -F "v$n.litmus:$5 does not fit the harness's 32-bit words" "$T/err" ||
    { cat "$T/err"; fail "case $n: message, want '$5'"; }
}
case_ 'x=4294967297; y=0;' 'st.relaxed.gpu x, 1' 'ld.relaxed.gpu r0, y' '1:r0=1' \
  '2:5: location x: initial value 4294967297'
case_ 'x=0; y=0; P1:r0=2147483648;' 'st.relaxed.gpu x, 1' 'ld.relaxed.gpu r0, y' '1:r0=1' \
  '2:16: P1:r0: initial value 2147483648'
case_ 'x=0; y=0;' 'st.relaxed.gpu x, 0x100000000' 'ld.relaxed.gpu r0, y' '1:r0=1' \
  '4:2: P0: the value 4294967296'
case_ 'x=0; y=0;' 'atom.relaxed.gpu.add r3, x, -2147483649' 'ld.relaxed.gpu r0, y' '1:r0=1' \
  '4:2: P0: the value -2147483649'
case_ 'x=0; y=0;' 'atom.relaxed.gpu.cas r3, x, 0, 2147483648' 'ld.relaxed.gpu r0, y' '1:r0=1' \
  '4:2: P0: the value 2147483648'
case_ 'x=0; y=0;' 'red.relaxed.gpu.add x, 4294967295' 'ld.relaxed.gpu r0, y' '1:r0=1' \
  '4:2: P0: the value 4294967295'
case_ 'x=0; y=0;' 'mov r3, 9223372036854775807' 'ld.relaxed.gpu r0, y' '1:r0=1' \
  '4:2: P0: the value 9223372036854775807'
case_ 'x=0; y=0;' 'add r3, r3, 4294967296' 'ld.relaxed.gpu r0, y' '1:r0=1' \
  '4:2: P0: the value 4294967296'
case_ 'x=0; y=0;' 'st.relaxed.gpu x, 1' 'ld.relaxed.gpu r0, y' '1:r0=4294967297' \
  '6:14: the condition'"'"'s constant 4294967297'
case_ 'x=0; y=0;' 'st.relaxed.gpu x, 1' 'ld.relaxed.gpu r0, y' '1:r0=1 /\ x=-4294967297' \
  '6:21: the condition'"'"'s constant -4294967297'
# a branch's operand
cat > "$T/br.litmus" <<'L'
PTX br
{ x=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0          ;
 st.relaxed.gpu x, 1 | LC0:                    ;
                     | ld.relaxed.gpu r0, x    ;
                     | bne r0, 4294967296, LC0 ;
exists (1:r0=1)
L
"$WL" cuda "$T/br.litmus" > /dev/null 2> "$T/err"
[ $? -eq 1 ] || fail "branch: exit status"
grep -q 'br.litmus:6:24: P1: the value 4294967296 does not fit' "$T/err" ||
  { cat "$T/err"; fail "branch: message"; }
# the limits themselves are kept as they are
printf 'PTX edge\n{ x=-2147483648; y=2147483647; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, -2147483648 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 2147483647 | ld.relaxed.gpu r1, x ;\nexists (1:r0=2147483647 /\\ x=-2147483648)\n' \
  > "$T/edge.litmus"
"$WL" cuda "$T/edge.litmus" > "$T/edge.cu" || fail "edge: exit $?"
grep -q 'loc_init\[NLOCS + 1\] = {-2147483648, 2147483647, 0};' "$T/edge.cu" ||
  fail "edge: initial values"
grep -q 'st.relaxed.gpu.global.b32 \[wl_ra0\], wl_rt0' "$T/edge.cu" &&
  grep -q 'mov.b32 wl_rt0, -2147483648;' "$T/edge.cu" || fail "edge: stored value"
grep -q '(v\[0\] == 2147483647LL) && (v\[2\] == -2147483648LL)' "$T/edge.cu" ||
  fail "edge: condition"
# computed values
cat > "$T/alu.litmus" <<'L'
PTX alu
{ x=2147483647; y=0; z=0; }
 P0@cta 0,gpu 0                | P1@cta 1,gpu 0           ;
 mov r0, 5                     | ld.relaxed.gpu r0, y     ;
 add r1, r0, 2147483647        | LC0:                     ;
 st.relaxed.gpu y, r1          | red.relaxed.gpu.add x, 1 ;
 shr r3, r0, 1                 | bne r0, 0, LC0           ;
 red.relaxed.gpu.add z, 1      | ld.relaxed.gpu r2, z     ;
 red.relaxed.gpu.sub z, 2      |                          ;
exists (1:r0=1)
L
"$WL" cuda "$T/alu.litmus" > "$T/alu.cu" || fail "alu: exit $?"
sed -n '/void role_0(/,/^}/p' "$T/alu.cu" > "$T/role0"
sed -n '/void role_1(/,/^}/p' "$T/alu.cu" > "$T/role1"
# arithmetic: 64 bits, the model's logical shift, then the check
for want in 'cvt.s64.s32 wl_rw0, wl_r0;' 'add.s64 wl_rw2, wl_rw0, wl_rw1;' \
  'shr.b64 wl_rw2, wl_rw0, wl_rt1;' 'cvt.u32.u64 wl_rt2, wl_rw2;' \
  'setp.ne.s64 wl_rq, wl_rw0, wl_rw2;' '@wl_rq bra wl_rWIDE;' \
  'mov.b32 wl_rh, 2;' 'atomicMax(hung, h);'; do
  grep -q -F "$want" "$T/role0" || fail "alu: no '$want'"
done
grep -q 'add\.s32\|shr\.s32' "$T/role0" && fail "alu: 32-bit arithmetic"
# z: an add and a sub of constants that run once each: red as written
[ "$(grep -c -F 'red.relaxed.gpu.global.add.u32 [wl_ra' "$T/role0")" -eq 2 ] ||
  fail "alu: the bounded reds on z"
# x: 2^31-1 plus an add in a loop: the red is the atom that checks
grep -q -F 'atom.relaxed.gpu.global.add.u32 wl_rt3, [wl_ra' "$T/role1" &&
  grep -q -F 'add.s64 wl_rw2, wl_rw0, wl_rw1;' "$T/role1" ||
  fail "alu: the red on x is not checked"
# the harness counts wide instances apart and names them
grep -q -F 'atomicAdd(&misc[p.hung[i] == 3u ? 5 : p.hung[i] == 2u ? 4 : 0],' \
  "$T/alu.cu" ||
  fail "alu: wide instances counted as hung"
grep -q -F '"Wide %s %llu of %llu runs made a value outside 32 bits' \
  "$T/alu.cu" || fail "alu: no Wide line"
sh "$ROOT/tests/cuda_stub/host.sh" "$T/alu.cu" "$T/alu"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || fail "alu: the program does not build"
exit 0
