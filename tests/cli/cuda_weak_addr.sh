# warplab cuda gives each weak load and store an address register of its
# own (the location's plus an opaque zero times the access's index), so
# that ptxas cannot merge two weak accesses of one location: with one
# register it replaced the second of two weak loads of x with the first
# across an ld.acquire (rand-s224-44 on an H100, CUDA 13.0), and the
# histogram showed outcomes the model forbids.  Strong accesses keep the
# location's register.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
cat > "$T/w.litmus" <<'LIT'
PTX weak-addr
{ x=0; y=0; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 ld.weak r0, x        | st.weak x, 1         ;
 ld.acquire.sys r1, x | st.weak x, 2         ;
 ld.weak r2, x        | st.release.gpu y, 1  ;
 ld.weak r3, y        |                      ;
exists (0:r0=1 /\ 0:r2=0)
LIT
"$WL" cuda "$T/w.litmus" > "$T/w.cu" 2> "$T/err" || fail "cuda: $(cat "$T/err")"
# P0's role: its weak loads each read through their own register
role=$(sed -n '/^static __device__ __forceinline__ void role_0(/,/^}/p' "$T/w.cu")
regs=$(printf '%s\n' "$role" | sed -n 's/.*ld\.weak\.global\.b32 wl_r[0-9]*, \[\(wl_r[a-z0-9]*\)\].*/\1/p')
[ "$(printf '%s\n' "$regs" | wc -l)" -eq 3 ] || fail "P0: three weak loads expected: $regs"
[ "$(printf '%s\n' "$regs" | sort -u | wc -l)" -eq 3 ] ||
  fail "P0's weak loads share an address register: $regs"
printf '%s\n' "$regs" | grep -q '^wl_ra' && fail "a weak load reads through the location's own register: $regs"
printf '%s\n' "$role" | grep -q 'ld\.acquire\.sys\.global\.b32 wl_r1, \[wl_ra0\]' ||
  fail "the acquire keeps the location's register"
# each own register is the location's plus the opaque zero times a
# distinct factor, the zero being the budget shifted out
printf '%s\n' "$role" | grep -q 'shr\.u64 wl_rz, wl_rz, 31' || fail "no opaque zero"
for r in $regs; do
  printf '%s\n' "$role" | grep -q "mad\.lo\.u64 $r, wl_rz, [0-9]*, wl_ra[0-9]*;" ||
    fail "$r is not made from the opaque zero"
done
[ "$(printf '%s\n' "$role" | sed -n 's/.*mad\.lo\.u64 wl_rx[0-9]*, wl_rz, \([0-9]*\),.*/\1/p' | sort -u | wc -l)" -eq 3 ] ||
  fail "the factors are not distinct"
# P1's two weak stores of x too
role=$(sed -n '/^static __device__ __forceinline__ void role_1(/,/^}/p' "$T/w.cu")
regs=$(printf '%s\n' "$role" | sed -n 's/.*st\.weak\.global\.b32 \[\(wl_r[a-z0-9]*\)\].*/\1/p')
[ "$(printf '%s\n' "$regs" | sort -u | wc -l)" -eq 2 ] ||
  fail "P1's weak stores share an address register: $regs"
echo "cuda_weak_addr: ok"
