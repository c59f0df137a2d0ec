# warplab report's exit status (issue 20, items 12-15): a file that does
# not parse, a model that cannot be read, a script that fails or calls
# os.exit(N) -- the page is still written, with the errors shown, and
# the status is 1 with a message; os.exit does not end the report;
# SIGINT/SIGTERM end it with 130/143; a page that cannot be written
# (a full disk) is an error, and an old page is never left half
# replaced.
set -u
D=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$D"' EXIT
fail() { echo "$*"; exit 1; }
WARPLAB_SHARED=$SHARED
export WARPLAB_SHARED
L="$ROOT/scripts/litmus"
printf 'garbage\n' > "$D/bad.litmus"
# a file that does not parse: page written, status 1, the message
"$WL" report --runs 10 --graphs 0 -o "$D/a.html" "$L/MP.litmus" \
  "$D/bad.litmus" 2> "$D/err"
rc=$?
[ $rc -eq 1 ] || fail "unparsable file: want 1, got $rc"
[ -s "$D/a.html" ] || fail "no page"
grep -q 'class="test"' "$D/a.html" || fail "the good file is not in the page"
grep -q "bad.litmus:1:1: expected 'PTX'" "$D/a.html" || fail "error not shown"
grep -q "^warplab report: .*bad.litmus:1:1: expected 'PTX'" "$D/err" ||
  { cat "$D/err"; fail "no message for the unparsable file"; }
# a model that cannot be read
"$WL" report --runs 10 --graphs 0 --model "$D/none.cat" -o "$D/m.html" \
  "$L/MP.litmus" 2> "$D/err"
rc=$?
[ $rc -eq 1 ] || fail "missing model: want 1, got $rc"
grep -q "none.cat" "$D/err" || { cat "$D/err"; fail "no message for the model"; }
# a script that fails
printf 'print("hi")\nerror("boom")\n' > "$D/fails.lua"
"$WL" report --runs 10 -o "$D/f.html" "$D/fails.lua" 2> "$D/err"
rc=$?
[ $rc -eq 1 ] || fail "failing script: want 1, got $rc"
grep -q "fails.lua:2: boom" "$D/err" || { cat "$D/err"; fail "no message"; }
grep -q "fails.lua:2: boom" "$D/f.html" || fail "script error not on the page"
# os.exit in a script: the page is written, with what ran before it
cat > "$D/exits.lua" <<LUA
local wl = require "warplab"
wl.load("$L/SB.litmus"):explore()
print("before the exit")
os.exit(3)
LUA
"$WL" report --runs 10 --graphs 0 -o "$D/x.html" "$D/exits.lua" \
  "$L/MP.litmus" 2> "$D/err"
rc=$?
[ $rc -eq 1 ] || fail "os.exit(3): want 1, got $rc"
[ -s "$D/x.html" ] || fail "os.exit(3): no page"
grep -q "the script called os.exit(3)" "$D/x.html" || fail "os.exit not shown"
grep -q "before the exit" "$D/x.html" || fail "the output before os.exit"
[ "$(grep -c '<section class="test"' "$D/x.html")" -eq 2 ] ||
  fail "os.exit: the tests before and after it are not both in the page"
grep -q "exits.lua: the script called os.exit(3)" "$D/err" ||
  { cat "$D/err"; fail "os.exit(3): no message"; }
sed 's/os.exit(3)/os.exit(0)/' "$D/exits.lua" > "$D/exits0.lua"
"$WL" report --runs 10 --graphs 0 -o "$D/x0.html" "$D/exits0.lua" \
  2> "$D/err" || { cat "$D/err"; fail "os.exit(0) is a success"; }
grep -q "os.exit(0)" "$D/x0.html" || fail "os.exit(0) not noted"
# a full disk: the error names the file, status 1
"$WL" report --runs 10 --graphs 0 -o /dev/full "$L/MP.litmus" 2> "$D/err"
rc=$?
[ $rc -eq 1 ] || fail "-o /dev/full: want 1, got $rc"
grep -q "writing /dev/full: No space left on device" "$D/err" ||
  { cat "$D/err"; fail "-o /dev/full: no message"; }
# -o '' and -o DIR: refused before any work
"$WL" report -o "" "$L/MP.litmus" 2> "$D/err"
[ $? -eq 2 ] || { cat "$D/err"; fail "-o '': want 2"; }
"$WL" report -o "$D" "$L/MP.litmus" 2> "$D/err"
[ $? -eq 2 ] || { cat "$D/err"; fail "-o DIR: want 2"; }
grep -q "a directory" "$D/err" || { cat "$D/err"; fail "-o DIR: message"; }
# wl.report: the same, raised; an old page stays whole when the new one
# cannot be written (a directory where the page should go)
cat > "$D/w.lua" <<LUA
local wl = require "warplab"
local ok, err = pcall(wl.report, { "$L/MP.litmus", output = "/dev/full",
                                   runs = 10, graphs = 0 })
assert(not ok and err:find("writing /dev/full: No space left on device"),
       tostring(err))
local html, problems = wl.report { "$L/MP.litmus", "$D/bad.litmus",
                                   runs = 10, graphs = 0 }
assert(#problems == 1 and problems[1]:find("bad.litmus:1:1"), problems[1])
LUA
"$WL" run "$D/w.lua" || fail "wl.report to /dev/full"
# SIGINT and SIGTERM end the report with the signal's status (a script
# that spins in pure Lua once it has said so)
cat > "$D/spin.lua" <<LUA
local f = io.open("$D/started", "w"); f:write("yes\n"); f:close()
local n = 0
while true do n = n + 1 end
LUA
for s in INT:130 TERM:143; do
  sig=${s%:*} want=${s#*:}
  rm -f "$D/started" "$D/s.html"
  "$WL" report --runs 10 -o "$D/s.html" "$D/spin.lua" "$L/MP.litmus" \
    > /dev/null 2> "$D/err" &
  pid=$!
  n=0
  until [ -s "$D/started" ]; do
    n=$((n + 1)); [ $n -le 600 ] || fail "the script did not start"; sleep 0.1
  done
  kill -$sig $pid
  wait $pid
  rc=$?
  pid=
  [ $rc -eq $want ] || { cat "$D/err"; fail "SIG$sig: want $want, got $rc"; }
  grep -q "interrupted by SIG$sig" "$D/err" || { cat "$D/err"; fail "SIG$sig message"; }
  [ ! -e "$D/s.html" ] || fail "SIG$sig: a page was written"
done
# ... and while a .litmus file is explored (minutes of work)
sed -n '/^PTX xchg$/,/^exists/p' "$ROOT/tests/cli/signals.sh" > "$D/xchg.litmus"
grep -q '^exists' "$D/xchg.litmus" || fail "no xchg test in signals.sh"
timeout --preserve-status -s TERM 1 "$WL" report --runs 10 -o "$D/t.html" \
  "$D/xchg.litmus" > /dev/null 2> "$D/err"
rc=$?
[ $rc -eq 143 ] || { cat "$D/err"; fail "SIGTERM in an exploration: want 143, got $rc"; }
[ ! -e "$D/t.html" ] || fail "SIGTERM in an exploration: a page was written"
exit 0
