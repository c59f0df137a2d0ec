# warplab gen: tests from cycles and random programs.  The same seed
# gives the same tests; -o DIR writes one file per test that `warplab
# litmus` reads; --explore gives MP's known verdicts; bad options exit 2.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }

# a family to stdout: one test per annotation x placement, blank lines
# between
"$WL" gen --family MP --annotations weak,ra --scopes gpu --placements gpu \
  > "$T/mp" 2> "$T/err" || { cat "$T/err"; fail "family: exit $?"; }
[ "$(grep -c '^PTX ' "$T/mp")" = 2 ] || { cat "$T/mp"; fail "two tests"; }
grep -q '^PTX MP_ra.gpu_gpu$' "$T/mp" || fail "MP_ra.gpu_gpu"
grep -q '^exists (P1:r0=1 /\\ P1:r1=0)$' "$T/mp" || fail "condition (herd syntax)"
# --explore: weak allowed, release/acquire forbidden
"$WL" gen --family MP --annotations weak,ra --scopes gpu --placements gpu \
  --explore > "$T/x" || fail "explore"
printf 'MP_weak_gpu Ok 4\nMP_ra.gpu_gpu No 3\n' | cmp -s - "$T/x" ||
  { cat "$T/x"; fail "MP verdicts"; }

# a cycle; -o DIR; every file explores with warplab litmus
"$WL" gen --cycle "PodWW Rfe DpCtrldR Fre" -o "$T/d" 2> "$T/err" ||
  { cat "$T/err"; fail "cycle -o: exit $?"; }
