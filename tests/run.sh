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

# 2. command-line tests
WL="$B/warplab"
for t in "$ROOT"/tests/cli/*.sh; do
  [ -f "$t" ] || continue
  if out=$(WL="$WL" ROOT="$ROOT" SHARED="$SHARED" sh "$t" 2>&1); then
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

# 4. conformance: every row of PTXv6_0-expected.csv, and the proxy rows of
# PTXv7_5-expected.csv must parse and the built-in explorer refuse them
C="$SHARED/conformance/dat3m"
if [ -d "$C" ]; then
  out=$("$B/tests/conformance" "$C/expected/PTXv6_0-expected.csv" "$C/PTX" \
        --proxy "$C/expected/PTXv7_5-expected.csv" 2>&1)
  m=$(printf '%s\n' "$out" | grep -c '^ok ')
  x=$(printf '%s\n' "$out" | grep -c '^MISMATCH')
  pass=$((pass + m))
  fail=$((fail + x))
  printf '%s\n' "$out" | grep -E '^MISMATCH|^conformance:'
  # the second engine: the cat files evaluated literally, on the v6.0
  # rows (the ISA reading, the default, and Dat3M's file as written) and
  # on every v7.5 row (proxies included)
  for run in "PTXv6_0 ptx-v6.0-isa.cat" "PTXv6_0 ptx-v6.0.cat" \
             "PTXv7_5 ptx-v7.5.cat"; do
    set -- $run
    out=$("$B/tests/conformance" --model "$SHARED/spec/$2" \
          "$C/expected/$1-expected.csv" "$C/PTX" 2>&1)
    rc=$?
    m=$(printf '%s\n' "$out" | grep -c '^ok ')
    x=$(printf '%s\n' "$out" | grep -c '^MISMATCH')
    want=$(grep -c '^litmus/PTX/' "$C/expected/$1-expected.csv")
    pass=$((pass + m))
    fail=$((fail + x))
    if [ "$m" -ne "$want" ] || { [ $rc -ne 0 ] && [ "$x" -eq 0 ]; }; then
      bad "conformance --model $2: $m of $want rows matched, exit $rc"
    fi
    printf '%s\n' "$out" | grep -E '^MISMATCH|^conformance:'
  done
else
  bad "conformance corpus not found at $C (set WARPLAB_SHARED)"
fi

# 6. the simulator: every outcome sampled from every v6.0 test and every
# tour file (10,000 runs, both profiles) is allowed by the explorer; and
# the H100 profile shows weak outcomes where the H100 did and never where
# it did not (tests/hw/expect.txt)
if [ -d "$C" ] && [ -x "$B/tests/soundness" ]; then
  files=$(sed -n 's|^litmus/PTX/\([^,]*\),.*|\1|p' "$C/expected/PTXv6_0-expected.csv" | tr -d '\r' | sed "s|^|$C/PTX/|")
  # shellcheck disable=SC2086
  out=$("$B/tests/soundness" 10000 $files "$ROOT"/scripts/litmus/*.litmus 2>&1)
  m=$(printf '%s\n' "$out" | grep -c '^ok ')
  x=$(printf '%s\n' "$out" | grep -c -v '^ok ')
  pass=$((pass + m))
  fail=$((fail + x))
  printf '%s\n' "$out" | grep -v '^ok ' | head -n 20
  echo "soundness: $m files sampled within the model, $x not"
  out=$("$B/tests/soundness" 200000 "$ROOT"/tests/hw/shapes/*.litmus 2>&1)
  # a third column, the H100's rate per 200,000, must hold within a
  # factor of 3
  while read -r name want rate; do
    case "$name" in ''|'#'*) continue ;; esac
    [ "$want" = gap ] && continue
    seen=$(printf '%s\n' "$out" | sed -n "s|^ok .*/$name.litmus (condition seen: weak [0-9]*, h100 \([0-9]*\);.*|\1|p")
    if [ -z "$seen" ]; then
      bad "hw $name: no result"
    elif { [ "$want" = yes ] && [ "$seen" -gt 0 ]; } ||
         { [ "$want" = no ] && [ "$seen" -eq 0 ]; }; then
      if [ -n "$rate" ] &&
         ! awk -v s="$seen" -v r="$rate" 'BEGIN { exit !(s >= r / 3 && s <= r * 3) }'; then
        bad "hw $name: h100 profile saw the weak outcome $seen times (the H100: $rate, want within a factor of 3)"
      else
        ok
      fi
    else
      bad "hw $name: h100 profile saw the weak outcome $seen times (want $want)"
    fi
  done < "$ROOT/tests/hw/expect.txt"
  echo "hw: done"
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
  printf '%s\n' "$out" | grep -E '^FAIL|^props:' | head -n 40
  n=$(printf '%s\n' "$out" | sed -n 's/^props: \([0-9]*\) tests, \([0-9]*\) failures.*/\1 \2/p')
  set -- $n
  if [ $rc -eq 0 ] && [ "${1:-0}" -ge "${PROPS_COUNT:-2000}" ] &&
     [ "${2:-1}" -eq 0 ]; then
    ok
  else
    bad "props: exit $rc, ${1:-no} tests, ${2:-unknown} failures"
  fi
  out=$("$B/tests/props" --runs 20000 --model "$SHARED/spec/ptx-v6.0-isa.cat" \
        --from "$ROOT"/tests/props/*.litmus 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -E '^FAIL|^props:'
  if [ $rc -eq 0 ]; then ok; else bad "props: the kept tests of tests/props"; fi
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
