#!/bin/sh
# idioms.sh BUILD -- GPU idioms as litmus tests, generated at several
# sizes, each explored once by `warplab litmus FILE` (the default search)
# under a timeout, with its wall time and peak memory: one line per
# (idiom, size) with the number of states (herd's States, over the
# condition's variables), the verdict, the seconds and the peak MiB
# (GNU time's maximum resident set; "?" without /usr/bin/time, the
# seconds then being the explorer's own Time line).  Every block is one
# thread in a CTA of its own (P<i>@cta <i>,gpu 0).
#   counters   T blocks x K atomicAdds on one counter (atom.relaxed.gpu.add);
#              exists (P0's last add returns T*K-1): Ok
#   lastblock  the last-block-done reduction of CUDA's threadFenceReduction
#              sample: st.weak partial; fence.sc.gpu; atom.inc ticket; the
#              block with ticket N-1 fences, sums every partial (ld.weak)
#              and stores the sum; exists (sum != N): No
#   lock-cas   N blocks: atom.acquire.gpu.cas spin lock around c++ (ld.weak,
#              add, st.weak), unlocked by st.release.gpu;
#              exists (c != N): No (mutual exclusion)
#   lock-exch  the same unlocked by atom.release.gpu.exch
#   queue      N blocks reserve a slot with atom.relaxed.gpu.add on tail and
#              store their item there (a branch per slot: the dialect has
#              no indirect addressing); exists (some slot empty): No
#   histogram  4 blocks, 2 atomicAdds each on bins b0, b1 (P0/P2 b0 then b1,
#              P1/P3 b1 then b0); exists (P0 last on b0, first on b1): Ok
#              (relaxed atomics to different bins are not ordered)
#   grid       N-block grid barrier: st.weak own flag; fence.sc.gpu;
#              atom.relaxed.gpu.add arrivals; spin on ld.acquire.gpu until
#              it reads N; ld.weak the next block's flag;
#              exists (some block reads 0): No
# Then `--count-executions` at speed: the 3x3 and 4x3 counters' consistent
# executions (Positive + Negative) per second of wall time.
# IDIOMS_LIMIT (seconds, default 120) bounds each run; IDIOMS_DIR keeps
# the generated .litmus files in that folder.
set -u
B=${1:-build/release}
WL="$B/warplab"
LIMIT=${IDIOMS_LIMIT:-120}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
D=${IDIOMS_DIR:-$T}
mkdir -p "$D"
if command -v /usr/bin/time >/dev/null 2>&1; then HAVE_TIME=1; else HAVE_TIME=0; fi
if command -v timeout >/dev/null 2>&1; then HAVE_TIMEOUT=1; else HAVE_TIMEOUT=0; fi

# bounded CMD...: CMD under `timeout LIMIT` (or the explorer's own
# --timeout, without coreutils' timeout), timed into $T/time
bounded() {
  if [ $HAVE_TIMEOUT = 1 ]; then
    set -- timeout "$LIMIT" "$@"
  else
    set -- "$@" --timeout "$LIMIT"
  fi
  if [ $HAVE_TIME = 1 ]; then
    /usr/bin/time -f '%e %M' -o "$T/time" "$@" > "$T/out" 2> "$T/err"
  else
    "$@" > "$T/out" 2> "$T/err"
  fi
}

# measure: sets secs and peak (MiB) from the last bounded run
measure() {
  if [ $HAVE_TIME = 1 ]; then
    # shellcheck disable=SC2046
    set -- $(tail -n 1 "$T/time")
    secs=${1:-?} peak=$(( ${2:-0} / 1024 ))
  else
    secs=$(sed -n 's/^Time [^ ]* //p' "$T/out") peak="?"
  fi
}

# run NAME FILE EXPECT [options]: one line "name states verdict seconds
# MiB", the verdict followed by "(expected EXPECT)" when it is neither
# EXPECT nor "Loop EXPECT", and by "race"/"hang" when the explorer
# reports one
run() {
  name=$1 f=$2 expect=$3
  shift 3
  bounded "$WL" litmus "$@" "$f"
  rc=$?
  measure
  states=$(sed -n 's/^States //p' "$T/out")
  # the verdict: the line after the states ("Ok", "No", "Loop Ok", ...)
  verdict=$(awk '/^States /{n=$2; s=1; next} s&&n>0{n--; next} s&&NF{print; exit}' "$T/out")
  note=""
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    verdict="timeout" states="-"
  elif [ $rc -ne 0 ]; then
    verdict="fail($rc)"
    note=" $(sed -n 's/^warplab: //p' "$T/err" | tail -n 1)"
  else
    case $verdict in
      "$expect" | "Loop $expect") ;;
      *) note=" (expected $expect)" ;;
    esac
    grep -q '^Race ' "$T/out" && note="$note race"
    grep -q '^Hang ' "$T/out" && note="$note hang"
  fi
  printf '  %-16s %8s  %-8s %8s s %6s MiB%s\n' "$name" "${states:-?}" \
    "${verdict:-?}" "$secs" "$peak" "$note"
}

