# Command lines are parsed with getopt_long: options anywhere among the
# files (`warplab sample FILE -n N`, `litmus FILE --unroll N`), "--"
# ends the options, "-" as a file is standard input, --opt=V and -nV
# forms, unknown options and missing values are usage errors (exit 2)
# naming the option, and every command takes --help.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
L="$ROOT/scripts/litmus"
WLA=$(cd "$(dirname "$WL")" && pwd)/$(basename "$WL") # for use after cd
runs() { awk '/^[0-9]+ *[*:]>/ { s += $1 } END { print s + 0 }' "$1"; }

# sample FILE -n N: N runs, not files named -n and N
"$WL" sample "$L/SB.litmus" -n 300 --seed 5 > "$T/out" 2> "$T/err" ||
  { cat "$T/err"; fail "sample FILE -n N: exit $?"; }
[ "$(runs "$T/out")" = 300 ] || { cat "$T/out"; fail "sample FILE -n 300"; }
"$WL" sample -n300 --seed=5 "$L/SB.litmus" > "$T/out2" ||
  fail "sample -n300 --seed=5"
[ "$(grep -v '^Time' "$T/out")" = "$(grep -v '^Time' "$T/out2")" ] ||
  fail "-n300 --seed=5 differs from -n 300 --seed 5"
"$WL" sample --runs 200 "$L/SB.litmus" --jobs 1 "$L/MP.litmus" > "$T/out" ||
  fail "sample with options between files"
[ "$(runs "$T/out")" = 400 ] || fail "two files of 200 runs"
# litmus FILE --unroll N
printf 'PTX count\n{ x=0; }\n P0@cta 0,gpu 0 ;\n LC00: ;\n add r1, r1, 1 ;\n bne r1, 10, LC00 ;\n st.weak x, r1 ;\nexists (x=10)\n' > "$T/count.litmus"
out=$("$WL" litmus "$T/count.litmus" --unroll 12 -q) || fail "litmus FILE --unroll"
[ "$out" = "count Ok" ] || fail "litmus FILE --unroll 12 -q: got '$out'"
out=$("$WL" litmus --unroll=3 -q "$T/count.litmus") || fail "--unroll=3"
[ "$out" = "count Loop No" ] || fail "litmus --unroll=3: got '$out'"
# "-" is standard input
out=$("$WL" litmus -q - < "$L/MP.litmus") || fail "litmus -"
[ "$out" = "MP No" ] || fail "litmus - < MP.litmus: got '$out'"
"$WL" sample -n 100 - < "$L/SB.litmus" > "$T/out" || fail "sample -"
grep -q '^Test SB Allowed' "$T/out" || fail "sample - < SB.litmus"
# "--" ends the options: a file whose name starts with "-"
cp "$L/MP.litmus" "$T/-q.litmus"
out=$(cd "$T" && "$WLA" litmus -- -q.litmus | head -n 1) || fail "litmus -- -q.litmus"
[ "$out" = "Test MP Allowed" ] || fail "litmus -- -q.litmus: got '$out'"
(cd "$T" && "$WLA" litmus -q.litmus) > /dev/null 2> "$T/err"
[ $? -eq 2 ] || fail "litmus -q.litmus (an unknown option -.): want 2"
# usage errors: exit 2, naming the option
for c in "litmus --frob $L/MP.litmus:unknown option '--frob'" \
         "litmus -x $L/MP.litmus:unknown option '-x'" \
         "litmus $L/MP.litmus --unroll:--unroll needs a value" \
         "litmus --unroll 0 $L/MP.litmus:--unroll takes a number from 1 to 1000, not '0'" \
         "sample $L/SB.litmus -n:-n needs a value" \
         "sample $L/SB.litmus --frob:unknown option '--frob'" \
         "sample -n x $L/SB.litmus:-n takes a number of runs of at least 1, not 'x'" \
         "gen --frob:unknown option '--frob'" \
         "gen --count:--count needs a value" \
         "run --frob x.lua:unknown option '--frob'"; do
  args=${c%%:*} want=${c#*:}
  cmd=${args%% *}
  # shellcheck disable=SC2086
  "$WL" $args > /dev/null 2> "$T/err"
  rc=$?
  [ $rc -eq 2 ] || { cat "$T/err"; fail "'$args': want exit 2, got $rc"; }
  grep -qF "warplab $cmd: $want" "$T/err" || { cat "$T/err"; fail "'$args': message"; }
done
# run: options end at the script; what follows is the script's
printf 'print(#arg, arg[0] ~= nil, arg[1], arg[2])\n' > "$T/a.lua"
out=$("$WL" run "$T/a.lua" -n --x) || fail "run SCRIPT -n --x"
[ "$out" = "2	true	-n	--x" ] || fail "run SCRIPT -n --x: got '$out'"
out=$("$WL" run -- "$T/a.lua" y) || fail "run -- SCRIPT"
[ "$out" = "1	true	y	nil" ] || fail "run -- SCRIPT y: got '$out'"
out=$(echo 'print(arg[1])' | "$WL" run - z) || fail "run - (stdin)"
[ "$out" = "z" ] || fail "run - z: got '$out'"
# --help for every command, and at the top
for c in litmus sample gen run; do
  "$WL" $c --help | grep -q "^usage: warplab" || fail "$c --help"
done
"$WL" --help | grep -q "^usage: warplab" || fail "--help"
exit 0
