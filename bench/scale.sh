#!/bin/sh
# scale.sh BUILD -- how the explorer grows: families of generated tests,
# each size explored once by `warplab litmus`, with its wall time and
# peak memory (GNU time's maximum resident set), so the curve is visible.
# Families: threads (n threads storing to and loading from one location),
# identical threads (an exch spin lock around x++: symmetry and lock
# loops),
# writers per location (k writers, one reader with two loads), loop
# iterations (the four-block grid barrier at growing --unroll, without
# and with fences), instructions (two threads of n stores / n loads),
# then GPU idioms at several sizes (bench/idioms.sh: counters, the
# last-block reduction, spin locks, work queues, a histogram, grid
# barriers, and --count-executions per second).
# SCALE_LIMIT (seconds, default 20) bounds each run.
set -u
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WL="$B/warplab"
LIMIT=${SCALE_LIMIT:-20}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# run NAME FILE [options]: one line "family size: time s, peak MB, and
# the number of states over the condition's variables (herd's States)"
run() {
  name=$1 f=$2
  shift 2
  if command -v /usr/bin/time >/dev/null 2>&1; then
    /usr/bin/time -f '%e %M' -o "$T/time" "$WL" litmus --timeout "$LIMIT" \
      "$@" "$f" > "$T/out" 2> "$T/err"
    rc=$?
    # shellcheck disable=SC2046
    set -- $(tail -n 1 "$T/time")
    secs=$1 peak=$(( ${2:-0} / 1024 ))
  else
    "$WL" litmus --timeout "$LIMIT" "$@" "$f" > "$T/out" 2> "$T/err"
    rc=$?
    secs=$(sed -n 's/^Time [^ ]* //p' "$T/out") peak="?"
  fi
  states=$(sed -n 's/^States //p' "$T/out")
  note=""
  [ $rc -eq 0 ] || note=" ($(sed -n 's/^warplab: //p' "$T/err" | tail -n 1))"
  printf '  %-28s %7s s %6s MB  %s%s\n' "$name" "$secs" "$peak" \
    "${states:-?}" "$note"
}

threads() { # n: every thread stores its own value to x, then loads x
  n=$1
  {
    echo "PTX SL$n"; echo "{ x=0; }"
    i=0; sep=""
    while [ $i -lt "$n" ]; do printf '%s P%d@cta %d,gpu 0' "$sep" $i $i; sep=" |"; i=$((i + 1)); done; echo " ;"
    i=0; sep=""
    while [ $i -lt "$n" ]; do printf '%s st.relaxed.gpu x, %d' "$sep" $((i + 1)); sep=" |"; i=$((i + 1)); done; echo " ;"
    i=0; sep=""
    while [ $i -lt "$n" ]; do printf '%s ld.relaxed.gpu r0, x' "$sep"; sep=" |"; i=$((i + 1)); done; echo " ;"
    echo "exists (0:r0 == 1)"
  } > "$T/sl$n.litmus"
}

writers() { # k writers of x, one reader loading x twice
  k=$1
  {
    echo "PTX W$k"; echo "{ x=0; }"
    i=0; sep=""
    while [ $i -le "$k" ]; do printf '%s P%d@cta %d,gpu 0' "$sep" $i $i; sep=" |"; i=$((i + 1)); done; echo " ;"
    printf ' ld.relaxed.gpu r0, x'; i=1
    while [ $i -le "$k" ]; do printf ' | st.relaxed.gpu x, %d' $i; i=$((i + 1)); done; echo " ;"
    printf ' ld.relaxed.gpu r1, x'; i=1
    while [ $i -le "$k" ]; do printf ' |'; i=$((i + 1)); done; echo " ;"
    echo "exists (0:r0 == 2 /\\ 0:r1 == 1)"
  } > "$T/w$k.litmus"
}

grid() { # the four-block grid barrier; $1: 1 for fence.sc around the spin
  fen=$1
  {
    echo "PTX grid$fen"; echo "{ f0=0; f1=0; f2=0; f3=0; c=0; }"
    echo " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;"
    echo " st.relaxed.gpu f0, 1 | st.relaxed.gpu f1, 1 | st.relaxed.gpu f2, 1 | st.relaxed.gpu f3, 1 ;"
    [ "$fen" = 1 ] && echo " fence.sc.gpu | fence.sc.gpu | fence.sc.gpu | fence.sc.gpu ;"
    echo " red.relaxed.gpu.add c, 1 | red.relaxed.gpu.add c, 1 | red.relaxed.gpu.add c, 1 | red.relaxed.gpu.add c, 1 ;"
    echo " LC00: | LC10: | LC20: | LC30: ;"
    echo " ld.relaxed.gpu r0, c | ld.relaxed.gpu r0, c | ld.relaxed.gpu r0, c | ld.relaxed.gpu r0, c ;"
    echo " bne r0, 4, LC00 | bne r0, 4, LC10 | bne r0, 4, LC20 | bne r0, 4, LC30 ;"
    [ "$fen" = 1 ] && echo " fence.sc.gpu | fence.sc.gpu | fence.sc.gpu | fence.sc.gpu ;"
    echo " ld.relaxed.gpu r1, f1 | ld.relaxed.gpu r1, f2 | ld.relaxed.gpu r1, f3 | ld.relaxed.gpu r1, f0 ;"
    echo "exists (0:r1 == 0 \\/ 1:r1 == 0 \\/ 2:r1 == 0 \\/ 3:r1 == 0)"
  } > "$T/grid$fen.litmus"
}

