# Files across cores (issue 24, item 2): litmus (text, -q, --json,
# --herd, --graph), compare (HIST FILE... and --summary), report and
# cuda on many files give the same stdout, stderr, files and exit status
# for --jobs 1, 2 and 4, on the conformance corpus and on a generated
# set.  Only the times differ from run to run: the Time lines and the
# JSON "time" fields are masked.
set -u
: "${ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${WL:=$ROOT/build/release/warplab}"
: "${SHARED:=$(sh "$ROOT/scripts/shared.sh" "$ROOT")}"
C="$SHARED/conformance/dat3m"
[ -d "$C/PTX" ] || { echo "no corpus at $C"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }

# the corpus: the PTX 6.0 rows (json_corpus.sh's), in the CSV's order
sed -n 's|^litmus/\(PTX/[^,]*\),\([01]\)$|\1|p' \
  "$C/expected/PTXv6_0-expected.csv" > "$T/rows"
corpus=""
while read -r f; do
  case $f in *proxy*) continue ;; esac
  [ -f "$C/$f" ] && corpus="$corpus $C/$f"
done < "$T/rows"
[ -n "$corpus" ] || fail "no corpus rows"
# a generated set: random programs and the classic families, a broken
# file and a missing one among them (their errors come in their turn)
"$WL" gen --random --count 60 --seed 5 -o "$T/gen" 2> /dev/null ||
  fail "gen --random"
"$WL" gen --family all --annotations weak,ra --placements gpu \
  -o "$T/gen" 2> /dev/null || fail "gen --family"
