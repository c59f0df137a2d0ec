#!/bin/sh
# capacity.sh BUILD [REPEATS] -- how much two CPU-bound processes get
# from this machine (or from the CPUs taskset gives it): one
# single-threaded warplab run alone against two copies side by side,
# fastest of REPEATS (default 3) each.  Prints 2 x alone / side by side:
# 2.00 on two idle cores; about 1.0 to 1.3 on two hyperthreads of one
# core, or on a VM whose CPUs share a busy host.  No --jobs speedup can
# pass it, so the --jobs benches print it beside theirs.
set -eu
B=${1:-build/release}
R=${2:-3}
W="$B/warplab"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
job() { "$W" run "$ROOT/bench/kernel_split.lua" thread 0 3 > /dev/null; }
alone=
pair=
i=0
while [ $i -lt "$R" ]; do
  t0=$(date +%s%N); job; t1=$(date +%s%N)
  d=$((t1 - t0)); if [ -z "$alone" ] || [ $d -lt "$alone" ]; then alone=$d; fi
  t0=$(date +%s%N); job & job; wait; t1=$(date +%s%N)
  d=$((t1 - t0)); if [ -z "$pair" ] || [ $d -lt "$pair" ]; then pair=$d; fi
  i=$((i + 1))
done
awk -v a="$alone" -v p="$pair" 'BEGIN {
  printf "capacity: one process %.3f s, two side by side %.3f s: %.2f " \
    "of 2.00 (the most any --jobs 2 speedup can reach here)\n",
    a / 1e9, p / 1e9, 2 * a / p }'
