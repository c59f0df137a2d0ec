#!/bin/sh
# run.sh BUILD -- the benchmarks (never part of make test).
set -eu
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(sh "$ROOT/scripts/shared.sh" "$ROOT")
C="$SHARED/conformance/dat3m"
echo "machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
"$B/bench/litmus_bench" "$C/expected/PTXv6_0-expected.csv" "$C/PTX" "${BENCH_REPEATS:-10}"
# the second engine on the same rows, and on every v7.5 row
"$B/bench/litmus_bench" "$C/expected/PTXv6_0-expected.csv" "$C/PTX" \
  "${BENCH_REPEATS:-10}" "$SHARED/spec/ptx-v6.0-isa.cat"
"$B/bench/litmus_bench" "$C/expected/PTXv7_5-expected.csv" "$C/PTX" \
  "${BENCH_REPEATS:-10}" "$SHARED/spec/ptx-v7.5.cat"
"$B/warplab" run "$ROOT/bench/lua_shapes.lua" "${BENCH_LUA_REPEATS:-200}"
# reading large cat models (linear in their size)
sh "$ROOT/bench/cat_load.sh" "$B"
# the explorer's growth: time and peak memory per size, family by family
sh "$ROOT/bench/scale.sh" "$B"
sh "$ROOT/bench/sample_rate.sh" "$B"
# files across cores: litmus --jobs 2 against --jobs 1 on 1,434 tests
sh "$ROOT/bench/jobs_files.sh" "$B"
# one exploration across cores: --jobs 2 against --jobs 1 (issue 24)
sh "$ROOT/bench/jobs_explore.sh" "$B"
# the same over MPI ranks (issue 23): 1, 2, 4 ranks of warplab-mpi
sh "$ROOT/bench/mpi_scale.sh" "$B"
# kernels: warp memory instructions per second for the tiled matmul
"$B/warplab" run "$ROOT/bench/kernel_rate.lua" "${BENCH_KERNEL_REPEATS:-5}"
# the per-thread style's ceiling: that kernel as plain Lua, no simulation
"$B/warplab" run "$ROOT/bench/kernel_bound.lua" "${BENCH_KERNEL_REPEATS:-5}"
# two independent processes at once (a launch runs in one lua_State)
t1=$(mktemp) t2=$(mktemp)
"$B/warplab" run "$ROOT/bench/kernel_rate.lua" 5 > "$t1" &
"$B/warplab" run "$ROOT/bench/kernel_rate.lua" 5 > "$t2"
wait
# the per-thread kernel's line (the first)
r1=$(sed -n 's/.*-> \([0-9]*\) warp.*/\1/p' "$t1" | head -n 1)
r2=$(sed -n 's/.*-> \([0-9]*\) warp.*/\1/p' "$t2" | head -n 1)
echo "kernel: 2 processes at once: $r1 + $r2 = $((r1 + r2)) warp memory instructions/s"
rm -f "$t1" "$t2"
# one kernel run many times across cores (dev:runs): jobs 2 against 1
sh "$ROOT/bench/kernel_runs.sh" "$B"
sh "$ROOT/bench/kernel_split.sh" "$B"
# kernels against the sampler: the nine shapes of tests/hw/shapes as
# per-thread and warp-vector kernels, at the launch's own slice and one
# access per turn (about 2 minutes each on one core)
"$B/warplab" run "$ROOT/bench/kernel_shapes.lua" "${BENCH_SHAPES_RUNS:-10000}"
"$B/warplab" run "$ROOT/bench/kernel_shapes.lua" "${BENCH_SHAPES_RUNS:-10000}" 1 1
# the link model against two GPUs, every row within 3x (minutes: the
# rarest row takes ~10^9 runs)
sh "$ROOT/bench/link_rates.sh" "$B"
# inside one SM at the H100's instance counts, every row as the H100
# (10 minutes: 38 cells of ~10^8 runs)
sh "$ROOT/bench/cta_rates.sh" "$B"
# the v6.0 conformance tests that ran on the H100: each condition seen,
# or never seen, as there (minutes: 90 tests at the H100's instances)
sh "$ROOT/bench/hw_conformance.sh" "$B"
# the h100 profile against the H100 on issue 22's generated set (283
# tests at the H100's instance counts: many minutes)
sh "$ROOT/bench/hw_set.sh" "$B"
