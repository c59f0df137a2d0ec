#!/bin/sh
# hw_run.sh DIR OUT [ARGS...] -- on a machine with an NVIDIA GPU: builds
# every DIR/*.cu (programs written by `warplab cuda`) with nvcc, 16 at a
# time, then runs each with ARGS, writing OUT/NAME.hist (the histogram)
# and OUT/NAME.err, and one line "NAME STATUS MILLISECONDS" per program to
# OUT/status.txt.  A program that runs past $HW_TIMEOUT seconds (default
# 60) is stopped.
set -u
dir=$1
out=$2
shift 2
arch=${HW_ARCH:-sm_90}
mkdir -p "$out"
ls "$dir"/*.cu | xargs -P "${HW_JOBS:-16}" -I{} sh -c \
  'nvcc -O3 -arch='"$arch"' -w -o "${1%.cu}" "$1" 2>"${1%.cu}.nvcc" ||
   echo "nvcc failed: $1"' _ {}
for f in "$dir"/*.cu; do
  b=${f%.cu}
  n=$(basename "$b")
  t0=$(date +%s%N)
  timeout "${HW_TIMEOUT:-60}" "$b" "$@" >"$out/$n.hist" 2>"$out/$n.err"
  rc=$?
  t1=$(date +%s%N)
  echo "$n $rc $(( (t1 - t0) / 1000000 ))" >>"$out/status.txt"
done
