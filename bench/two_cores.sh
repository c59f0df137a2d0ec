#!/bin/sh
# two_cores.sh [BUILD] -- the speed benches of issues 21 and 24 pinned to
# two cores (taskset -c 0,1), for a machine with more cores and nothing
# else running (the numbers in README's "Measured" came from one).
# BUILD holds warplab (and, when copied to a machine without the
# packages, liblua5.4.so.0 and libuv.so.1 beside it).
cd "$(dirname "$0")/.." || exit 1
B=$(cd "${1:-build/release}" && pwd)
export LD_LIBRARY_PATH=$B
echo "machine: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "load: $(cat /proc/loadavg)"
"$B/warplab" --version | head -n 1
echo "== jobs_files"; taskset -c 0,1 sh bench/jobs_files.sh "$B" 21
echo "== kernel_rate"; taskset -c 0,1 "$B/warplab" run bench/kernel_rate.lua 5
echo "== kernel_bound"; taskset -c 0,1 "$B/warplab" run bench/kernel_bound.lua 5
echo "== kernel_split"; taskset -c 0,1 sh bench/kernel_split.sh "$B" 5
echo "== sample_rate"; taskset -c 0,1 sh bench/sample_rate.sh "$B"
echo "== jobs_explore"; taskset -c 0,1 sh bench/jobs_explore.sh "$B"
echo "== kernel_runs"; taskset -c 0,1 sh bench/kernel_runs.sh "$B" 3
