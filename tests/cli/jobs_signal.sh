# SIGINT and SIGTERM on `warplab litmus --jobs N` over many files (issue
# 24, item 5): the dispatch stops, what finished is printed in file
# order (the prefix before the long file, byte for byte what --jobs 1
# prints for those files), the long file's states found so far marked
# Partial, nothing of the files after it, exit 130 / 143.  The signal is
# sent once the prefix is out (a bounded wait on the output, not a
# sleep, decides when): the long file runs for minutes, so it is always
# mid-exploration then.
set -u
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
# eight threads storing to and loading from two locations (signals.sh's):
# minutes to explore, states found from the first second
cat > "$T/xchg.litmus" <<'LIT'
PTX xchg
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 | P4@cta 4,gpu 0 | P5@cta 5,gpu 0 | P6@cta 6,gpu 0 | P7@cta 7,gpu 0 ;
 st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 | st.relaxed.gpu x, 3 | st.relaxed.gpu x, 4 | st.relaxed.gpu x, 5 | st.relaxed.gpu x, 6 | st.relaxed.gpu x, 7 | st.relaxed.gpu x, 8 ;
 ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;
 st.relaxed.gpu y, 1 | st.relaxed.gpu y, 2 | st.relaxed.gpu y, 3 | st.relaxed.gpu y, 4 | st.relaxed.gpu y, 5 | st.relaxed.gpu y, 6 | st.relaxed.gpu y, 7 | st.relaxed.gpu y, 8 ;
 ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y ;
exists (x=0)
LIT
"$WL" gen --random --count 80 --seed 21 -o "$T/g" 2> /dev/null || fail "gen"
set -- $(ls "$T"/g/*.litmus | sort)
[ $# -eq 80 ] || fail "want 80 generated tests, got $#"
before=$(echo "$@" | cut -d' ' -f1-40)
after=$(echo "$@" | cut -d' ' -f41-80)
# the last test before the long one: its Test line ends the prefix
last=$(sed -n 's/^PTX \([^ ]*\).*/\1/p' "$(echo "$before" | tr ' ' '\n' | tail -n 1)")
mask() { sed -e 's/^Time \([^ ]*\) [0-9.]*$/Time \1 T/'; }
# what --jobs 1 prints for the files before the long one
# shellcheck disable=SC2086
"$WL" litmus --jobs 1 $before 2> "$T/before.err" | mask > "$T/before"
# wait_for FILE PATTERN: until a line of FILE matches (at most 60 s)
wait_for() {
  n=0
  until grep -q "$2" "$1" 2>/dev/null; do
    n=$((n + 1))
    [ $n -le 600 ] || { cat "$1"; fail "timed out waiting for '$2'"; }
    sleep 0.1
  done
}
for run in 1:INT:130 2:INT:130 4:TERM:143 2:TERM:143; do
  j=${run%%:*} rest=${run#*:}
  sig=${rest%:*} want=${rest#*:}
  rm -f "$T/out" # (else the wait could see the last run's output)
  # shellcheck disable=SC2086
  "$WL" litmus --jobs $j $before "$T/xchg.litmus" $after \
    > "$T/out" 2> "$T/err" &
  pid=$!
  wait_for "$T/out" "^Observation $last "
  kill -$sig $pid
  wait $pid
  rc=$?
  pid=
  [ $rc -eq $want ] ||
    { cat "$T/err"; fail "--jobs $j SIG$sig: want $want, got $rc"; }
  # the prefix, in order, as --jobs 1 prints it
  sed '/^Test xchg /,$d' "$T/out" | mask > "$T/prefix"
  cmp -s "$T/before" "$T/prefix" ||
    { diff "$T/before" "$T/prefix" | head; fail "--jobs $j: the prefix"; }
  # the long file: the states found so far, marked Partial
  grep -q "^Partial xchg: interrupted by SIG$sig after" "$T/out" ||
    { tail "$T/out"; fail "--jobs $j SIG$sig: no Partial line"; }
  grep -q "^Warning xchg: partial result" "$T/out" ||
    fail "--jobs $j SIG$sig: the partial states are not marked"
  # nothing after it
  [ "$(sed -n '/^Partial xchg/,$p' "$T/out" | grep -c '^Test ')" = 0 ] ||
    fail "--jobs $j SIG$sig: a file after the long one was printed"
  [ "$(tail -n 2 "$T/out" | head -n 1 | cut -d: -f1)" = "Partial xchg" ] ||
    { tail -n 3 "$T/out"; fail "--jobs $j SIG$sig: Partial is not last"; }
  grep -q "xchg.litmus: interrupted by SIG$sig; the result above is partial and the files after it are skipped" "$T/err" ||
    { cat "$T/err"; fail "--jobs $j SIG$sig: message"; }
done
# --json stays one valid array: the prefix, then the partial element
rm -f "$T/out"
# shellcheck disable=SC2086
"$WL" litmus --json --jobs 2 $before "$T/xchg.litmus" $after \
  > "$T/out" 2> "$T/err" &
pid=$!
wait_for "$T/out" "\"test\": \"$last\""
kill -INT $pid
wait $pid
rc=$?
pid=
[ $rc -eq 130 ] || { cat "$T/err"; fail "--json SIGINT: want 130, got $rc"; }
if command -v python3 > /dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==41 and d[40]["partial"] and d[40]["test"]=="xchg" and not d[39].get("partial"), [len(d)]' "$T/out" ||
    { tail -c 300 "$T/out"; fail "--json after SIGINT: not the prefix and the partial test"; }
fi
# compare: the same, with the comparisons of the files before the long
# one (what --jobs 1 prints for them) and the interrupt on stderr
# shellcheck disable=SC2086
"$WL" sample -n 1000 --seed 2 --jobs 1 $before > "$T/hist" 2> /dev/null ||
  fail "sample for compare"
# shellcheck disable=SC2086
"$WL" compare --jobs 1 "$T/hist" $before > "$T/cbefore" 2> /dev/null ||
  fail "compare --jobs 1 on the files before"
size=$(wc -c < "$T/cbefore")
rm -f "$T/out"
# shellcheck disable=SC2086
"$WL" compare --jobs 2 "$T/hist" $before "$T/xchg.litmus" $after \
  > "$T/out" 2> "$T/err" &
pid=$!
n=0
until [ "$( { wc -c < "$T/out"; } 2> /dev/null || echo 0)" -ge "$size" ]; do
  n=$((n + 1))
  [ $n -le 600 ] || fail "compare: timed out waiting for the prefix"
  sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
pid=
[ $rc -eq 130 ] || { cat "$T/err"; fail "compare SIGINT: want 130, got $rc"; }
cmp -s "$T/cbefore" "$T/out" ||
  { diff "$T/cbefore" "$T/out" | head; fail "compare: not the prefix alone"; }
grep -q "xchg.litmus: interrupted by SIGINT; the files after it are skipped" \
  "$T/err" || { cat "$T/err"; fail "compare SIGINT: message"; }
exit 0
