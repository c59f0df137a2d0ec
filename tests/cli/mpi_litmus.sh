# warplab-mpi litmus, compare and report under mpirun (issue 23): the files
# dealt to 1, 2 and 4 ranks by size give what one process prints, byte
# for byte (Time lines and "time" values aside), on stdout and stderr
# alike, with the same exit status: on a fifth of the conformance
# corpus, on 150 generated tests with a broken and a missing file among
# them, as text, --json, --herd and -q, with --graph's files; compare
# against a histogram and --summary of a folder of them; report's page
# (with a script among the files: rank 0 alone); and SIGTERM on
# mpirun stops every rank, rank 0 printing the files before the
# interrupted one, its partial states marked Partial, and none after it
# (mpirun itself then exits 1).  Skipped, saying why, where Open MPI is
# not installed.
set -u
: "${ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${WL:=$ROOT/build/release/warplab}"
: "${SHARED:=$(sh "$ROOT/scripts/shared.sh" "$ROOT")}"
M=$(dirname "$WL")/warplab-mpi
if ! command -v mpirun >/dev/null 2>&1; then
  echo "SKIP mpi_litmus: mpirun is not installed (WARPLAB_DEPS=mpi sh scripts/deps.sh)" >&2
  exit 0
fi
fail() { echo "$*"; exit 1; }
[ -x "$M" ] || fail "no $M: build it with make MPI=1 (Open MPI is installed)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
MPI="timeout -k 5 600 mpirun --oversubscribe"
# an Open MPI that cannot start a job here (no usable network, a
# container's limits) is the machine's: said, and skipped
if ! $MPI -np 2 true > "$T/probe" 2>&1; then
  echo "SKIP mpi_litmus: mpirun cannot start 2 ranks here:" >&2
  tail -n 5 "$T/probe" >&2
  exit 0
fi
notime() { sed -e '/^Time /d' -e 's/"time": [-0-9.e+]*/"time": 0/' "$1"; }
same() { # ARGS...: one process against 1, 2 and 4 ranks
  "$WL" litmus "$@" > "$T/one" 2> "$T/one.err"
  want=$?
  notime "$T/one" > "$T/one.s"
  for np in 1 2 4; do
    $MPI -np $np "$M" litmus "$@" > "$T/np" 2> "$T/np.err"
    rc=$?
    [ $rc -eq $want ] ||
      { tail -n 5 "$T/np.err"; fail "np $np litmus $1: exit $rc, one process $want"; }
    notime "$T/np" > "$T/np.s"
    cmp -s "$T/one.s" "$T/np.s" ||
      { diff "$T/one.s" "$T/np.s" | head -n 20; fail "np $np litmus $1: stdout differs"; }
    # stderr: the same lines but mpirun's own notes on a failing rank
    grep '^warplab' "$T/np.err" > "$T/np.e"
    grep '^warplab' "$T/one.err" > "$T/one.e"
    cmp -s "$T/one.e" "$T/np.e" ||
      { diff "$T/one.e" "$T/np.e" | head -n 10; fail "np $np litmus $1: stderr differs"; }
  done
}
"$WL" gen --random --count 150 --seed 31 -o "$T/gen" > /dev/null 2>&1 ||
  fail "gen failed"
