# warplab cuda's harness presets (issue 22, item 1): --harness plain is
# warplab 0.1's harness (no rendezvous, role r in region r); sync,
# stress and parallel add the per-instance rendezvous, drawn warps and
# GPUHarbor's stress.  Checked here: the settings reach the program's
# defaults and its --help, bad values are refused by both, and the
# tables of roles give each role of each instance exactly one thread
# under every preset and placement (the program's --check-roles, built
# with nvcc or the host stand-in: no GPU needed).  A table that drew the
# warps per instance block instead of per block gave two roles one
# thread across CTAs (found on an H100: instances never run were
# counted); --check-roles fails on that.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
build() {
  sh "$ROOT/tests/cuda_stub/host.sh" "$1" "$2"
}
S=$ROOT/tests/hw/shapes
# the settings reach the program
"$WL" cuda --harness stress --pre-stress 9 --stress-lines 7 --line-words 5 \
  --stress-pattern ll --sync-spins 33 --delay 77 --gap 55 --tune \
  "$S/MP+none+diffCTA.litmus" \
  -o "$T/mp.cu" || fail "cuda --harness stress: exit $?"
for want in '#define DEF_HARNESS 2' '#define DEF_SYNC 1' '#define DEF_PLACE 1' \
  '#define DEF_PRE_STRESS 9' '#define DEF_LINES 7' '#define DEF_LINE_WORDS 5' \
  '#define DEF_PATTERN 4' '#define DEF_SYNC_SPINS 33' '#define DEF_TUNE 1' \
  '#define DEF_DELAY 77' '#define DEF_GAP 55' '{"plain", 0, 0, 0, 0,' \
  '{"delay", 1, 1, 0, 0,' 'role_0_gap(' 'if (gap != 0)'; do
  grep -q -F -- "$want" "$T/mp.cu" || fail "cuda --harness stress: no '$want'"
done
# the default stays a preset the table names
"$WL" cuda "$S/MP+none+diffCTA.litmus" -o "$T/def.cu" || fail "default: $?"
grep -q '^#define DEF_HARNESS [0-9]' "$T/def.cu" || fail "default: no harness"
# refusals
"$WL" cuda --harness fast "$S/MP+none+diffCTA.litmus" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "harness takes plain, sync, stress, parallel or delay" \
  "$T/err" || fail "--harness fast not refused"
"$WL" cuda --sync 2 "$S/MP+none+diffCTA.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--sync 2 not refused"
"$WL" cuda --stress-pattern xl "$S/MP+none+diffCTA.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--stress-pattern xl not refused"
"$WL" cuda --delay -1 "$S/MP+none+diffCTA.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--delay -1 not refused"
"$WL" cuda --gap 2000000 "$S/MP+none+diffCTA.litmus" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--gap 2000000 not refused"
"$WL" cuda --harness delay "$S/MP+none+diffCTA.litmus" -o "$T/d.cu" ||
  fail "--harness delay: $?"
grep -q '^#define DEF_HARNESS 4$' "$T/d.cu" || fail "--harness delay: not preset 4"
build "$T/mp.cu" "$T/mp"
rc=$?
[ $rc -eq 77 ] && exit 0
[ $rc -eq 0 ] || fail "the program does not build"
"$T/mp" --help > "$T/help" || fail "--help: exit $?"
for want in '--harness NAME' '--sync 0|1' '--sync-spins N' '--place 0|1' \
  '--pre-stress N' '--stress-pattern random|ss|sl|ls|ll' '--stress-lines N' \
  '--line-words N' '--tune' '--check-roles' 'default stress' '(33)' \
  '--delay D' '(77)' '--gap G' '(55)'; do
  grep -q -F -- "$want" "$T/help" || fail "program --help: no '$want'"
done
"$T/mp" --harness fast > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "plain, sync, stress, parallel, delay" "$T/err" ||
  fail "program: --harness fast not refused"
"$T/mp" --stress-pattern xl > /dev/null 2>&1
[ $? -eq 2 ] || fail "program: --stress-pattern xl not refused"
"$T/mp" --delay x > /dev/null 2>&1
[ $? -eq 2 ] || fail "program: --delay x not refused"
# every role of every instance once: shapes with 1, 2 and 4 CTAs, 2 to 4
# roles (rand-s222-51: roles of 4 instructions, for --gap's draws), each
# preset, both shapes of block, warps drawn or not, seeds
for f in "$S/MP+none+diffCTA.litmus" "$S/MP+none+sameCTA.litmus" \
  "$S/IRIW+none+diffCTA.litmus" "$S/IRIW+none+sameCTA.litmus" \
  "$S/WRC+none+diffCTA.litmus" "$ROOT/tests/hw/gen22/rand-s222-51.litmus"; do
  "$WL" cuda "$f" -o "$T/t.cu" || fail "$f: cuda $?"
  build "$T/t.cu" "$T/t" || fail "$f: does not build"
  for h in plain sync stress parallel delay; do
    for shape in "--blocks 64 --threads 256" "--blocks 16 --threads 1024" \
      "--blocks 9 --threads 96"; do
      for seed in 1 7; do
        # shellcheck disable=SC2086
        "$T/t" --check-roles --harness $h $shape --seed $seed --perms 4 \
          > "$T/out" 2>&1 || fail "$f $h $shape seed $seed: $(cat "$T/out")"
        grep -q "each role of each of" "$T/out" || fail "$f: no check line"
      done
    done
  done
  # --delay: the waits fall in [0, D) and give "together" and each role
  # first its share of the instances (the checked shape is big enough)
  # --gap: each stall before an instruction of its role (not the first),
  # under G cycles, every such instruction drawn, long stalls among them
  for d in 64 2048 100000; do
    "$T/t" --check-roles --harness delay --delay $d --gap $d --perms 4 \
      > "$T/out" 2>&1 || fail "$f --delay/--gap $d: $(cat "$T/out")"
    grep -q "waits of launch 0 (--delay $d): together" "$T/out" ||
      fail "$f --delay $d: no waits line"
    grep -q "stalls of launch 0 (--gap $d): each instruction" "$T/out" ||
      fail "$f --gap $d: no stalls line"
  done
done
# a role whose inline asm has no room for --gap's operand (27 registers
# and a location: 30 operands) never stalls: role_len gives it 1
{
  echo 'PTX full'
  echo '{ x=0; }'
  echo ' P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;'
  echo ' ld.weak r0, x | st.weak x, 1 ;'
  k=1
  while [ $k -lt 27 ]; do echo " ld.weak r$k, x | ;"; k=$((k + 1)); done
  echo 'exists (P0:r0=1)'
} > "$T/full.litmus"
"$WL" cuda "$T/full.litmus" -o "$T/full.cu" || fail "full: cuda $?"
grep -q -F 'const int n[NROLES] = {1, 1};' "$T/full.cu" ||
  fail "full: a role without room for the stall's operand may stall"
build "$T/full.cu" "$T/full" || fail "full: does not build"
"$T/full" --check-roles > "$T/out" 2>&1 || fail "full: $(cat "$T/out")"
exit 0