grep -q "wrote 21 tests to $T/d" "$T/err" || { cat "$T/err"; fail "wrote"; }
[ -f "$T/d/MP+po+ctrl_ra.sys_sys.litmus" ] || { ls "$T/d"; fail "file name"; }
"$WL" litmus -q "$T"/d/*.litmus > "$T/q" || fail "litmus on the files"
[ "$(wc -l < "$T/q")" = 21 ] || fail "21 verdicts"

# random programs: deterministic by seed, and they explore
"$WL" gen --random --threads 3 --insns 3 --locs 2 --count 30 --seed 7 \
  > "$T/a" || fail "random"
"$WL" gen --random --threads 3 --insns 3 --locs 2 --count 30 --seed 7 \
  > "$T/b" || fail "random again"
"$WL" gen --random --threads 3 --insns 3 --locs 2 --count 30 --seed 8 \
  > "$T/c" || fail "random seed 8"
cmp -s "$T/a" "$T/b" || fail "same seed, different tests"
! cmp -s "$T/a" "$T/c" || fail "seeds 7 and 8 give the same tests"
[ "$(grep -c '^PTX rand-s7-' "$T/a")" = 30 ] || fail "30 random tests"
"$WL" gen --random --count 50 --seed 3 --explore > "$T/x" 2> "$T/err" ||
  { cat "$T/err"; fail "random --explore"; }
[ "$(grep -c -E '^rand-s3-[0-9]+ (Ok|No) [0-9]+$' "$T/x")" = 50 ] ||
  { cat "$T/x"; fail "50 explored"; }
# enumeration of a vocabulary; --list; sampling
"$WL" gen --edges "PodWW PodWR PodRW PodRR Rfe Fre Coe" --max-size 4 \
  --annotations weak --placements cta --list > "$T/l" || fail "edges"
for s in MP SB LB S R 2+2W; do
  grep -q "^${s}_weak_cta$" "$T/l" || { cat "$T/l"; fail "no $s"; }
done
"$WL" gen --family all --sample --count 5 --list > "$T/l" || fail "sample"
[ "$(wc -l < "$T/l")" = 5 ] || fail "5 sampled"
"$WL" gen --families | grep -q '^IRIW   Rfe PodRR Fre Rfe PodRR Fre$' ||
  fail "--families"

# interchangeable threads: deterministic by seed; every copy of a body
# is the same instructions (the explorer's symmetry); they explore
"$WL" gen --copies --count 40 --seed 5 > "$T/a" || fail "copies"
"$WL" gen --copies --count 40 --seed 5 > "$T/b" || fail "copies again"
cmp -s "$T/a" "$T/b" || fail "copies: same seed, different tests"
[ "$(grep -c '^PTX copies-s5-' "$T/a")" = 40 ] || fail "40 copies tests"
"$WL" gen --copies --threads 4 --insns 2 --locs 1 --placements gpu \
  --count 1 --seed 2 > "$T/c" || fail "copies 4x2"
# the cells of each instruction row: at most two different bodies, the
# first body's in at least two threads
awk -F'|' '/^ / && !/^ P0@/ { n = 0; split("", seen)
    for (i = 1; i <= NF; i++) { c = $i; sub(/;$/, "", c); gsub(/ /, "", c)
      if (!(c in seen)) n++; seen[c] = 1 }
    if (n > 2) bad = 1; rows++ }
  END { exit bad || rows < 2 }' "$T/c" || { cat "$T/c"; fail "copies rows"; }
grep -q '^ P0@cta 0,gpu 0 .*| P3@cta 3,gpu 0 *;$' "$T/c" ||
  { cat "$T/c"; fail "copies: four threads, a CTA each"; }
"$WL" gen --copies --count 30 --seed 9 --explore > "$T/x" 2> "$T/err" ||
  { cat "$T/err"; fail "copies --explore"; }
[ "$(grep -c -E '^copies-s9-[0-9]+ (Ok|No) [0-9]+$' "$T/x")" = 30 ] ||
  { cat "$T/x"; fail "30 copies explored"; }

# conditions in herd's syntax ("P1:r0=1", "x!=2": never "=="), which
# warplab reads back: the verdicts of the written files are gen's own
for args in "--random --count 40 --seed 11" "--copies --count 40 --seed 11" \
            "--family all --annotations ra --placements gpu --scopes gpu"; do
  rm -rf "$T/rt"
  # shellcheck disable=SC2086
  "$WL" gen $args > "$T/g" || fail "gen $args"
  grep -E '^(exists|~exists|forall) ' "$T/g" > "$T/conds"
  [ -s "$T/conds" ] || fail "$args: no conditions"
  ! grep -q '==' "$T/conds" || { grep '==' "$T/conds"; fail "$args: =="; }
  atom='(P[0-9]+:r[0-9]+|[a-z][a-z0-9]*)!?=-?[0-9]+'
  conj="$atom( /\\\\ $atom)*"
  grep -v -E "^(exists|~exists|forall) \(($conj|\($conj\)( \\\\/ \($conj\))*|true)\)\$" \
    "$T/conds" > "$T/odd" && { cat "$T/odd"; fail "$args: not herd's syntax"; }
  # shellcheck disable=SC2086
  "$WL" gen $args -o "$T/rt" 2> /dev/null || fail "gen $args -o"
  # shellcheck disable=SC2086
  "$WL" gen $args --explore | awk '{ print $1, $2 }' | sort > "$T/want"
  "$WL" litmus -q "$T"/rt/*.litmus | sort > "$T/got" ||
    fail "$args: warplab litmus cannot read what gen wrote"
  cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got"; fail "$args: verdicts"; }
done

# usage errors: exit 2 with a message
for args in "" "--family MP --random" "--family" "--count 0 --random" \
            "--random --threads 9" "--random --insns 0" "--random --mix x" \
            "--family MP --placements gpx" "--family MP --scopes mix" \
            "--family XY" "--cycle PodWR" "--cycle PodWW,Rfe,DpAddrdR,Fre" \
            "--edges PodWW --max-size 2" "--random --frob" "--random extra" \
            "--copies --insns 4" "--copies --threads 1" "--copies --locs 3" \
            "--copies --max-size 9" "--copies --random"; do
  # shellcheck disable=SC2086
  "$WL" gen $args > /dev/null 2> "$T/err"
  rc=$?
  [ $rc -eq 2 ] || fail "'$args': want exit 2, got $rc"
  grep -q "warplab gen: " "$T/err" || { cat "$T/err"; fail "'$args' msg"; }
done
"$WL" gen --cycle "PodWR Fre" 2> "$T/err"
grep -q "a cycle needs at least two external edges" "$T/err" ||
  { cat "$T/err"; fail "cycle message"; }
# -o makes the folders above DIR too (mkdir -p), as does cuda's -o DIR
# (litmus --graph DIR makes DIR only: tests/cli/graph_files.sh); a file
# in the way is an error, not a crash
N=$(mktemp -d)
"$WL" gen --family MP --count 2 -o "$N/a/b//c" > /dev/null 2>&1 ||
  { echo "gen -o a/b//c: failed"; exit 1; }
[ "$(ls "$N/a/b/c" | wc -l)" -eq 2 ] || { echo "gen -o a/b/c: not 2 files"; exit 1; }
"$WL" cuda -o "$N/x/y" "$N"/a/b/c/*.litmus > /dev/null 2>&1 ||
  { echo "cuda -o x/y: failed"; exit 1; }
[ "$(ls "$N/x/y" | wc -l)" -eq 2 ] || { echo "cuda -o x/y: not 2 programs"; exit 1; }
: > "$N/file"
"$WL" gen --family MP --count 1 -o "$N/file/sub" > /dev/null 2> "$N/err"
[ $? -eq 1 ] || { echo "gen -o through a file: not exit 1"; exit 1; }
grep -q "not a directory\|Not a directory" "$N/err" ||
  { cat "$N/err"; echo "gen -o through a file: no message"; exit 1; }
rm -rf "$N"
"$WL" help | grep -q "^  gen \[options\]" || fail "help lists gen"
exit 0
