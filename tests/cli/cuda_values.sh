# warplab cuda refuses values wider than the harness's 32-bit words
# (issue 20, item 3) with file:line:col, wherever the test writes them:
# initial values of locations and registers, operands of st, atom (add,
# cas), red, mov, arithmetic and branches, constants of the condition;
# -2^31 and 2^31-1 themselves are written as they are.
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
exit 0
