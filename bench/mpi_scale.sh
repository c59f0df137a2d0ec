#!/bin/sh
# mpi_scale.sh BUILD -- warplab-mpi under mpirun at 1, 2 and 4 ranks
# (one libuv job each, --oversubscribe past the cores): sampled runs
# per second (step by step, --no-exact, and from the exact law) and
# .litmus files per second on the conformance corpus, and the time of one
# exploration split over the ranks (the 10-block last-block reduction),
# with the speedup
# over one rank.  Wall-clock time of the whole mpirun (start-up, the
# work, the merge on rank 0), and the CPU time of mpirun and its ranks
# (on a machine other programs load, the wall clock says little; equal
# CPU time at 1 and 2 ranks says the split costs nothing).  Issue 23's target: 2 ranks on two cores
# at least 1.7x one rank, for sampling and for the corpus.  Skipped,
# saying why, without Open MPI or warplab-mpi (make MPI=1).
set -eu
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(sh "$ROOT/scripts/shared.sh" "$ROOT")
M="$B/warplab-mpi"
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$M" ]; then
  echo "mpi_scale: skipped: needs mpirun and $M (WARPLAB_DEPS=mpi sh scripts/deps.sh; make MPI=1)"
  exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
N=${BENCH_MPI_RUNS:-4000000}
NX=${BENCH_MPI_EXACT_RUNS:-2000000000}
TM="${TMPDIR:-/tmp}/mpi_scale_time.$$"
trap 'rm -f "$TM"' EXIT
command -v /usr/bin/time >/dev/null 2>&1 ||
  { echo "mpi_scale: skipped: needs /usr/bin/time (apt-get install time)"; exit 0; }
# scale WHAT UNITS COUNT CMD...: the time at 1, 2, 4 ranks and the rates
scale() {
  what=$1 units=$2 count=$3
  shift 3
  t1=
  for np in 1 2 4; do
    # (exit 1: some file of the corpus failed, as it does in one process)
    rc=0
    # (--bind-to none: a rank bound to a core another program keeps busy
    # cannot move, which on a shared machine skews one rank against two)
    /usr/bin/time -f '%e %U %S' -o "$TM" \
      mpirun --oversubscribe --bind-to none -np $np "$@" > /dev/null 2>&1 ||
      rc=$?
    [ $rc -le 1 ] || { echo "mpi_scale: $what at $np ranks: exit $rc"; return 1; }
    # wall seconds, and the CPU seconds of mpirun and its ranks
    t=$(awk 'END { printf "%.3f", $1 }' "$TM")
    cpu=$(awk 'END { printf "%.3f", $2 + $3 }' "$TM")
    [ -n "$t1" ] || t1=$t
    awk -v w="$what" -v u="$units" -v n="$count" -v np=$np -v t="$t" \
      -v t1="$t1" -v cpu="$cpu" 'BEGIN {
      note = ""
      if (np == 2 && w !~ /^explore/)
        note = t1 / t >= 1.7 ? " (target 1.7x: met)" : " (target 1.7x: NOT met)"
      printf "mpi: %-22s %d ranks  %.2f s  %.3g %s/s  speedup %.2fx  cpu %.2f s%s\n",
             w, np, t, n / t, u, t1 / t, cpu, note
    }'
  done
}
echo "mpi: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) before"
scale "sample SB --no-exact" runs "$N" "$M" sample --jobs 1 --no-exact \
  -n "$N" "$ROOT/scripts/litmus/SB.litmus"
scale "sample SB (law)" runs "$NX" "$M" sample --jobs 1 -n "$NX" \
  "$ROOT/scripts/litmus/SB.litmus"
# 1,434 generated tests (issue 24's count; small ones: milliseconds each)
G="${TMPDIR:-/tmp}/mpi_scale_gen.$$"
"$B/warplab" gen --random --count 1434 --seed 1 -o "$G" > /dev/null 2>&1
# shellcheck disable=SC2046
scale "litmus 1,434 generated" files 1434 "$M" litmus --jobs 1 \
  $(ls "$G"/*.litmus | LC_ALL=C sort)
rm -rf "$G"
# the corpus: one file (169_simple) takes about two thirds of it, so
# dealing whole files to ranks is bounded by that file (an exploration
# split over ranks is what would go past it)
C="$SHARED/conformance/dat3m/PTX"
if [ -d "$C" ]; then
  find "$C" -name '*.litmus' | LC_ALL=C sort > "${TMPDIR:-/tmp}/mpi_scale.$$"
  nf=$(wc -l < "${TMPDIR:-/tmp}/mpi_scale.$$")
  # shellcheck disable=SC2046
  scale "litmus corpus" files "$nf" "$M" litmus --jobs 1 \
    $(cat "${TMPDIR:-/tmp}/mpi_scale.$$")
  rm -f "${TMPDIR:-/tmp}/mpi_scale.$$"
fi
# one exploration split over the ranks (its units dealt to them, merged
# on rank 0): the 10-block last-block-done reduction (bench/
# lastblock.awk; about 5 s in one process), one worker a rank.  A rank's
# units know only its own earlier units' states, so the split searches
# more than one process does: its CPU time grows with the ranks
L="${TMPDIR:-/tmp}/mpi_scale_lastblock.$$.litmus"
awk -v n=10 -f "$ROOT/bench/lastblock.awk" > "$L"
scale "explore lastblock 10" explorations 1 "$M" litmus --jobs 1 "$L"
rm -f "$L"
echo "mpi: load $(cut -d' ' -f1-3 /proc/loadavg) after"
