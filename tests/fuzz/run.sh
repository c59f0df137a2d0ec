#!/bin/sh
# tests/fuzz/run.sh -- build the libFuzzer harness for the .litmus reader
# (and the explorer on what parses) and run it.  `make fuzz` runs this.
#
#   FUZZ_SECONDS  how long to fuzz (default 300)
#   FUZZ_JOBS     libFuzzer -jobs/-workers (default 1)
#   FUZZ_KEEP_GOING  1: -fork=FUZZ_JOBS -ignore_crashes=1 -ignore_timeouts=1
#                 -ignore_ooms=1, i.e. save every crash and keep fuzzing
#                 (default 0: stop at the first crash)
#   FUZZ_STOP_CALLS  should_stop calls allowed per input (default 20,
#                 about 20k units of explorer work)
#   FUZZ_ARGS     extra libFuzzer flags
#   FUZZ_CFLAGS   extra compiler flags, e.g. -fno-sanitize=pointer-overflow
#                 to look past a known UBSan finding
#   CLANG         the compiler (default clang)
#
# Output: build/fuzz/fuzz_litmus, build/fuzz/corpus (seeded from
# ../shared/conformance/dat3m/PTX), crashes in build/fuzz/crashes/.
set -eu

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
CLANG=${CLANG:-clang}
FUZZ_SECONDS=${FUZZ_SECONDS:-300}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_ARGS=${FUZZ_ARGS:-}
FUZZ_KEEP_GOING=${FUZZ_KEEP_GOING:-0}
FUZZ_STOP_CALLS=${FUZZ_STOP_CALLS:-20}
FUZZ_CFLAGS=${FUZZ_CFLAGS:-}
OUT=build/fuzz
SEEDS=
for d in "$ROOT/../shared/conformance/dat3m/PTX" /work/shared/conformance/dat3m/PTX; do
  if [ -d "$d" ]; then SEEDS=$d; break; fi
done

mkdir -p "$OUT/corpus" "$OUT/crashes"

echo "fuzz: building $OUT/fuzz_litmus"
# The sources the binary is built from, kept so that the file:line of a
# stack trace can be read even after engine/ has changed.
rm -rf "$OUT/src" && mkdir -p "$OUT/src"
cp -R engine tests/fuzz/fuzz_litmus.c "$OUT/src/"
# shellcheck disable=SC2086
"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -fno-omit-frame-pointer -std=c11 -D_POSIX_C_SOURCE=200809L \
  -DFUZZ_STOP_CALLS="$FUZZ_STOP_CALLS" $FUZZ_CFLAGS \
  tests/fuzz/fuzz_litmus.c engine/*/*.c engine/*/*/*.c -o "$OUT/fuzz_litmus"

if [ -n "$SEEDS" ]; then
  n=0
  # Copies only; shared/ is never modified.  Names are made flat and unique.
  find "$SEEDS" -name '*.litmus' -type f | sort > "$OUT/seeds.txt"
  while IFS= read -r f; do
    rel=${f#"$SEEDS"/}
    dst="$OUT/corpus/seed_$(printf '%s' "$rel" | tr '/ ' '__')"
    [ -f "$dst" ] || cp "$f" "$dst"
    n=$((n + 1))
  done < "$OUT/seeds.txt"
  echo "fuzz: $n seed files from $SEEDS"
else
  echo "fuzz: warning: no seed directory found; starting from an empty corpus"
fi
# Regression inputs found earlier join the corpus too.
for f in tests/fuzz/regress/*.litmus; do
  [ -f "$f" ] && cp "$f" "$OUT/corpus/regress_$(basename "$f")"
done

LOG="$OUT/fuzz.log"
echo "fuzz: running for ${FUZZ_SECONDS}s (jobs=$FUZZ_JOBS), log in $LOG"
start=$(date +%s)
set +e
if [ "$FUZZ_KEEP_GOING" = 1 ]; then
  PAR="-fork=$FUZZ_JOBS -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
elif [ "$FUZZ_JOBS" -gt 1 ]; then
  PAR="-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS"
else
  PAR=
fi
# shellcheck disable=SC2086
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
"$OUT/fuzz_litmus" "$OUT/corpus" \
  -dict=tests/fuzz/dict.txt -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
  -artifact_prefix="$OUT/crashes/" $PAR $FUZZ_ARGS > "$LOG" 2>&1
rc=$?
set -e
end=$(date +%s)

tail -n 40 "$LOG"
echo "----"
execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$LOG" | tail -n 1 |
        grep -o '[0-9]*$' || true)
if [ -n "$execs" ] && [ "$FUZZ_KEEP_GOING" = 1 ]; then
  execs=  # fork mode: the workers' stats are partial; use the parent's
fi
if [ -z "$execs" ]; then
  execs=$(grep -o '^#[0-9]*' "$LOG" | tail -n 1 | tr -d '#' || true)
fi
secs=$((end - start))
rate=0
if [ -n "$execs" ] && [ "$secs" -gt 0 ]; then rate=$((execs / secs)); fi
grep 'DONE' "$LOG" | tail -n 1 || true
ncrash=$(find "$OUT/crashes" -type f | wc -l)
echo "fuzz: ran ${secs}s, ${execs:-?} executions (~${rate}/s), exit $rc," \
     "$ncrash file(s) in $OUT/crashes/"
exit $rc
