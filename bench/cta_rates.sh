#!/bin/sh
# cta_rates.sh BUILD -- the h100 profile against the H100 inside one SM
# at the hardware's own instance counts (make bench; too slow for make
# test, which samples these cells 200,000 times): every row of
# tests/hw/expect.txt whose threads share an SM (sameCTA, sameSM) is
# sampled CTA_RUNS times (default 131,072,000, the instances per
# two-thread shape of tests/hw/observed/h100-2026-11-26; half for the
# 3- and 4-thread WRC, IRIW and WWC, as there).  A "no" row must stay at 0, as on
# the H100; a "yes" row must be within 3x of the H100's count scaled to
# the runs.  Exit 1 when a row is off.
set -u
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${CTA_RUNS:-131072000}
fail=0
t0=$(date +%s)
grep -E '^[^#].*\+(sameCTA|sameSM) ' "$ROOT/tests/hw/expect.txt" > "${TMPDIR:-/tmp}/cta.$$"
while read -r name want rate runs; do
  n=$RUNS
  case "$name" in WRC*|IRIW*|WWC*) n=$((RUNS / 2)) ;; esac
  out=$("$B/warplab" sample --profile h100 -n "$n" --seed 12345 \
          "$ROOT/tests/hw/shapes/$name.litmus" 2>&1)
  seen=$(printf '%s\n' "$out" | sed -n 's/^Positive: \([0-9]*\),.*/\1/p')
  if [ -z "$seen" ]; then
    echo "cta: $name: no result"
    printf '%s\n' "$out" | tail -n 3
    fail=1
    continue
  fi
  verdict=$(awk -v s="$seen" -v n="$n" -v w="$want" -v r="${rate:-0}" \
                -v m="${runs:-200000}" 'BEGIN {
    if (w == "no") { printf "want 0: %s", s == 0 ? "ok" : "OFF"; exit }
    h = r * n / m
    printf "H100 %.1f, ratio %.2f: %s", h, s / h,
           (s >= h / 3 && s <= 3 * h) ? "ok" : "OFF (want within 3x)"
  }')
  printf 'cta: %-28s h100 profile %6d in %10d; %s\n' "$name" "$seen" "$n" "$verdict"
  case "$verdict" in *OFF*) fail=1 ;; esac
done < "${TMPDIR:-/tmp}/cta.$$"
rm -f "${TMPDIR:-/tmp}/cta.$$"
echo "cta: $(($(date +%s) - t0)) s; $([ $fail -eq 0 ] && echo 'every row matches' || echo 'FAILED')"
exit $fail
