#!/bin/sh
# sample_rate.sh BUILD -- sampled litmus instances per second on the
# simulator (h100 profile) for MP, SB and LB, with 1 and 2 jobs.
set -eu
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
N=${BENCH_SAMPLE_RUNS:-100000000}
[ -x "$B/warplab" ] || { echo "sample_rate: $B/warplab not built" >&2; exit 1; }
# Each run's outcome is drawn from the test's exact law (computed once
# per file: WARPLAB_LAW_STATS's line below says in how long, or why the
# runs go step by step); BENCH_SAMPLE_ARGS=--no-exact measures the
# step-by-step runs.  Time has two decimals: at tens of millions of runs
# per second, N is 10^8 by default (a rate to a few %).
for t in MP+weak SB LB; do
  for j in 1 2; do
    # shellcheck disable=SC2086
    s=$(WARPLAB_LAW_STATS=1 "$B/warplab" sample -n "$N" --jobs "$j" \
          ${BENCH_SAMPLE_ARGS:-} "$ROOT/scripts/litmus/$t.litmus" 2> "${TMPDIR:-/tmp}/sample_rate.$$" |
        sed -n 's/^Time [^ ]* //p')
    [ "$j" = 1 ] && sed -n 's/^/sample: /p' "${TMPDIR:-/tmp}/sample_rate.$$"
    rm -f "${TMPDIR:-/tmp}/sample_rate.$$"
    # issue 21's targets: 20 M runs/s with one job, 40 M with two
    awk -v t="$t" -v j="$j" -v n="$N" -v s="$s" 'BEGIN {
      printf "sample: %-8s jobs %d  %d runs in %.2f s  %.2f M runs/s (target %d M/s)\n",
             t, j, n, s, (s > 0 ? n / s / 1e6 : 0), 20 * j }'
  done
done
