# warplab-mpi sample under mpirun (issue 23): the runs split over 1, 2
# and 4 ranks give the histogram one process gives with the same seed
# and total, byte for byte (but the Time lines), with the exact law and
# step by step, as text and JSON, with fewer runs than ranks; a file
# that cannot be read fails once, the others still print; --timeout and
# SIGTERM on mpirun stop every rank and print the merged partial
# histogram, marked Partial, its counts adding up to its runs.  Skipped,
# saying why, where Open MPI is not installed (make test builds
# warplab-mpi where it is).
set -u
: "${ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${WL:=$ROOT/build/release/warplab}"
M=$(dirname "$WL")/warplab-mpi
if ! command -v mpirun >/dev/null 2>&1; then
  echo "SKIP mpi_sample: mpirun is not installed (WARPLAB_DEPS=mpi sh scripts/deps.sh)" >&2
  exit 0
fi
fail() { echo "$*"; exit 1; }
[ -x "$M" ] || fail "no $M: build it with make MPI=1 (Open MPI is installed)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Open MPI refuses root without these; its own allocations at exit are
# not warplab's (a sanitizer build's leak check)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
MPI="timeout -k 5 300 mpirun --oversubscribe"
# an Open MPI that cannot start a job here (no usable network, a
# container's limits) is the machine's: said, and skipped
if ! $MPI -np 2 true > "$T/probe" 2>&1; then
  echo "SKIP mpi_sample: mpirun cannot start 2 ranks here:" >&2
  tail -n 5 "$T/probe" >&2
  exit 0
fi
L=$ROOT/scripts/litmus
F="$L/MP.litmus $L/SB.litmus $L/LB.litmus $L/CoRR.litmus $L/IRIW+threadfence.litmus $L/MP+syncthreads.litmus"
same() { # ARGS...: one process against 1, 2 and 4 ranks
  "$WL" sample "$@" > "$T/one" 2> "$T/one.err"
  want=$?
  grep -v '^Time \|"time":' "$T/one" > "$T/one.s"
  for np in 1 2 4; do
    $MPI -np $np "$M" sample "$@" > "$T/np" 2> "$T/np.err"
    rc=$?
    [ $rc -eq $want ] ||
      { cat "$T/np.err"; fail "np $np sample $*: exit $rc, one process $want"; }
    grep -v '^Time \|"time":' "$T/np" > "$T/np.s"
    cmp -s "$T/one.s" "$T/np.s" ||
      { diff "$T/one.s" "$T/np.s" | head -n 20; fail "np $np sample $*: differs"; }
  done
}
same -n 20000 --seed 5 --profile weak $F
same -n 20000 --seed 5 --profile weak --no-exact $F
same -n 20001 --seed 77 --json $F
same -n 3 --seed 9 --no-exact "$L/SB.litmus"
grep -q "^Histogram" "$T/one" || fail "no histogram"
# a file that cannot be read: said once, the others printed, exit 1
printf 'PTX bad\n{ x=0; }\n P0 ;\n' > "$T/bad.litmus"
same -n 1000 --seed 2 "$L/MP.litmus" "$T/bad.litmus" "$T/none.litmus" "$L/SB.litmus"
[ "$(grep -c 'none.litmus' "$T/np.err")" = 1 ] ||
  { cat "$T/np.err"; fail "the unreadable file is not said once"; }
grep -q "^Test SB" "$T/np" || fail "the file after the bad ones did not run"
# standard input reaches every rank (mpirun gives it to rank 0)
$MPI -np 2 "$M" sample -n 5000 --seed 4 - < "$L/MP.litmus" > "$T/np" ||
  fail "sample - under mpirun failed"
"$WL" sample -n 5000 --seed 4 - < "$L/MP.litmus" > "$T/one"
[ "$(grep -v '^Time' "$T/np")" = "$(grep -v '^Time' "$T/one")" ] ||
  fail "sample - differs under mpirun"

partial_ok() { # WHAT: the Partial line and the counts adding up
  grep -q "^Partial MP: interrupted after [0-9]* runs" "$T/np" ||
    { cat "$T/np" "$T/np.err"; fail "$1: no Partial line"; }
  runs=$(sed -n 's/^Partial MP: interrupted after \([0-9]*\) runs$/\1/p' "$T/np")
  sum=$(awk '/^[0-9]+ *[*:]>/ { s += $1 } END { printf "%.0f\n", s }' "$T/np")
  [ "$sum" = "$runs" ] || fail "$1: counts add up to $sum, not $runs"
  [ "$runs" -gt 0 ] || fail "$1: no run merged"
}
# --timeout: every rank stops, exit 3
$MPI -np 2 "$M" sample -n 1e12 --timeout 1 "$L/MP.litmus" > "$T/np" 2> "$T/np.err"
rc=$?
[ $rc -eq 3 ] || { cat "$T/np.err"; fail "--timeout under mpirun: exit $rc, not 3"; }
partial_ok "--timeout"
# SIGTERM to every rank once each has its handler (SigCgt has SIGTERM's
# bit; rank 0 may run ahead of the others) and rank 0 samples (the
# law's line): every rank stops; rank 0 merges and prints.  (The ranks
# are signalled, as scancel and Ctrl-C reach them: mpirun, sent SIGTERM
# alone, SIGKILLs the ranks a second later and may drop their output.)
cp "$L/MP.litmus" "$T/MP.litmus"
WARPLAB_LAW_STATS=1 $MPI -np 2 "$M" sample -n 1e12 "$T/MP.litmus" \
  > "$T/np" 2> "$T/np.err" &
pid=$!
i=0
while :; do
  ranks=
  for p in $(pgrep -x warplab-mpi); do
    tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q "$T/MP" ||
      continue # another's
    m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
    [ -n "$m" ] && [ $((0x$m & 0x4000)) -ne 0 ] && ranks="$ranks $p"
  done
  [ "$(echo $ranks | wc -w)" -ge 2 ] && grep -q "^law MP" "$T/np.err" && break
  i=$((i + 1))
  [ $i -lt 3000 ] || { kill $pid; fail "the ranks did not start in 300 s"; }
  sleep 0.1
done
# shellcheck disable=SC2086
kill -TERM $ranks
wait $pid
partial_ok "SIGTERM"
grep -q "MP.litmus: interrupted by SIGTERM after [0-9]* of 1000000000000 runs" \
  "$T/np.err" || { cat "$T/np.err"; fail "SIGTERM: no message"; }
exit 0
