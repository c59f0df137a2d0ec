# A full disk (issue 20, item 15): every command whose standard output
# cannot be written says so, naming it, and exits 1 (run reported
# success; litmus, sample and gen exited 1 without a word).  gen -o
# writes each file whole or not at all.
set -u
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "$*"; exit 1; }
L="$ROOT/scripts/litmus"
full() { # full NAME COMMAND...: COMMAND > /dev/full must fail, saying why
  name=$1; shift
  "$@" > /dev/full 2> "$D/err"
  rc=$?
  [ $rc -eq 1 ] || { cat "$D/err"; fail "$name > /dev/full: want 1, got $rc"; }
  grep -q "^warplab: writing stdout: No space left on device$" "$D/err" ||
    { cat "$D/err"; fail "$name > /dev/full: no message"; }
}
full litmus "$WL" litmus "$L/MP.litmus"
full "litmus --json" "$WL" litmus --json "$L/MP.litmus" "$L/SB.litmus"
full "litmus -q" "$WL" litmus -q "$L/MP.litmus"
full sample "$WL" sample -n 100 "$L/MP.litmus"
full "sample --json" "$WL" sample --json -n 100 "$L/MP.litmus"
full gen "$WL" gen --family MP
full "gen --families" "$WL" gen --families
# help and version too (they exited 0 with the text lost)
full help "$WL" help
full "--help" "$WL" --help
full "help litmus" "$WL" help litmus
full version "$WL" version
for c in litmus sample gen cuda compare run report; do
  full "$c --help" "$WL" "$c" --help
done
printf 'print("hello")\n' > "$D/p.lua"
full "run print" "$WL" run "$D/p.lua"
printf 'io.write("hello")\n' > "$D/w.lua"
full "run io.write" "$WL" run "$D/w.lua"
# gen -o: a file that cannot be written is named with the reason
mkdir "$D/g"
"$WL" gen --family MP --list > "$D/names" || fail "gen --list"
first=$(head -n 1 "$D/names")
ln -s /dev/full "$D/g/$first.litmus"
"$WL" gen --family MP -o "$D/g" > /dev/null 2> "$D/err"
[ $? -eq 1 ] || { cat "$D/err"; fail "gen -o into a full file: want 1"; }
grep -q "writing $D/g/$first.litmus: No space left on device" "$D/err" ||
  { cat "$D/err"; fail "gen -o: no message"; }
exit 0
