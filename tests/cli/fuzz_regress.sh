#!/bin/sh
# The reproducers the fuzzers found (tests/fuzz/regress/), replayed
# through their harnesses without libFuzzer (tests/fuzz/replay.c): by
# suffix, .litmus (fuzz_litmus), .insn (fuzz_insn), .cat (fuzz_cat),
# .bin (fuzz_lua), .cuda (fuzz_cuda).  A crash or a sanitizer report
# fails the test.
set -eu
B=$(dirname "$WL")
cd "$ROOT"
for kind in litmus:litmus insn:insn cat:cat lua:bin cuda:cuda; do
  t=${kind%%:*}
  ext=${kind#*:}
  set -- tests/fuzz/regress/*."$ext"
  [ -f "$1" ] || continue
  "$B/tests/replay_$t" "$@"
done
