#!/bin/sh
# slurm.sh BUILD -- the CI stage of issue 23: a campaign of 1,000
# generated tests through a real Slurm.  It starts a one-node Slurm
# (scripts/slurm-one-node.sh: munge, slurmctld, slurmd from Debian),
# submits `warplab campaign --submit` (a job array of 8 shards, then the
# merge job), waits for the merge, and checks that the merged report,
# JSON and text, equals what one warplab litmus over the same list
# prints (Time lines and "time" values aside); then the same through
# one MPI job of 2 tasks (--ranks 2) where warplab-mpi is built.  When Slurm cannot start
# here (not root, no packages, daemons that will not run) it prints
# "SKIP slurm: WHY" and exits 0: the stage is skipped, never faked.
# The last line is "slurm: N passed, N failed".
set -u
B=${1:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
W=$(cd "$B" && pwd)/warplab
N=${WARPLAB_SLURM_TESTS:-1000}
[ -x "$W" ] || { echo "slurm: no $W (make first)"; exit 1; }
S=$ROOT/scripts/slurm-one-node.sh
export WARPLAB_SLURM_DIR=${WARPLAB_SLURM_DIR:-$(mktemp -d)}
if ! why=$(sh "$S" start 2>&1); then
  echo "SKIP slurm: a one-node Slurm could not start here:"
  printf '%s\n' "$why" | sed 's/^/  /' | tail -n 20
  exit 0
fi
eval "$(sh "$S" env)"
T=$(mktemp -d)
trap 'sh "$S" stop; rm -rf "$T"' EXIT
pass=0 fail=0
bad() { fail=$((fail + 1)); echo "FAIL: slurm: $*"; }
cd "$T" || exit 1
"$W" gen --random --count "$N" --seed 23 -o tests > /dev/null 2>&1 ||
  { echo "slurm: gen failed"; exit 1; }
ls tests/*.litmus | LC_ALL=C sort > list
notime() { sed -e '/^Time /d' -e 's/"time": [-0-9.e+]*/"time": 0/' "$1"; }
# wait_jobs: until the queue is empty (at most 20 minutes)
wait_jobs() {
  i=0
  while [ -n "$(squeue -h 2>/dev/null)" ]; do
    i=$((i + 1))
    [ $i -lt 2400 ] || { echo "slurm: jobs still queued after 20 minutes"; squeue; return 1; }
    sleep 0.5
  done
}
# the array in JSON and text; then one MPI job of 2 ranks (warplab-mpi
# under mpirun inside the allocation), where Open MPI is installed
modes="json text"
[ -x "$(dirname "$W")/warplab-mpi" ] && command -v mpirun >/dev/null 2>&1 &&
  modes="$modes mpi"
for fmt in $modes; do
  case $fmt in
  json) opt=--json more= ext=json ;;
  text) opt= more= ext=txt ;;
  mpi) opt=--json more="--ranks 2" ext=json ;;
  esac
  # shellcheck disable=SC2086
  "$W" litmus $opt $(cat list) > one.$ext 2> /dev/null
  want=$?
  # shellcheck disable=SC2086
  if ! "$W" campaign --submit --shards 8 $opt $more --list list -o c-$fmt > out 2>&1; then
    bad "campaign --submit $opt: $(cat out)"
    continue
  fi
  wait_jobs || { bad "campaign $opt: did not finish"; continue; }
  if [ ! -f c-$fmt/merged.$ext ]; then
    bad "campaign $opt: no merged.$ext"
    cat c-$fmt/log/slurm-*.out c-$fmt/log/mpi.err 2>/dev/null | tail -n 5
    continue
  fi
  notime one.$ext > a
  notime c-$fmt/merged.$ext > b
  if cmp -s a b; then
    pass=$((pass + 1))
    echo "slurm: $N tests ($fmt), the merged report equals one process's (exit $want)"
  else
    bad "campaign $opt: the merged report differs from one process's"
    diff a b | head -n 10
  fi
done
echo "slurm: $pass passed, $fail failed"
[ $fail -eq 0 ]
