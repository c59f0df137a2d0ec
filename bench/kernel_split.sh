#!/bin/sh
# kernel_split.sh BUILD [REPEATS] -- one launch's blocks across cores
# (dev:launch{jobs=}, issue 24 item 4): LAUNCHES (default 12) launches
# of the tour's tiled matmul (16 blocks of 256 threads), each split in
# parts, JOBS 2 against JOBS 1, per-thread and warp-vector; the fastest
# wall time of REPEATS (default 5) whole processes each (the machine may
# be shared).  Beside them, in the same turns, two jobs-1 processes of
# half the launches each, side by side: the most this machine gives two
# threads of this work.  The
# launches' checksums and counters must be the same for both.  Target
# (issue 24): a per-thread tiled matmul with 16 blocks at least 1.7x.
set -eu
B=${1:-build/release}
R=${2:-${BENCH_JOBS_REPEATS:-5}}
N=${LAUNCHES:-12}
W="$B/warplab"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# one STYLE JOBS: one process's wall time in ns into t.JOBS (its output
# in out.JOBS)
one() {
  t0=$(date +%s%N)
  "$W" run "$ROOT/bench/kernel_split.lua" "$1" "$2" "$N" > "$T/out.$2"
  t1=$(date +%s%N)
  echo $((t1 - t0)) > "$T/t.$2"
}
# pair STYLE: two jobs-1 processes of half the launches each, side by
# side (the work of one jobs-2 process, with two process starts): what
# this machine gives two threads of this work, in ns into t.p
pair() {
  t0=$(date +%s%N)
  "$W" run "$ROOT/bench/kernel_split.lua" "$1" 1 $((N / 2)) > /dev/null &
  "$W" run "$ROOT/bench/kernel_split.lua" "$1" 1 $((N - N / 2)) > /dev/null
  wait
  t1=$(date +%s%N)
  echo $((t1 - t0)) > "$T/t.p"
}
for style in thread warp; do
  # the fastest of R runs each; without jobs, jobs 1, jobs 2 and the
  # pair take turns, so that a quiet or a busy spell of the machine
  # falls on all four alike
  b0= b1= b2= bp=
  i=0
  while [ $i -lt "$R" ]; do
    for j in 0 1 2; do
      one "$style" $j
      d=$(cat "$T/t.$j")
      eval "b=\$b$j"
      if [ -z "$b" ] || [ "$d" -lt "$b" ]; then eval "b$j=$d"; fi
    done
    pair "$style"
    d=$(cat "$T/t.p")
    if [ -z "$bp" ] || [ "$d" -lt "$bp" ]; then bp=$d; fi
    i=$((i + 1))
  done
  t0=$b0 t1=$b1 t2=$b2
  cmp -s "$T/out.1" "$T/out.2" || {
    echo "kernel_split: $style: jobs 1 and 2 differ"
    diff "$T/out.1" "$T/out.2" | head
    exit 1
  }
  # the warp memory instructions of the launches, for the rate (whole
  # processes: their start counts against it)
  inst=$(awk '/^launch/ { n += $3 } END { print n }' "$T/out.2")
  awk -v s="$style" -v a="$t0" -v b="$t1" -v c="$t2" -v n="$inst" -v m="$N" \
    -v l="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)" 'BEGIN {
    printf "kernel_split: %s matmul, %d launches of 16 blocks: without " \
      "jobs %.3f s, jobs 1 %.3f s, jobs 2 %.3f s: %.2fx (load %s; " \
      "target >= 1.7x per-thread); jobs 2: %.0f warp memory " \
      "instructions/s of wall time\n", s, m, a / 1e9, b / 1e9, c / 1e9,
      b / c, l, n / (c / 1e9) }'
  awk -v s="$style" -v b="$t1" -v c="$t2" -v p="$bp" 'BEGIN {
    printf "kernel_split: %s matmul, two jobs-1 processes of half the " \
      "launches each, side by side: %.3f s, %.2fx (what this machine " \
      "gives two threads of this work); jobs 2 reaches %.0f%% of it\n",
      s, p / 1e9, b / p, 100 * p / c }'
done
# what two processes get from this machine: no speedup above can pass it
sh "$ROOT/bench/capacity.sh" "$B"
