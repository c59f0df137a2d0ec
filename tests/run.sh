#!/bin/sh
# run.sh BUILD -- runs every test: the cmocka unit tests, the command-line
# tests, and the conformance run over ../shared/conformance.  Counts
# individual cases; the last line is "N passed, N failed".
set -u
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(sh "$ROOT/scripts/shared.sh" "$ROOT")
# unit tests that read shared/ (test_perf) find it where shared.sh did
WARPLAB_SHARED=$SHARED
export WARPLAB_SHARED
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
. "$ROOT/tests/stages.sh"

# 1. unit tests (cmocka): count its PASSED/FAILED lines
for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  out=$("$t" 2>&1)
  rc=$?
  p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
  f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
  pass=$((pass + ${p:-0}))
  if [ -n "$f" ] && [ "$f" -gt 0 ]; then
    fail=$((fail + f))
    printf '%s\n' "$out" | grep -E '^\[  (FAILED|ERROR) |^\[ +ERROR|error:' >&2
  fi
  if [ $rc -ne 0 ] && [ -z "$f" ]; then
    bad "$(basename "$t") exited with status $rc"
    printf '%s\n' "$out" | tail -n 20 >&2
  fi
  echo "unit $(basename "$t"): ${p:-0} passed, ${f:-0} failed"
done

# 2. command-line tests, each within 20 minutes (a hang, even one at a
# sanitizer's exit, fails the test instead of the run)
WL="$B/warplab"
for t in "$ROOT"/tests/cli/*.sh; do
  [ -f "$t" ] || continue
  if out=$(WL="$WL" ROOT="$ROOT" SHARED="$SHARED" timeout -k 10 1200 sh "$t" 2>&1); then
    ok
  else
    bad "cli $(basename "$t")"
    printf '%s\n' "$out" | tail -n 15
  fi
done
echo "cli: done"

# 3. Lua tests: each tests/lua/*.lua is one case, run by `warplab run`
# from the top of the repository; it passes when it exits 0.
for t in "$ROOT"/tests/lua/*.lua; do
  [ -f "$t" ] || continue
  # the corpus test needs the corpus; its absence is one failure below
  case "$t" in
    */conformance_wl_load.lua) [ -d "$SHARED/conformance" ] || continue ;;
  esac
  if out=$(cd "$ROOT" && "$WL" run "tests/lua/$(basename "$t")" "$SHARED" 2>&1); then
    ok
  else
    bad "lua $(basename "$t")"
    printf '%s\n' "$out" | tail -n 20
  fi
done
echo "lua: done"

