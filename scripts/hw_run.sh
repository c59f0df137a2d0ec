#!/bin/sh
# hw_run.sh DIR OUT [ARGS...] -- on a machine with an NVIDIA GPU: builds
# every DIR/*.cu (programs written by `warplab cuda`) with nvcc, 16 at a
# time, then runs each with ARGS, writing OUT/NAME.hist (the histogram)
# and OUT/NAME.err, and one line "NAME STATUS MILLISECONDS" per program to
# OUT/status.txt (NAME may hold spaces: the last two fields are the
# status and the time; a newline or tab in it is written as '?').  A
# program that runs past $HW_TIMEOUT seconds (default 60) is stopped.
# File names are passed as arguments only (never as shell text), so any
# name is safe.
set -u
dir=$1
out=$2
shift 2
arch=${HW_ARCH:-sm_90}
case $dir in /*) ;; *) dir=./$dir ;; esac # a name never reads as an option
mkdir -p "$out"
for f in "$dir"/*.cu; do
  [ -f "$f" ] && printf '%s\0' "$f"
done | xargs -0 -n 1 -P "${HW_JOBS:-16}" sh -c \
  'nvcc -O3 -arch="$0" -w -o "${1%.cu}" "$1" 2>"${1%.cu}.nvcc" ||
   printf "nvcc failed: %s\n" "$1"' "$arch"
for f in "$dir"/*.cu; do
  [ -f "$f" ] || continue
  b=${f%.cu}
  n=$(basename "$b")
  t0=$(date +%s%N)
  timeout "${HW_TIMEOUT:-60}" "$b" "$@" >"$out/$n.hist" 2>"$out/$n.err"
  rc=$?
  t1=$(date +%s%N)
  printf '%s %s %s\n' "$(printf '%s' "$n" | tr '\n\t' '??')" "$rc" \
    "$(( (t1 - t0) / 1000000 ))" >>"$out/status.txt"
done
