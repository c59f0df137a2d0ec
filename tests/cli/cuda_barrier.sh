# Barrier tests on silicon (issue 22, item 3): a test whose threads share
# one CTA and use bar.sync a{, b} (a constant 0..15, b the test's thread
# count or none) runs one instance per CTA: a warp per role, one lane of
# each playing it (the others exit), the test's bar.sync as the block's
# barrier.sync a (non-aligned).  Other barriers are refused with
# file:line:col.  The program builds (nvcc, or the host stand-in) and
# its tables give each role of each instance one thread.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
MP="$ROOT/scripts/litmus/MP+syncthreads.litmus"
"$WL" cuda "$MP" -o "$T/mp.cu" || fail "MP+syncthreads: exit $?"
for want in '#define ONE_PER_CTA 1' '"barrier.sync 0;\n\t"' \
  'threads = 32 * NROLES;'; do
  grep -q -F -- "$want" "$T/mp.cu" || fail "MP+syncthreads: no '$want'"
done
# each role twice: role_N and role_N_gap (--gap's stalls)
[ "$(grep -c -F '"barrier.sync 0;\n\t"' "$T/mp.cu")" -eq 4 ] ||
  fail "MP+syncthreads: one barrier.sync per role"
# a test without barriers is as before
"$WL" cuda "$ROOT/tests/hw/shapes/MP+none+sameCTA.litmus" -o "$T/plain.cu"
grep -q -F '#define ONE_PER_CTA 0' "$T/plain.cu" || fail "no barrier: ONE_PER_CTA"
refused() { # refused NAME WANT: the test in $T/NAME.litmus
  "$WL" cuda "$T/$1.litmus" > /dev/null 2> "$T/err"
  [ $? -eq 1 ] || fail "$1: exit status"
  grep -q -- "$2" "$T/err" || { cat "$T/err"; fail "$1: message"; }
}
body() { # body NAME P1-PLACEMENT BARRIER
  printf 'PTX %s\n{ x=0; }\n P0@cta 0,gpu 0 | P1@%s ;\n st.weak x, 1   | %s ;\n %s | ld.weak r0, x  ;\nexists (1:r0=0)\n' \
    "$1" "$2" "$3" "$3" > "$T/$1.litmus"
}
body count3 "cta 0,gpu 0" "bar.sync 0, 3"
refused count3 "count3.litmus:5:2: P0: a barrier count other than the test's thread count"
body count2 "cta 0,gpu 0" "bar.sync 1, 2"
"$WL" cuda "$T/count2.litmus" > "$T/c2.cu" || fail "count2: exit $?"
grep -q -F '"barrier.sync 1;\n\t"' "$T/c2.cu" || fail "count2: barrier 1"
body id16 "cta 0,gpu 0" "bar.sync 16"
refused id16 "barrier id 16 out of range"
body twocta "cta 1,gpu 0" "bar.sync 0"
refused twocta "barriers with the threads in several CTAs"
body arrive "cta 0,gpu 0" "bar.arrive 0, 2"
refused arrive "barriers other than bar.sync"
sh "$ROOT/tests/cuda_stub/host.sh" "$T/mp.cu" "$T/mp"
rc=$?
[ $rc -eq 77 ] && exit 0
[ $rc -eq 0 ] || fail "MP+syncthreads: the program does not build"
for h in plain sync stress parallel; do
  "$T/mp" --check-roles --harness $h --blocks 16 --threads 64 --perms 3 \
    > "$T/out" 2>&1 || fail "check-roles $h: $(cat "$T/out")"
done
exit 0