printf 'PTX broken\n{ x=0 }\n P0@cta 0 gpu 0 ;\n' > "$T/gen/broken.litmus"
gen=$(ls "$T"/gen/*.litmus | sort)
set -- $gen
half=$(( $# / 2 ))
gen="$(echo $gen | cut -d' ' -f1-$half) $T/missing.litmus \
$(echo $gen | cut -d' ' -f$((half + 1))-)"

# mask: the times
mask() { sed -e 's/^Time \([^ ]*\) [0-9.]*$/Time \1 T/' \
  -e 's/"time": [0-9.e+-]*/"time": T/g'; }

# same NAME CMD...: runs CMD with --jobs 1, 2 and 4 (placed after the
# command word) and compares stdout (masked), stderr and the status
same() {
  name=$1
  shift
  cmd=$1
  shift
  for j in 1 2 4; do
    "$WL" "$cmd" --jobs $j "$@" > "$T/out.$j" 2> "$T/err.$j"
    echo $? > "$T/rc.$j"
    mask < "$T/out.$j" > "$T/m.$j"
  done
  for j in 2 4; do
    cmp -s "$T/m.1" "$T/m.$j" ||
      { diff "$T/m.1" "$T/m.$j" | head -20; fail "$name: stdout, --jobs $j"; }
    cmp -s "$T/err.1" "$T/err.$j" ||
      { diff "$T/err.1" "$T/err.$j" | head -20; fail "$name: stderr, --jobs $j"; }
    cmp -s "$T/rc.1" "$T/rc.$j" ||
      fail "$name: exit $(cat "$T/rc.1") with --jobs 1, $(cat "$T/rc.$j") with $j"
  done
  [ -s "$T/m.1" ] || [ -s "$T/err.1" ] || fail "$name: no output at all"
}

for set in corpus gen; do
  eval "files=\$$set"
  # shellcheck disable=SC2086
  same "litmus $set" litmus $files
  grep -q '^Test ' "$T/out.1" || fail "litmus $set: no test"
  # shellcheck disable=SC2086
  same "litmus -q $set" litmus -q $files
  # shellcheck disable=SC2086
  same "litmus --json $set" litmus --json $files
  if command -v python3 > /dev/null 2>&1; then
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out.4" ||
      fail "litmus --json $set --jobs 4: not JSON"
  fi
  # shellcheck disable=SC2086
  same "litmus --herd $set" litmus --herd $files
  # shellcheck disable=SC2086
  same "litmus --check-error $set" litmus --check-error --no-symmetry $files
done
# the generated set: one more file each way, and the broken and missing
# ones fail in their turn
grep -q "broken.litmus:3:" "$T/err.1" || fail "gen: the broken file's error"
grep -q "missing.litmus" "$T/err.1" || fail "gen: the missing file's error"
[ "$(cat "$T/rc.1")" != 0 ] || fail "gen: exit 0 with a broken file"

# --graph: the same files under the same names (NAME-2 for a second
# test of the same name: the generated set's copy of the corpus' MP)
# shellcheck disable=SC2086
for j in 1 2 4; do
  "$WL" litmus --jobs $j --graph "$T/g$j" $gen "$ROOT/scripts/litmus/MP.litmus" \
    "$ROOT/scripts/litmus/MP.litmus" > /dev/null 2> "$T/gerr.$j"
  echo $? > "$T/grc.$j"
done
[ -f "$T/g1/MP-2.1.dot" ] || { ls "$T/g1" | head; fail "--graph: no MP-2"; }
for j in 2 4; do
  diff -r "$T/g1" "$T/g$j" > /dev/null || fail "--graph: files, --jobs $j"
  cmp -s "$T/gerr.1" "$T/gerr.$j" || fail "--graph: stderr, --jobs $j"
  cmp -s "$T/grc.1" "$T/grc.$j" || fail "--graph: status, --jobs $j"
done

# compare: the generated set's histograms (sample, fixed seed) beside
# the model; --summary over the H100's observations and the corpus
# shellcheck disable=SC2086
"$WL" sample -n 2000 --seed 3 --jobs 1 $gen > "$T/hist" 2> /dev/null
grep -q '^Test ' "$T/hist" || fail "no histograms to compare"
# shellcheck disable=SC2086
same "compare gen" compare "$T/hist" $gen
grep -q '^Verdict' "$T/out.1" || grep -q 'Observation' "$T/out.1" ||
  { head "$T/out.1"; fail "compare: no comparison"; }
same "compare --summary" compare --summary \
  "$ROOT/tests/hw/observed/h100-2026-11-26/conformance" "$C/PTX/Nvidia" \
  "$C/PTX/Manual"
grep -q '^Summary ' "$T/out.1" || fail "compare --summary: no Summary"

# report: the same page (few runs: the page, not the rates, is tested)
# shellcheck disable=SC2086
rfiles="$(echo $corpus | cut -d' ' -f1-12) $(echo $gen | cut -d' ' -f1-12)"
for j in 1 2 4; do
  # shellcheck disable=SC2086
  "$WL" report --jobs $j --runs 100 --graphs 1 -o "$T/r$j.html" $rfiles \
    > "$T/rout.$j" 2> "$T/rerr.$j"
  echo $? > "$T/rrc.$j"
done
[ -s "$T/r1.html" ] || fail "report: no page"
for j in 2 4; do
  cmp -s "$T/r1.html" "$T/r$j.html" || fail "report: the page, --jobs $j"
  cmp -s "$T/rerr.1" "$T/rerr.$j" || fail "report: stderr, --jobs $j"
  cmp -s "$T/rrc.1" "$T/rrc.$j" || fail "report: status, --jobs $j"
done

# cuda: one program per test, DIR/NAME.cu
for set in corpus gen; do
  eval "files=\$$set"
  for j in 1 2 4; do
    # shellcheck disable=SC2086
    "$WL" cuda --jobs $j -o "$T/cu$set$j" $files > "$T/cout.$j" \
      2> "$T/cerr.$j"
    echo $? > "$T/crc.$j"
  done
  [ "$(ls "$T/cu${set}1" | wc -l)" -gt 10 ] || fail "cuda $set: few programs"
  for j in 2 4; do
    diff -r "$T/cu${set}1" "$T/cu$set$j" > /dev/null ||
      fail "cuda $set: programs, --jobs $j"
    cmp -s "$T/cerr.1" "$T/cerr.$j" || fail "cuda $set: stderr, --jobs $j"
    cmp -s "$T/crc.1" "$T/crc.$j" || fail "cuda $set: status, --jobs $j"
  done
done
# several files need a folder
"$WL" cuda "$ROOT/scripts/litmus/MP.litmus" "$ROOT/scripts/litmus/SB.litmus" \
  > /dev/null 2> "$T/e" && fail "cuda: two files without -o"
grep -q "several files need -o DIR" "$T/e" || { cat "$T/e"; fail "cuda: message"; }
# --jobs takes 1..1024
for cmd in litmus compare report cuda; do
  "$WL" $cmd --jobs 0 "$ROOT/scripts/litmus/MP.litmus" > /dev/null 2> "$T/e"
  [ $? -eq 2 ] || fail "$cmd --jobs 0: want exit 2"
  grep -q -- "--jobs takes a number from 1 to 1024" "$T/e" ||
    { cat "$T/e"; fail "$cmd --jobs 0: message"; }
done
exit 0
