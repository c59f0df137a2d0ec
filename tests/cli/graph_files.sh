# --graph DIR (issue 20, items 15-17 and 26): an empty or unusable
# directory is refused; two tests with the same name (or names that
# make the same file name) get distinct graph files, and a note says
# so; a graph that cannot be written is an error naming the file; the
# threads of every witness graph come left to right as P0, P1, ...
set -u
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "$*"; exit 1; }
case $WL in /*) ;; *) WL=$PWD/$WL ;; esac
L="$ROOT/scripts/litmus"
WARPLAB_SHARED=$SHARED
export WARPLAB_SHARED
# 16: "" is no directory (it wrote into /), nor is a file
(cd "$D" && "$WL" litmus -q --graph "" "$L/MP.litmus") > /dev/null 2> "$D/err"
rc=$?
[ $rc -eq 2 ] || fail "--graph '': want 2, got $rc"
grep -q -- "--graph takes a directory name" "$D/err" || { cat "$D/err"; fail "--graph '' message"; }
: > "$D/file"
"$WL" litmus -q --graph "$D/file" "$L/MP.litmus" > /dev/null 2> "$D/err"
rc=$?
[ $rc -eq 2 ] || fail "--graph FILE: want 2, got $rc"
grep -q "file: not a directory" "$D/err" || { cat "$D/err"; fail "--graph FILE message"; }
"$WL" litmus -q --graph "$D/no/such" "$L/MP.litmus" > /dev/null 2> "$D/err"
[ $? -eq 2 ] || fail "--graph in a missing directory"
grep -q "no/such: No such file or directory" "$D/err" || { cat "$D/err"; fail "missing dir message"; }
# 17: the same test name twice (and a name that makes the same file
# name): three sets of graphs, the later ones suffixed, with a note
mkdir "$D/b"
cp "$L/MP.litmus" "$D/b/MP.litmus"
sed 's/^PTX MP$/PTX MP?/' "$L/MP.litmus" > "$D/MPq.litmus"
"$WL" litmus -q --graph "$D/g" "$L/MP.litmus" "$D/b/MP.litmus" \
  "$D/MPq.litmus" > /dev/null 2> "$D/err" || { cat "$D/err"; fail "graphs"; }
n1=$(ls "$D/g" | grep -c '^MP\.[0-9]*\.dot$')
n2=$(ls "$D/g" | grep -c '^MP-2\.[0-9]*\.dot$')
n3=$(ls "$D/g" | grep -c '^MP_\.[0-9]*\.dot$')
[ "$n1" -ge 1 ] && [ "$n1" -eq "$n2" ] && [ "$n3" -eq "$n1" ] ||
  { ls "$D/g"; fail "graphs overwritten: $n1 $n2 $n3"; }
grep -q "b/MP.litmus: another test of this run makes graphs named MP: this one's are MP-2" "$D/err" ||
  { cat "$D/err"; fail "no note about the renamed graphs"; }
# 15: a graph file that cannot be written (it leads to a full device)
mkdir "$D/full"
ln -s /dev/full "$D/full/MP.1.dot"
"$WL" litmus -q --graph "$D/full" "$L/MP.litmus" > /dev/null 2> "$D/err"
rc=$?
[ $rc -eq 1 ] || fail "a full graph file: want 1, got $rc"
grep -q "writing $D/full/MP.1.dot: No space left on device" "$D/err" ||
  { cat "$D/err"; fail "a full graph file: no message"; }
[ -L "$D/full/MP.1.dot" ] || fail "the link was replaced"
# ... nor an SVG (dot's own message, then warplab's); SVGs otherwise
# are written through a temporary, with a new file's usual mode
if command -v dot >/dev/null 2>&1; then
  mkdir "$D/fsvg"
  ln -s /dev/full "$D/fsvg/MP.1.svg"
  "$WL" litmus -q --graph "$D/fsvg" "$L/MP.litmus" > /dev/null 2> "$D/err"
  [ $? -eq 1 ] || { cat "$D/err"; fail "a full SVG: want 1"; }
  grep -q "dot -Tsvg $D/fsvg/MP.1.dot -o $D/fsvg/MP.1.svg failed" "$D/err" ||
    { cat "$D/err"; fail "a full SVG: no message"; }
  [ "$(umask)" != 0022 ] ||
    [ "$(stat -c %a "$D/g/MP.1.svg")" = 644 ] || fail "SVG mode"
  ! ls "$D/g" | grep -q 'XXX\|\.svg\.' || { ls "$D/g"; fail "temporaries left"; }
fi
# 26: P0, P1, ... left to right in every graph (dot's own layout,
# read back from -Tplain)
command -v dot >/dev/null 2>&1 || exit 0
command -v python3 >/dev/null 2>&1 || exit 0
"$WL" litmus -q --graph "$D/o" "$L/IRIW+threadfence.litmus" "$L/SB.litmus" \
  "$L/MP.litmus" > /dev/null 2>&1
python3 - "$D/o" <<'PY'
import glob, re, subprocess, sys
files = sorted(glob.glob(sys.argv[1] + "/*.dot"))
assert len(files) >= 10, files
for f in files:
    src = open(f).read()
    thread, cur = {}, None
    for line in src.splitlines():
        m = re.match(r"\s*subgraph (?:cluster_)?P(\d+) \{", line)
        if m:
            cur = int(m.group(1))
            continue
        m = re.match(r"\s*(e\d+) \[id=", line)
        if m and cur is not None:
            thread[m.group(1)] = cur
    plain = subprocess.run(["dot", "-Tplain", f], capture_output=True,
                           text=True, check=True).stdout
    left = {}
    for line in plain.splitlines():
        p = line.split()
        if p[0] == "node" and p[1] in thread:
            t = thread[p[1]]
            left[t] = min(left.get(t, 1e9), float(p[2]))
    order = sorted(left, key=left.get)
    assert order == sorted(order), (f, order)
PY
