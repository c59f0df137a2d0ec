#!/bin/sh
# sample_rate.sh BUILD -- sampled litmus instances per second on the
# simulator (h100 profile) for MP, SB and LB, with 1 and 2 jobs.
set -eu
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${BENCH_SAMPLE_RUNS:-10000000}
[ -x "$B/warplab" ] || { echo "sample_rate: $B/warplab not built" >&2; exit 1; }
for t in MP+weak SB LB; do
  for j in 1 2; do
    s=$("$B/warplab" sample -n "$N" --jobs "$j" "$ROOT/scripts/litmus/$t.litmus" |
        sed -n 's/^Time [^ ]* //p')
    # issue 21's targets: 20 M runs/s with one job, 40 M with two
    awk -v t="$t" -v j="$j" -v n="$N" -v s="$s" 'BEGIN {
      printf "sample: %-8s jobs %d  %d runs in %.2f s  %.2f M runs/s (target %d M/s)\n",
             t, j, n, s, (s > 0 ? n / s / 1e6 : 0), 20 * j }'
  done
done