# Threads are written one per file, $T/col.<i>, a line per row; table N
# lays N of them side by side as the litmus table (" a | b | c ;").
col() { printf ' %s\n' "$2" >> "$T/col.$1"; }
start() { rm -f "$T"/col.*; }
table() {
  i=0 files=""
  while [ $i -lt "$1" ]; do
    [ -f "$T/col.$i" ] || : > "$T/col.$i"
    files="$files $T/col.$i"; i=$((i + 1))
  done
  # shellcheck disable=SC2086
  awk 'FNR == 1 { f++ } { c[f, FNR] = $0; if (FNR > n) n = FNR }
       END { for (k = 1; k <= n; k++) { s = ""
               for (g = 1; g <= f; g++) s = s ((g > 1) ? " |" : "") c[g, k]
               print s " ;" } }' $files
}
header() { # n: the thread row
  i=0 sep=""
  while [ $i -lt "$1" ]; do printf '%s P%d@cta %d,gpu 0' "$sep" $i $i; sep=" |"; i=$((i + 1)); done
  echo " ;"
}

counters() { # t blocks x k atomicAdds on c
  t=$1 k=$2 f="$D/counter_${t}x$k.litmus"
  start; i=0
  while [ $i -lt "$t" ]; do
    j=0; while [ $j -lt "$k" ]; do col $i "atom.relaxed.gpu.add r$j, c, 1"; j=$((j + 1)); done
    i=$((i + 1))
  done
  {
    echo "PTX counter_${t}x$k"; echo "{ c=0; }"
    header "$t"; table "$t"
    echo "exists (P0:r$((k - 1)) == $((t * k - 1)))"
  } > "$f"
}

lastblock() { # n blocks: the threadFenceReduction sample's last block
  n=$1 f="$D/lastblock_$n.litmus"
  start; i=0
  while [ $i -lt "$n" ]; do
    col $i "st.weak p$i, 1"
    col $i "fence.sc.gpu"
    col $i "atom.relaxed.gpu.inc r0, ticket, $((n - 1))"
    col $i "bne r0, $((n - 1)), LC${i}9"
    col $i "fence.sc.gpu"
    col $i "mov r1, 0"
    j=0
    while [ $j -lt "$n" ]; do
      col $i "ld.weak r2, p$j"; col $i "add r1, r1, r2"; j=$((j + 1))
    done
    col $i "st.weak sum, r1"
    col $i "LC${i}9:"
    i=$((i + 1))
  done
  {
    echo "PTX lastblock_$n"
    printf '{ ticket=0; sum=0;'
    i=0; while [ $i -lt "$n" ]; do printf ' p%d=0;' $i; i=$((i + 1)); done; echo ' }'
    header "$n"; table "$n"
    echo "exists (sum != $n)"
  } > "$f"
}

lock() { # n blocks, $2 = st or exch: cas spin lock around c++
  n=$1 how=$2 f="$D/lock_${2}_$1.litmus"
  start; i=0
  while [ $i -lt "$n" ]; do
    col $i "LC${i}0:"
    col $i "atom.acquire.gpu.cas r0, l, 0, 1"
    col $i "bne r0, 0, LC${i}0"
    col $i "ld.weak r1, c"
    col $i "add r1, r1, 1"
    col $i "st.weak c, r1"
    if [ "$how" = st ]; then col $i "st.release.gpu l, 0"
    else col $i "atom.release.gpu.exch r2, l, 0"; fi
    i=$((i + 1))
  done
  {
    echo "PTX lock_${how}_$n"; echo "{ l=0; c=0; }"
    header "$n"; table "$n"
    echo "exists (c != $n)"
  } > "$f"
}

queue() { # n blocks reserve slots q0..q(n-1) through tail
  n=$1 f="$D/queue_$n.litmus"
  start; i=0
  while [ $i -lt "$n" ]; do
    col $i "atom.relaxed.gpu.add r0, tail, 1"
    s=1; while [ $s -lt "$n" ]; do col $i "beq r0, $s, LC$i$s"; s=$((s + 1)); done
    s=0
    while [ $s -lt "$n" ]; do
      [ $s -gt 0 ] && col $i "LC$i$s:"
      col $i "st.weak q$s, $((i + 1))"
      [ $s -lt $((n - 1)) ] && col $i "goto LC${i}9"
      s=$((s + 1))
    done
    col $i "LC${i}9:"
    i=$((i + 1))
  done
  {
    echo "PTX queue_$n"
    printf '{ tail=0;'
    s=0; while [ $s -lt "$n" ]; do printf ' q%d=0;' $s; s=$((s + 1)); done; echo ' }'
    header "$n"; table "$n"
    printf 'exists ('; s=0; sep=""
    while [ $s -lt "$n" ]; do printf '%sq%d == 0' "$sep" $s; sep=' \/ '; s=$((s + 1)); done
    echo ')'
  } > "$f"
}

