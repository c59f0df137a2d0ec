#!/bin/sh
# tests/fuzz/run.sh -- build the libFuzzer harnesses and run them.  `make
# fuzz` runs this (every target in turn, FUZZ_SECONDS each, unless
# FUZZ_TARGET names one); it exits non-zero when any target failed.
#
#   FUZZ_TARGET   all (the default): litmus, insn, cat, lua, cuda in turn;
#                 litmus: the .litmus reader, the explorer and the
#                 simulator on what parses (fuzz_litmus.c);
#                 insn: PTX instruction strings and condition texts of
#                 wl.litmus threads (fuzz_insn.c);
#                 cat: the cat reader and the literal evaluator on a tiny
#                 candidate (fuzz_cat.c);
#                 lua: the Lua API surface, generated snippets in a fresh
#                 lua_State with a count hook (fuzz_lua.c);
#                 cuda: the .litmus reader and the CUDA emitter, with
#                 checks on the program's text (fuzz_cuda.c; seeds:
#                 tests/hw, regress files *.cuda, "#file:NAME" first)
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
# Output: build/fuzz/fuzz_TARGET, build/fuzz/corpus-TARGET (seeded from
# ../shared and tests/fuzz/regress/*.TARGET-kind files), crashes in
# build/fuzz/crashes-TARGET/, the log in build/fuzz/TARGET.log.
set -eu

if [ "${FUZZ_TARGET:-all}" = all ]; then
  self=$(cd "$(dirname "$0")" && pwd)/run.sh
  rc=0
  for t in litmus insn cat lua cuda; do
    FUZZ_TARGET=$t sh "$self" || { echo "fuzz: $t FAILED"; rc=1; }
  done
  exit $rc
fi

cd "$(dirname "$0")/../.."
ROOT=$(pwd)
CLANG=${CLANG:-clang}
FUZZ_SECONDS=${FUZZ_SECONDS:-300}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_ARGS=${FUZZ_ARGS:-}
FUZZ_KEEP_GOING=${FUZZ_KEEP_GOING:-0}
FUZZ_STOP_CALLS=${FUZZ_STOP_CALLS:-20}
FUZZ_CFLAGS=${FUZZ_CFLAGS:-}
T=$FUZZ_TARGET
OUT=build/fuzz
SHARED=
for d in "$ROOT/../shared" /work/shared; do
  if [ -d "$d/conformance" ]; then SHARED=$d; break; fi
done
# per target: seed folder, seed file pattern, the kind of regress files
case $T in
  litmus) SEEDS=${SHARED:+$SHARED/conformance/dat3m/PTX}; PAT='*.litmus'
          KIND=litmus; MAXLEN=4096; DICT=-dict=tests/fuzz/dict-litmus.txt ;;
  insn) SEEDS=tests/fuzz/seeds/insn; PAT='*.insn'; KIND=insn; MAXLEN=1024
        DICT=-dict=tests/fuzz/dict-litmus.txt ;;
  cat) SEEDS=models; PAT='*.cat'; KIND=cat; MAXLEN=8192
       DICT=-dict=tests/fuzz/dict-cat.txt ;;
  lua) SEEDS=tests/fuzz/seeds/lua; PAT='*.bin'; KIND=bin; MAXLEN=512
       DICT= ;; # the input drives a generator: no words to suggest
  cuda) SEEDS=tests/hw; PAT='*.litmus'; KIND=cuda; MAXLEN=4096
        DICT=-dict=tests/fuzz/dict-litmus.txt ;;
  *) echo "fuzz: FUZZ_TARGET must be litmus, insn, cat, lua or cuda" >&2
     exit 2 ;;
esac
CORPUS=$OUT/corpus-$T
CRASHES=$OUT/crashes-$T

mkdir -p "$CORPUS" "$CRASHES"

echo "fuzz: building $OUT/fuzz_$T"
# The sources the binary is built from, kept so that the file:line of a
# stack trace can be read even after engine/ has changed.
rm -rf "$OUT/src-$T" && mkdir -p "$OUT/src-$T"
cp -R engine bindings "tests/fuzz/fuzz_$T.c" "$OUT/src-$T/"
# the CUDA harness's text, generated as the Makefile does
sh scripts/embed_cuda.sh "$OUT/harness.c" head=engine/emit/harness_head.cu \
  check=engine/emit/harness_check.cu \
  body=engine/emit/harness_body.cu \
  host=engine/emit/harness_host.cu \
  two_head=engine/emit/harness_two_head.cu \
  two_body=engine/emit/harness_two.cu \
  stream=engine/emit/harness_stream.cu
SRC="tests/fuzz/fuzz_$T.c engine/*/*.c engine/*/*/*.c $OUT/harness.c"
EXTRA="-Iengine/emit"
if [ "$T" = lua ]; then
  # the Lua module as warplab.so is built, with Lua and libuv from the
  # system (not instrumented); its pure-Lua part embedded
  sh scripts/embed.sh "$OUT/lua_embed.c" scripts/warplab/*.lua
  SRC="$SRC bindings/l*.c $OUT/lua_embed.c"
  EXTRA="$EXTRA -Ibindings $(pkg-config --cflags lua5.4 libuv 2>/dev/null ||
          echo -I/usr/include/lua5.4)"
  LIBS="$(pkg-config --libs lua5.4 libuv 2>/dev/null || echo -llua5.4 -luv) -lm"
else
  LIBS=
fi
# shellcheck disable=SC2086
"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -fno-omit-frame-pointer -std=c11 -D_POSIX_C_SOURCE=200809L -DWL_ASSERTS \
  -DFUZZ_STOP_CALLS="$FUZZ_STOP_CALLS" $FUZZ_CFLAGS $EXTRA \
  $SRC $LIBS -o "$OUT/fuzz_$T"

if [ -n "$SEEDS" ] && [ -d "$SEEDS" ]; then
  n=0
  # Copies only; shared/ is never modified.  Names are made flat and unique.
  find "$SEEDS" -name "$PAT" -type f | sort > "$OUT/seeds-$T.txt"
  while IFS= read -r f; do
    rel=${f#"$SEEDS"/}
    dst="$CORPUS/seed_$(printf '%s' "$rel" | tr '/ ' '__')"
    [ -f "$dst" ] || cp "$f" "$dst"
    n=$((n + 1))
  done < "$OUT/seeds-$T.txt"
  echo "fuzz: $n seed files from $SEEDS"
else
  echo "fuzz: warning: no seed directory found; starting from an empty corpus"
fi
# Regression inputs found earlier join the corpus too.
for f in tests/fuzz/regress/*."$KIND"; do
  [ -f "$f" ] && cp "$f" "$CORPUS/regress_$(basename "$f")"
done
# The cat target's own seeds: models split into files that include
# each other (fuzz_cat.c: "---" lines).
if [ "$T" = cat ]; then
  for f in tests/fuzz/seeds/cat/*.cat; do
    [ -f "$f" ] && cp "$f" "$CORPUS/own_$(basename "$f")"
  done
fi

LOG="$OUT/$T.log"
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
"$OUT/fuzz_$T" "$CORPUS" \
  $DICT -max_len=$MAXLEN -timeout=10 \
  -rss_limit_mb=2048 -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
  -artifact_prefix="$CRASHES/" $PAR $FUZZ_ARGS > "$LOG" 2>&1
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
ncrash=$(find "$CRASHES" -type f | wc -l)
echo "fuzz: $T ran ${secs}s, ${execs:-?} executions (~${rate}/s), exit $rc," \
     "$ncrash file(s) in $CRASHES/"
exit $rc
