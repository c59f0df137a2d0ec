#!/bin/sh
# link_rows.sh ROOT -- the two-GPU rows the h100 profile's link model is
# checked against (bench/link_rates.sh, tests/stages.sh), one a line:
# SHAPE FENCE HOME PAIRS ROUNDS WEAK (the test is
# tests/hw/two_gpu/SHAPE+FENCE+homeHOME.litmus, PAIRS x ROUNDS runs).
# The rows of tests/hw/observed/*/link.tsv (warplab cuda's programs),
# then those of tests/hw/observed/*/two_gpu.tsv (tests/hw/two_gpu.cu)
# that no link.tsv measured again.
set -u
ROOT=$1
new=$(cat "$ROOT"/tests/hw/observed/*/link.tsv 2>/dev/null | grep -v '^#' |
  awk '$1 != "shape" && NF >= 6 { print $1, $2, $3, $4, $5, $6 }')
printf '%s\n' "$new" | grep -v '^$'
for t in "$ROOT"/tests/hw/observed/*/two_gpu.tsv; do
  [ -f "$t" ] || continue
  grep -v '^#' "$t" | tail -n +2 | awk -v new="$new" '
    BEGIN { n = split(new, l, "\n"); for (i = 1; i <= n; i++) {
              split(l[i], f, " "); seen[f[1] " " f[2] " " f[3]] = 1 } }
    !seen[$1 " " $2 " " $3] { print $1, $2, $3, $4, $5, $6 }'
done