insns() { # two threads: n release stores, n acquire loads in reverse
  n=$1
  {
    echo "PTX I$n"; printf '{'; i=0
    while [ $i -lt "$n" ]; do printf ' x%d=0;' $i; i=$((i + 1)); done; echo ' }'
    echo " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;"
    i=0
    while [ $i -lt "$n" ]; do
      printf ' st.release.gpu x%d, 1 | ld.acquire.gpu r%d, x%d ;\n' $i $i $((n - 1 - i))
      i=$((i + 1))
    done
    echo "exists (1:r0 == 1 /\\ 1:r$((n - 1)) == 0)"
  } > "$T/i$n.litmus"
}

pairs() { # n threads of two instructions: st x_i, ld x_(i+1) (an SB ring)
  n=$1
  {
    echo "PTX R$n"; printf '{'; i=0
    while [ $i -lt "$n" ]; do printf ' x%d=0;' $i; i=$((i + 1)); done; echo ' }'
    i=0; sep=""
    while [ $i -lt "$n" ]; do printf '%s P%d@cta %d,gpu 0' "$sep" $i $i; sep=" |"; i=$((i + 1)); done; echo " ;"
    i=0; sep=""
    while [ $i -lt "$n" ]; do printf '%s st.relaxed.gpu x%d, 1' "$sep" $i; sep=" |"; i=$((i + 1)); done; echo " ;"
    i=0; sep=""
    while [ $i -lt "$n" ]; do printf '%s ld.relaxed.gpu r0, x%d' "$sep" $(((i + 1) % n)); sep=" |"; i=$((i + 1)); done; echo " ;"
    echo "exists (0:r0 == 0)"
  } > "$T/r$n.litmus"
}

lock() { # n identical threads: an exch spin lock around x++ (symmetry)
  n=$1
  {
    echo "PTX LOCK$n"; echo "{ m=0; x=0; }"
    row() { i=0; sep=""; while [ $i -lt "$n" ]; do printf '%s %s' "$sep" "$1"; sep=" |"; i=$((i + 1)); done; echo " ;"; }
    i=0; sep=""
    while [ $i -lt "$n" ]; do printf '%s P%d@cta %d,gpu 0' "$sep" $i $i; sep=" |"; i=$((i + 1)); done; echo " ;"
    row "LC00:"
    row "atom.acquire.gpu.exch r0, m, 1"
    row "bne r0, 0, LC00"
    row "ld.relaxed.gpu r1, x"
    row "add r1, r1, 1"
    row "st.relaxed.gpu x, r1"
    row "st.release.gpu m, 0"
    echo "exists (x != $n)"
  } > "$T/lock$n.litmus"
}

echo "scale: threads (n threads storing to and loading from x)"
for n in 2 3 4 5 6 7 8; do threads $n; run "threads $n" "$T/sl$n.litmus"; done
threads 7; run "threads 7 (--full-states)" "$T/sl7.litmus" --full-states
threads 8; run "threads 8 (--full-states --max-memory 128)" "$T/sl8.litmus" --full-states --max-memory 128
echo "scale: identical threads (an exch spin lock around x++, n threads)"
for n in 2 3 4 5 6; do lock $n; run "lock $n" "$T/lock$n.litmus"; done
echo "scale: writers per location (k writers of x, a reader of x twice)"
for k in 2 3 4 5 6; do writers $k; run "writers $k" "$T/w$k.litmus"; done
echo "scale: loop iterations (grid barrier, 4 blocks, at --unroll N)"
grid 0; grid 1
for u in 1 2 4 8 16; do run "grid unroll $u" "$T/grid0.litmus" --unroll $u; done
for u in 1 2 4 8 16; do run "grid+fence.sc unroll $u" "$T/grid1.litmus" --unroll $u; done
echo "scale: instructions (2 threads of n accesses)"
for n in 2 4 8 16 24; do insns $n; run "insns $n" "$T/i$n.litmus"; done
echo "scale: threads of two instructions (an SB ring of n threads)"
for n in 2 4 6 8 16 24 32 48 64; do pairs $n; run "ring $n" "$T/r$n.litmus"; done
"$WL" run "$ROOT/bench/scale_fn.lua"
sh "$ROOT/bench/idioms.sh" "$B"
