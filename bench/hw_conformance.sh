#!/bin/sh
# hw_conformance.sh BUILD -- the h100 profile against the H100 on the
# v6.0 conformance tests that ran there (make bench; too slow for make
# test): for each tests/hw/observed/*/conformance/NAME.hist (a program
# from `warplab cuda`, its instances and how many satisfied the test's
# condition), samples the test on the h100 profile as many times as the
# H100 ran it (divided by HWC_DIV, default 1) and prints both counts.
# A test whose condition the H100 satisfied must be satisfied by the
# profile too, and one it never satisfied must stay at 0: exit 1 when
# one differs.  (Rates are printed, not judged: these tests' conditions
# are often the message-passed outcome, whose rate is the harness's
# timing.)
set -u
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
DIV=${HWC_DIV:-1}
fail=0 same=0 n=0
t0=$(date +%s)
for h in "$ROOT"/tests/hw/observed/*/conformance/*.hist; do
  [ -f "$h" ] || continue
  p=$(sed -n '1s/.*(dat3m\/PTX\/\(.*\))$/\1/p' "$h")
  f="$SHARED/conformance/dat3m/PTX/$p"
  # shellcheck disable=SC2046 # two numbers, split on purpose
  set -- $(sed -n 's/^Positive: \([0-9]*\), Negative: \([0-9]*\).*/\1 \2/p' "$h")
  if [ -z "$p" ] || [ ! -f "$f" ] || [ $# -ne 2 ]; then
    echo "hwc: $(basename "$h"): no test or no counts"
    fail=1
    continue
  fi
  runs=$((($1 + $2) / DIV))
  seen=$("$B/warplab" sample --profile h100 -n "$runs" --seed 12345 "$f" 2>&1 |
         sed -n 's/^Positive: \([0-9]*\),.*/\1/p')
  n=$((n + 1))
  if [ -z "$seen" ]; then
    echo "hwc: $p: no result"
    fail=1
    continue
  fi
  if { [ "$1" -gt 0 ] && [ "$seen" -gt 0 ]; } ||
     { [ "$1" -eq 0 ] && [ "$seen" -eq 0 ]; }; then
    v=ok
    same=$((same + 1))
  else
    v=OFF
    fail=1
  fi
  printf 'hwc: %-44s H100 %9d of %9d, h100 profile %9d of %9d: %s\n' \
    "$p" "$1" "$(($1 + $2))" "$seen" "$runs" "$v"
done
echo "hwc: $same of $n tests seen or never seen as on the H100;" \
     "$(($(date +%s) - t0)) s"
exit $fail