histogram() { # 4 blocks, 2 bins, opposite orders
  f="$D/histogram_4.litmus"
  start; i=0
  while [ $i -lt 4 ]; do
    if [ $((i % 2)) = 0 ]; then a=b0 b=b1; else a=b1 b=b0; fi
    col $i "atom.relaxed.gpu.add r0, $a, 1"
    col $i "atom.relaxed.gpu.add r1, $b, 1"
    i=$((i + 1))
  done
  {
    echo "PTX histogram_4"; echo "{ b0=0; b1=0; }"
    header 4; table 4
    echo 'exists (P0:r0 == 3 /\ P0:r1 == 0)'
  } > "$f"
}

grid() { # n-block grid barrier on an arrival counter
  n=$1 f="$D/grid_$n.litmus"
  start; i=0
  while [ $i -lt "$n" ]; do
    col $i "st.weak d$i, 1"
    col $i "fence.sc.gpu"
    col $i "atom.relaxed.gpu.add r0, arrived, 1"
    col $i "LC${i}0:"
    col $i "ld.acquire.gpu r1, arrived"
    col $i "bne r1, $n, LC${i}0"
    col $i "ld.weak r2, d$(((i + 1) % n))"
    i=$((i + 1))
  done
  {
    echo "PTX grid_$n"
    printf '{ arrived=0;'
    i=0; while [ $i -lt "$n" ]; do printf ' d%d=0;' $i; i=$((i + 1)); done; echo ' }'
    header "$n"; table "$n"
    printf 'exists ('; i=0; sep=""
    while [ $i -lt "$n" ]; do printf '%sP%d:r2 == 0' "$sep" $i; sep=' \/ '; i=$((i + 1)); done
    echo ')'
  } > "$f"
}

# count NAME FILE EXPECT: --count-executions, executions per second of
# wall time, "(expected EXPECT)" after a count that is not EXPECT
count() {
  name=$1 expect=$3
  bounded "$WL" litmus --count-executions "$2"
  rc=$?
  measure
  pn=$(sed -n 's/^Positive: \([0-9]*\) Negative: \([0-9]*\).*/\1 \2/p' "$T/out")
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    printf '  %-16s timeout after %s s\n' "$name" "$secs"
  elif [ $rc -ne 0 ] || [ -z "$pn" ]; then
    printf '  %-16s fail(%s): %s\n' "$name" "$rc" "$(sed -n 's/^warplab: //p' "$T/err" | tail -n 1)"
  else
    # shellcheck disable=SC2086
    set -- $pn
    n=$(($1 + $2)) note=""
    [ "$n" = "$expect" ] || note=" (expected $expect)"
    printf '  %-16s %9d executions %8s s %6s MiB  %s executions/s%s\n' "$name" \
      "$n" "$secs" "$peak" \
      "$(awk -v e="$n" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", e / s; else print "-" }')" \
      "$note"
  fi
}

memnote="peak MiB: GNU time's maximum resident set"
[ $HAVE_TIME = 1 ] || memnote="peak memory not measured (no /usr/bin/time); seconds from the Time line"
echo "idioms: GPU idioms, default search, ${LIMIT} s limit each; $memnote"
printf '  %-16s %8s  %-8s %8s   %6s\n' "idiom size" "states" "verdict" "seconds" "peak"
for tk in 2x2 3x3 4x3 3x4 8x1 10x1; do
  counters "${tk%x*}" "${tk#*x}"; run "counter $tk" "$D/counter_$tk.litmus" Ok
done
for n in 4 5 6 7 8; do lastblock $n; run "lastblock $n" "$D/lastblock_$n.litmus" No; done
for n in 3 4; do lock $n st; run "lock-cas $n" "$D/lock_st_$n.litmus" No; done
for n in 3 4; do lock $n exch; run "lock-exch $n" "$D/lock_exch_$n.litmus" No; done
for n in 2 3 4; do queue $n; run "queue $n" "$D/queue_$n.litmus" No; done
histogram; run "histogram 4" "$D/histogram_4.litmus" Ok
for n in 2 3 4 5 8; do grid $n; run "grid $n" "$D/grid_$n.litmus" No; done
echo "idioms: --count-executions (consistent executions per second of wall time)"
count "counter 3x3" "$D/counter_3x3.litmus" 1680
count "counter 4x3" "$D/counter_4x3.litmus" 369600