# 4. the tour: every scripts/examples/*.lua asserts its expected outcomes
for t in "$ROOT"/scripts/examples/*.lua; do
  [ -f "$t" ] || continue
  if out=$(cd "$ROOT" && "$WL" run "scripts/examples/$(basename "$t")" 2>&1); then
    ok
  else
    bad "tour $(basename "$t")"
    printf '%s\n' "$out" | tail -n 20
  fi
done
echo "tour: done"

# 5. conformance (tests/stages.sh): every Dat3M row, with the built-in
# explorer and with the cat files evaluated literally
if [ -d "$SHARED/conformance/dat3m" ]; then
  stage_conformance
else
  bad "conformance corpus not found at $SHARED/conformance (set WARPLAB_SHARED)"
fi

# 6. the simulator (tests/stages.sh): every sampled outcome is allowed by
# the explorer, and the H100 profile matches the H100's shape
if [ -d "$SHARED/conformance/dat3m" ]; then
  stage_soundness
fi

# 7. properties on generated tests (tests/props.c): the explorer against
# the cat evaluator, SC interleavings, the sampler and renamed variants,
# on PROPS_COUNT tests (make verify runs 50,000); then the reduced tests
# kept in tests/props/ from earlier failures.  (The Lua-function form is
# tests/lua/props_fn.lua, among the Lua tests.)
if [ -x "$B/tests/props" ] && [ -d "$SHARED/spec" ]; then
  out=$("$B/tests/props" --count "${PROPS_COUNT:-2000}" \
        --model "$SHARED/spec/ptx-v6.0-isa.cat" 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -E '^FAIL|^SKIP|^props:' | head -n 40
  n=$(printf '%s\n' "$out" | sed -n 's/^props: \([0-9]*\) tests, \([0-9]*\) failures.*/\1 \2/p')
  set -- $n
  if [ $rc -eq 0 ] && [ "${1:-0}" -ge "${PROPS_COUNT:-2000}" ] &&
     [ "${2:-1}" -eq 0 ]; then
    ok
  else
    bad "props: exit $rc, ${1:-no} tests, ${2:-unknown} failures"
  fi
  # the search's reductions on interchangeable threads: warplab litmus's
  # defaults against each reduction turned off, the full search, the
  # value and reads-from searches and the cat evaluator, on 5,000 tests
  # of the copies kind (PROPS_REDUCE_COUNT), in two processes
  rn=${PROPS_REDUCE_COUNT:-5000}
  rd=$(mktemp -d)
  "$B/tests/props" --only reduce --kind copies --timeout 0.5 \
    --count $((rn / 2)) --seed 11 \
    --model "$SHARED/spec/ptx-v6.0-isa.cat" > "$rd/1" 2>&1 &
  rp1=$!
  "$B/tests/props" --only reduce --kind copies --timeout 0.5 \
    --count $((rn - rn / 2)) --seed 12 \
    --model "$SHARED/spec/ptx-v6.0-isa.cat" > "$rd/2" 2>&1 &
  rp2=$!
  wait "$rp1"; rc1=$?
  wait "$rp2"; rc2=$?
  rt=0 rf=0
  for k in 1 2; do
    grep -E '^FAIL|^props:' -A 12 "$rd/$k" | grep -v '^SKIP' | head -n 40
    n=$(sed -n 's/^props: \([0-9]*\) tests, \([0-9]*\) failures.*/\1 \2/p' "$rd/$k")
    set -- $n
    rt=$((rt + ${1:-0}))
    rf=$((rf + ${2:-1}))
  done
  rm -rf "$rd"
  if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$rt" -ge "$rn" ] && [ "$rf" -eq 0 ]; then
    ok
  else
    bad "props reduce: exit $rc1 and $rc2, $rt tests, $rf failures"
  fi
  # one exploration split into units (tests/split.c): the units in a
  # shuffled order on two explorers, merged in unit order, against
  # wl_explore, on PROPS_SPLIT_COUNT generated tests (every kind: random
  # programs, families, interchangeable copies, the ticket idiom, spin
  # loops; about 25 s)
  sn=${PROPS_SPLIT_COUNT:-1000}
  out=$("$B/tests/props_split" --count "$sn" --timeout 0.5 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -E '^FAIL|^props_split:' -A 8 | head -n 40
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "^props_split: $sn tests, 0 failures"; then
    ok
  else
    bad "props_split: exit $rc"
  fi
  # the same units as MPI ranks run them (--ranks own: dealt to 2 to 4
  # ranks, each knowing its own earlier units' states, each result
  # through wl_result_pack/unpack: bindings/lexplore.c's spread)
  rn=${PROPS_SPLIT_RANKS_COUNT:-300}
  out=$("$B/tests/props_split" --count "$rn" --timeout 0.5 --ranks own 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -E '^FAIL|^props_split:' -A 8 | head -n 40
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "^props_split: $rn tests, 0 failures"; then
    ok
  else
    bad "props_split --ranks own: exit $rc"
  fi
  out=$("$B/tests/props" --runs 20000 --model "$SHARED/spec/ptx-v6.0-isa.cat" \
        --from "$ROOT"/tests/props/*.litmus 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -E '^FAIL|^props:'
  if [ $rc -eq 0 ]; then ok; else bad "props: the kept tests of tests/props"; fi
fi

# 8. the h100 profile's rare in-SM events (a store going ahead of another
# thread's older store in its SM's buffer) made frequent (1/4 each) in
# props_rare: every outcome sampled from 800 random programs of three
# threads in one CTA over two locations is allowed by the explorer.
if [ -x "$B/tests/props_rare" ]; then
  rare=$(mktemp -d)
  if "$WL" gen --random --placements cta --threads 3 --insns 4 --locs 2 \
       --count 800 --seed 5 -o "$rare" > /dev/null 2>&1; then
    out=$("$B/tests/props_rare" --only sample --runs 5000 \
          --from "$rare"/*.litmus 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -E '^FAIL|^props:' | head -n 20
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^props: 800 tests, 0 failures'; then
      ok
    else
      bad "props_rare: exit $rc"
    fi
  else
    bad "props_rare: warplab gen failed"
  fi
  rm -rf "$rare"
fi

# 9. the h100 profile's link events (a load of another GPU's memory
# performed late, a gpu-fenced store passed on a busy link) made
# frequent (1/4 each) in props_link: every outcome sampled from 400
# random programs of three threads on three GPUs is allowed.
if [ -x "$B/tests/props_link" ]; then
  lk=$(mktemp -d)
  if "$WL" gen --random --placements sys --threads 3 --insns 4 --locs 2 \
       --count 400 --seed 5 -o "$lk" > /dev/null 2>&1; then
    out=$("$B/tests/props_link" --only sample --runs 5000 \
          --from "$lk"/*.litmus 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -E '^FAIL|^props:' | head -n 20
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^props: 400 tests, 0 failures'; then
      ok
    else
      bad "props_link: exit $rc"
    fi
  else
    bad "props_link: warplab gen failed"
  fi
  rm -rf "$lk"
fi

# 10. issue 23's Slurm stage: a campaign of 1,000 generated tests through
# sbatch on a one-node Slurm started here, merged and compared with one
# process's report (tests/slurm.sh); where Slurm cannot start (not root,
# no packages, daemons that will not run) it says why and is skipped.
out=$(sh "$ROOT/tests/slurm.sh" "$B" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^(SKIP|FAIL|slurm:)' | head -n 20
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^SKIP slurm'; then
  ok
elif [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^slurm: [1-9][0-9]* passed, 0 failed$'; then
  ok
else
  bad "slurm: exit $rc"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
