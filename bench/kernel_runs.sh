#!/bin/sh
# kernel_runs.sh BUILD [REPEATS] -- one kernel run many times across
# cores (dev:runs, issue 24 item 4): JOBS 2 against JOBS 1, the fastest
# wall time of REPEATS (default 3) each (the machine may be shared), the
# histograms compared (they must be the same).  Rows: 16 runs of the
# tour's per-thread tiled matmul (16 blocks of 256 threads each; issue
# 24's kernel target is at least 1.7x), and 2,000 runs of a two-block
# flag handoff (short runs: the cost of a run's fresh device shows).
set -eu
B=${1:-build/release}
R=${2:-${BENCH_JOBS_REPEATS:-3}}
W="$B/warplab"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# best WHAT N J: the fastest of R runs, in ns (output in $T/out.J)
best() {
  b=
  i=0
  while [ $i -lt "$R" ]; do
    t0=$(date +%s%N)
    "$W" run "$ROOT/bench/kernel_runs.lua" "$1" "$2" "$3" > "$T/out.$3"
    t1=$(date +%s%N)
    d=$((t1 - t0))
    if [ -z "$b" ] || [ $d -lt "$b" ]; then b=$d; fi
    i=$((i + 1))
  done
  echo "$b"
}
for row in "matmul 16" "mp 2000"; do
  # shellcheck disable=SC2086
  set -- $row
  t1=$(best "$1" "$2" 1)
  t2=$(best "$1" "$2" 2)
  cmp -s "$T/out.1" "$T/out.2" || {
    echo "kernel_runs: $1: the histograms of jobs 1 and 2 differ"
    diff "$T/out.1" "$T/out.2" | head
    exit 1
  }
  awk -v w="$1" -v n="$2" -v a="$t1" -v b="$t2" 'BEGIN {
    printf "kernel runs: %s, %d runs: jobs 1 %.3f s, jobs 2 %.3f s -> %.2fx%s\n",
      w, n, a / 1e9, b / 1e9, a / b,
      w == "matmul" ? " (target >= 1.7x on two cores)" : "" }'
done