printf 'PTX broken\n{ x=0; }\n P0 ;\n' > "$T/gen/zz-broken.litmus"
G=$(ls "$T"/gen/*.litmus | LC_ALL=C sort)
# shellcheck disable=SC2086
same --unroll 3 $G "$T/none.litmus"
[ "$want" = 1 ] || fail "the broken and missing files: want exit 1, got $want"
grep -q "^Test rand-s31-" "$T/one" || fail "no result"
# shellcheck disable=SC2086
same --json $G
# shellcheck disable=SC2086
same --herd $G
# shellcheck disable=SC2086
same -q $ROOT/scripts/litmus/*.litmus
# --graph: the same files with the same text
$MPI -np 2 "$M" litmus --graph "$T/g2" "$ROOT"/scripts/litmus/MP.litmus \
  "$ROOT"/scripts/litmus/SB.litmus "$ROOT"/scripts/litmus/LB.litmus > /dev/null 2>&1
"$WL" litmus --graph "$T/g1" "$ROOT"/scripts/litmus/MP.litmus \
  "$ROOT"/scripts/litmus/SB.litmus "$ROOT"/scripts/litmus/LB.litmus > /dev/null 2>&1
ls "$T/g1" | grep -q '\.dot$' || fail "--graph wrote no DOT file"
diff -r "$T/g1" "$T/g2" > /dev/null || fail "--graph under 2 ranks differs"
# a fifth of the conformance corpus (every fifth file)
C="$SHARED/conformance/dat3m/PTX"
[ -d "$C" ] || fail "no corpus at $C"
F=$(find "$C" -name '*.litmus' | LC_ALL=C sort | awk 'NR % 5 == 1')
# shellcheck disable=SC2086
same $F

# compare HIST FILE... and --summary DIR: the same lines, status and
# Summary (its totals summed on rank 0)
mkdir "$T/h"
for f in MP SB LB CoRR; do
  "$WL" sample -n 2000 --seed 3 "$ROOT/scripts/litmus/$f.litmus" > "$T/h/$f.hist" ||
    fail "sample $f"
done
for mode in "$T/h/MP.hist" "--summary $T/h"; do
  # shellcheck disable=SC2086
  "$WL" compare $mode "$ROOT"/scripts/litmus/*.litmus > "$T/one" 2> "$T/one.err"
  want=$?
  for np in 2 4; do
    # shellcheck disable=SC2086
    $MPI -np $np "$M" compare $mode "$ROOT"/scripts/litmus/*.litmus \
      > "$T/np" 2> "$T/np.err"
    rc=$?
    [ $rc -eq $want ] || fail "np $np compare $mode: exit $rc, one process $want"
    cmp -s "$T/one" "$T/np" ||
      { diff "$T/one" "$T/np" | head; fail "np $np compare $mode: differs"; }
    grep '^warplab' "$T/np.err" | cmp -s "$T/one.err" - ||
      fail "np $np compare $mode: stderr differs"
  done
done
grep -q "^Summary $T/h: " "$T/one" || fail "compare --summary: no Summary line"

# report: .litmus files over the ranks, the page rank 0 writes is one
# process's; with a script among them, rank 0 alone writes it
R="$ROOT/scripts/litmus/MP.litmus $ROOT/scripts/litmus/SB.litmus $ROOT/scripts/litmus/LB.litmus $ROOT/scripts/litmus/CoRR.litmus"
# shellcheck disable=SC2086
"$WL" report --runs 200 -o "$T/r1.html" $R 2> /dev/null || fail "report"
for np in 2 4; do
  # shellcheck disable=SC2086
  $MPI -np $np "$M" report --runs 200 -o "$T/r$np.html" $R 2> /dev/null ||
    fail "np $np report failed"
  cmp -s "$T/r1.html" "$T/r$np.html" || fail "np $np report: another page"
done
E="$ROOT/scripts/examples/04_release_acquire.lua"
"$WL" report --runs 100 -o "$T/s1.html" "$E" "$ROOT/scripts/litmus/MP.litmus" \
  2> /dev/null || fail "report with a script"
$MPI -np 2 "$M" report --runs 100 -o "$T/s2.html" "$E" \
  "$ROOT/scripts/litmus/MP.litmus" 2> /dev/null || fail "np 2 report with a script"
cmp -s "$T/s1.html" "$T/s2.html" || fail "np 2 report with a script: another page"

# SIGTERM to every rank once each has its handler (SigCgt has SIGTERM's
# bit) and a rank has spent a second of CPU (the long file, which takes
# minutes, is being explored): every rank stops, and rank 0 prints the
# files before the interrupted one and its partial states.  (The ranks
# themselves are signalled, as Slurm's scancel and a terminal's Ctrl-C
# reach them: mpirun, sent SIGTERM alone, aborts the job, SIGKILLs the
# ranks a second later and may drop what they print meanwhile, on a
# loaded machine.)
sed -n '/^PTX xchg/,/^exists/p' "$ROOT/tests/cli/signals.sh" > "$T/xchg.litmus"
[ -s "$T/xchg.litmus" ] || fail "no xchg test in signals.sh"
L=$ROOT/scripts/litmus
$MPI -np 2 "$M" litmus --unroll 8 "$L/MP.litmus" "$T/xchg.litmus" \
  "$L/SB.litmus" > "$T/out" 2> "$T/err" &
pid=$!
n=0
tck=$(getconf CLK_TCK 2>/dev/null || echo 100)
while :; do
  ranks= busy=0
  for p in $(pgrep -x warplab-mpi); do
    tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q "$T/xchg" ||
      continue # another's
    m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
    [ -n "$m" ] && [ $((0x$m & 0x4000)) -ne 0 ] && ranks="$ranks $p"
    # utime + stime (fields 14 and 15 after the name in parentheses)
    c=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | awk '{print $12 + $13}')
    [ "${c:-0}" -ge "$tck" ] && busy=1
  done
  [ "$(echo $ranks | wc -w)" -ge 2 ] && [ $busy -eq 1 ] && break
  n=$((n + 1))
  [ $n -le 600 ] || { kill $pid; fail "the ranks did not start in 60 s"; }
  sleep 0.1
done
# shellcheck disable=SC2086
kill -TERM $ranks
wait $pid
rc=$?
# (mpirun exits non-zero when its ranks do: 143)
[ $rc -ne 0 ] || fail "litmus SIGTERM under mpirun: exit 0"
grep -q "xchg.litmus: interrupted by SIGTERM" "$T/err" ||
  { cat "$T/err"; fail "SIGTERM: no message"; }
grep -q "^Test MP Allowed" "$T/out" || { cat "$T/out"; fail "SIGTERM: MP missing"; }
grep -q "^Partial xchg: interrupted by SIGTERM after" "$T/out" ||
  { cat "$T/out"; fail "SIGTERM: no Partial line"; }
grep -q "^Warning xchg: partial result" "$T/out" ||
  { cat "$T/out"; fail "SIGTERM: the partial states are not marked"; }
! grep -q "^Test SB" "$T/out" || fail "SIGTERM: the file after the interrupted one was printed"
exit 0
