#!/bin/sh
# link_rates.sh BUILD -- the h100 profile's link model against two GPUs
# (make bench; too slow for make test): for every row of
# tests/hw/link_rows.sh (tests/hw/observed/*/link.tsv: warplab cuda's
# programs, MP and its streaming form MPstream; the rows of
# tests/hw/observed/*/two_gpu.tsv no link.tsv measured again: MP and SB,
# T0 on GPU 0, T1 on GPU 1, per fence and per home of x and y), samples
# tests/hw/two_gpu/SHAPE+FENCE+homeH.litmus on the h100 profile and
# prints the weak count and rate beside the hardware's.  A row the
# hardware never showed must stay at 0 (LINK_ZERO_RUNS runs, default
# 20,000,000); a row it showed gets enough runs to expect LINK_EXPECT
# weak outcomes (default 20; the rarest, 2 in 102,400,000, then takes
# about 10^9 runs, a few minutes on one core) and must be within 3x of
# the hardware's rate.  Exit 1 when a row is off.
set -u
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ZERO=${LINK_ZERO_RUNS:-20000000}
EXPECT=${LINK_EXPECT:-20}
fail=0
t0=$(date +%s)
sh "$ROOT/tests/hw/link_rows.sh" "$ROOT" > "${TMPDIR:-/tmp}/link.$$"
{
  while read -r shape fence home pairs rounds weak _rest; do
    f="$ROOT/tests/hw/two_gpu/$shape+$fence+home$home.litmus"
    total=$((pairs * rounds))
    if [ "$weak" -eq 0 ]; then
      n=$ZERO
    else
      n=$(awk -v e="$EXPECT" -v w="$weak" -v t="$total" \
            'BEGIN { printf "%d", e * t / w + 1 }')
    fi
    out=$("$B/warplab" sample --profile h100 -n "$n" --seed 12345 "$f" 2>&1)
    seen=$(printf '%s\n' "$out" | sed -n 's/^Positive: \([0-9]*\),.*/\1/p')
    if [ -z "$seen" ]; then
      echo "link: $shape $fence home $home: no result"
      printf '%s\n' "$out" | tail -n 3
      fail=1
      continue
    fi
    verdict=$(awk -v s="$seen" -v n="$n" -v w="$weak" -v t="$total" 'BEGIN {
      r = s / n; h = w / t
      if (w == 0) { print (s == 0 ? "ok" : "OFF (want 0)"); exit }
      printf "ratio %.2f %s", r / h, (r >= h / 3 && r <= 3 * h) ? "ok" : "OFF (want within 3x)"
    }')
    printf 'link: %-3s %-13s home %s: h100 profile %6d in %10d (%.3g), hardware %6d in %d (%.3g): %s\n' \
      "$shape" "$fence" "$home" "$seen" "$n" \
      "$(awk -v s="$seen" -v n="$n" 'BEGIN { print s / n }')" \
      "$weak" "$total" "$(awk -v s="$weak" -v n="$total" 'BEGIN { print s / n }')" \
      "$verdict"
    case "$verdict" in *OFF*) fail=1 ;; esac
  done < "${TMPDIR:-/tmp}/link.$$"
  rm -f "${TMPDIR:-/tmp}/link.$$"
}
echo "link: $(($(date +%s) - t0)) s; $([ $fail -eq 0 ] && echo 'every row matches' || echo 'FAILED')"
exit $fail
