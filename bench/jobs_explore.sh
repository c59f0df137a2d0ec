#!/bin/sh
# jobs_explore.sh BUILD -- one exploration across cores: `warplab litmus
# --jobs 2` against `--jobs 1` on the last-block-done reduction
# (bench/lastblock.awk), at the first size from 10 blocks on whose
# exploration takes over 10 s with --jobs 1 (at most 14 blocks).  Prints
# both wall times, the speedup (issue 24's target on two cores: 1.7x)
# and whether the two outputs are identical (but the Time line), with
# the machine's load average before and after (other work on the
# machine makes the speedup meaningless, so it is shown), and the CPU
# seconds of each run (the work the split adds, whatever the load).
set -u
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WL="$B/warplab"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
now() { date +%s.%N; }
# timed FILE OUT ARGS...: seconds of wall time of warplab litmus ARGS
# (and its CPU seconds, user + system, in $T/cpu.OUT's name when GNU
# time is there)
timed() {
  f=$1 out=$2
  shift 2
  t0=$(now)
  if command -v /usr/bin/time > /dev/null 2>&1; then
    /usr/bin/time -f '%U %S' -o "$out.cpu" "$WL" litmus "$@" "$f" > "$out" 2> "$T/err" ||
      { cat "$T/err" >&2; echo fail; return; }
  else
    "$WL" litmus "$@" "$f" > "$out" 2> "$T/err" || { cat "$T/err" >&2; echo fail; return; }
    echo "? ?" > "$out.cpu"
  fi
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
cpu() { awk '{ if ($1 == "?") print "?"; else printf "%.2f", $1 + $2 }' "$1.cpu"; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
l0=$(load)
n=10
while :; do
  awk -v n="$n" -f "$ROOT/bench/lastblock.awk" > "$T/lb.litmus"
  s1=$(timed "$T/lb.litmus" "$T/out1" --jobs 1)
  [ "$s1" = fail ] && { echo "jobs_explore: lastblock $n --jobs 1 failed"; exit 1; }
  if awk -v s="$s1" 'BEGIN { exit !(s > 10) }' || [ "$n" -ge 14 ]; then
    break
  fi
  n=$((n + 1))
done
s2=$(timed "$T/lb.litmus" "$T/out2" --jobs 2)
[ "$s2" = fail ] && { echo "jobs_explore: lastblock $n --jobs 2 failed"; exit 1; }
same=identical
grep -v '^Time ' "$T/out1" > "$T/a"
grep -v '^Time ' "$T/out2" > "$T/b"
cmp -s "$T/a" "$T/b" || same=DIFFERENT
echo "jobs_explore: lastblock $n (one exploration, $(nproc) cores, load $l0 -> $(load)):" \
  "--jobs 1 $s1 s, --jobs 2 $s2 s: speedup" \
  "$(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%.2f", a / b }')x" \
  "(target 1.7x); CPU $(cpu "$T/out1") s and $(cpu "$T/out2") s;" \
  "outputs $same"
[ "$same" = identical ]
