#!/bin/sh
# run.sh BUILD -- the benchmarks (never part of make test).
set -eu
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(sh "$ROOT/scripts/shared.sh" "$ROOT")
C="$SHARED/conformance/dat3m"
echo "machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //')"
"$B/bench/litmus_bench" "$C/expected/PTXv6_0-expected.csv" "$C/PTX" "${BENCH_REPEATS:-10}"
"$B/warplab" run "$ROOT/bench/lua_shapes.lua" "${BENCH_LUA_REPEATS:-200}"
sh "$ROOT/bench/sample_rate.sh" "$B"
