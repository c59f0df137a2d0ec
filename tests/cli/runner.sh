# The test runner's stages (tests/stages.sh) count a crash as a failure:
# a program that prints one "ok" and dies, or that exits 0 after fewer
# "ok" lines than the stage has cases, is a failure, never "0 failed";
# and a healthy program passes.  Runs the stages over a small fake corpus
# (SHARED and ROOT of our own) with fake programs.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
REAL_ROOT=$ROOT
E="$T/shared/conformance/dat3m/expected"
mkdir -p "$E" "$T/shared/spec" "$T/root/scripts/litmus" "$T/root/tests/hw/shapes"
printf 'litmus/PTX/a.litmus,1\nlitmus/PTX/b.litmus,0\r\n' > "$E/PTXv6_0-expected.csv"
printf 'litmus/PTX/a.litmus,1\nlitmus/PTX/b.litmus,0\nlitmus/PTX/p.litmus,1\n' > "$E/PTXv7_5-expected.csv"
# the liveness files end without a newline, as Dat3M's do
for v in PTXv6_0 PTXv7_5; do
  printf 'litmus/PTX/c.litmus,1\nlitmus/PTX/d.litmus,0' > "$E/$v-Liveness-expected.csv"
done
: > "$T/root/scripts/litmus/X.litmus"
: > "$T/root/tests/hw/shapes/H.litmus"
printf '# name want\nH yes\n' > "$T/root/tests/hw/expect.txt"

# healthy: one "ok" per distinct row of the CSVs it is given, or per file
cat > "$T/conf-good" <<'F'
#!/bin/sh
for a in "$@"; do case $a in *.csv) cat "$a" ;; esac; done |
  tr -d '\r' | sed -n 's|^litmus/PTX/\([^,]*\),.*|ok \1|p' | sort -u
F
cat > "$T/sound-good" <<'F'
#!/bin/sh
shift
for f in "$@"; do
  echo "ok $f (condition seen: weak 3, h100 5; hung: 0, 0)"
done
F
# one "ok", then a segmentation fault
cat > "$T/crash" <<'F'
#!/bin/sh
echo "ok first"
kill -SEGV $$
F
# exits 0 after the first "ok" line
cat > "$T/short" <<'F'
#!/bin/sh
echo "ok first"
exit 0
F
chmod +x "$T"/conf-good "$T"/sound-good "$T"/crash "$T"/short

# run_stage STAGE CONFORMANCE SOUNDNESS: prints "pass fail" of the stage
run_stage() {
  (
    pass=0 fail=0
    ok() { pass=$((pass + 1)); }
    bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
    B=$T/nobuild ROOT=$T/root SHARED=$T/shared CONFORMANCE=$2 SOUNDNESS=$3
    . "$REAL_ROOT/tests/stages.sh"
    "$1" > /dev/null
    echo "$pass $fail"
  ) 2> "$T/err"
}
want() {
  [ "$1" = "$2" ] || { echo "$3: got '$1', want '$2'"; cat "$T/err"; exit 1; }
}
# healthy: 3 rows + the 2 liveness runs (2, 2 rows) + the 3 model runs
# (2, 2, 3 rows); 3 files + 1 hw file
want "$(run_stage stage_conformance "$T/conf-good" x)" "14 0" "healthy conformance"
want "$(run_stage stage_soundness x "$T/sound-good")" "4 0" "healthy soundness"
# a crash after one "ok" fails each of the 6 conformance runs
want "$(run_stage stage_conformance "$T/crash" x)" "6 6" "crashing conformance"
grep -q "exit status 139" "$T/err" || { cat "$T/err"; exit 1; }
# soundness: the sampling run and the hw run fail, and hw H has no result
want "$(run_stage stage_soundness x "$T/crash")" "1 3" "crashing soundness"
# exit 0 after too few "ok" lines
want "$(run_stage stage_conformance "$T/short" x)" "6 6" "short conformance"
grep -q "1 of 3 cases ok" "$T/err" || { cat "$T/err"; exit 1; }
want "$(run_stage stage_soundness x "$T/short")" "1 2" "short soundness"
# a program that is not there
want "$(run_stage stage_soundness x "$T/none")" "0 3" "missing soundness"
# and tests/run.sh runs these stages
for f in stage_conformance stage_soundness; do
  grep -q "^  $f\$" "$REAL_ROOT/tests/run.sh" || { echo "run.sh lacks $f"; exit 1; }
done
exit 0
