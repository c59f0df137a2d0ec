# warplab help: a short overview of the commands; each command's own
# help (usage, its options only, an example) from `warplab CMD --help`
# and `warplab help CMD`; the words a user looks for are in them.
set -eu
out=$("$WL" help)
n=$(printf '%s\n' "$out" | wc -l)
[ "$n" -lt 60 ] || { echo "the overview is $n lines"; exit 1; }
for c in litmus sample gen cuda compare run report campaign merge help version; do
  printf '%s\n' "$out" | grep -q "^  $c " || { echo "overview lacks $c"; exit 1; }
done
printf '%s\n' "$out" | grep -q "Exit status" || { echo "no exit status"; exit 1; }
printf '%s\n' "$out" | grep -q "warplab <command> --help" || exit 1
# each command: its own text, starting with its usage, with an example,
# not another command's options
prev=""
for c in litmus sample gen cuda compare run report campaign merge; do
  h=$("$WL" $c --help)
  printf '%s\n' "$h" | head -n 1 | grep -q "^usage: warplab $c " ||
    { echo "$c --help: no usage line"; exit 1; }
  printf '%s\n' "$h" | grep -q "^examples\{0,1\}:$" || { echo "$c: no example"; exit 1; }
  printf '%s\n' "$h" | grep -q "^  warplab $c " || { echo "$c: example"; exit 1; }
  [ "$h" != "$prev" ] || { echo "$c --help is the previous command's"; exit 1; }
  prev=$h
  [ "$("$WL" help $c)" = "$h" ] || { echo "help $c differs from $c --help"; exit 1; }
  [ "$("$WL" $c -h)" = "$h" ] || { echo "$c -h differs"; exit 1; }
done
"$WL" sample --help | grep -q -- "--unroll" && { echo "sample help has litmus's options"; exit 1; }
"$WL" litmus --help | grep -q -- "--profile" && { echo "litmus help has sample's options"; exit 1; }
for w in "--json" "--unroll" "Exit status" "130" "--no-symmetry" \
         "--no-prefix" "--no-stutter" "--no-thin-air-filter" "--herd" \
         "--search auto|values|rf" "reads-from search"; do
  "$WL" litmus --help | grep -q -- "$w" || { echo "litmus help lacks $w"; exit 1; }
done
for w in "--jobs" "--profile" "--seed"; do
  "$WL" sample --help | grep -q -- "$w" || { echo "sample help lacks $w"; exit 1; }
done
for w in "--cycle" "--random" "--copies"; do
  "$WL" gen --help | grep -q -- "$w" || { echo "gen help lacks $w"; exit 1; }
done
for w in "wl.device" "dev:launch" "--check"; do
  "$WL" run --help | grep -q -- "$w" || { echo "run help lacks $w"; exit 1; }
done
"$WL" help nosuch > /dev/null 2>&1 && { echo "help nosuch: exit 0"; exit 1; }
[ $? -eq 2 ] || { echo "help nosuch: want exit 2"; exit 1; }
"$WL" --version | grep -q '^warplab [0-9]'
# a usage error points at the command's own help
for c in litmus sample gen cuda compare report run campaign merge; do
  "$WL" $c --frobnicate > /dev/null 2> "${TMPDIR:-/tmp}/wl_help_$$" && exit 1
  grep -q "see warplab $c --help" "${TMPDIR:-/tmp}/wl_help_$$" ||
    { cat "${TMPDIR:-/tmp}/wl_help_$$"; rm -f "${TMPDIR:-/tmp}/wl_help_$$"; echo "$c: usage error"; exit 1; }
done
rm -f "${TMPDIR:-/tmp}/wl_help_$$"
