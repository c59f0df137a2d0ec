# The models ship with warplab (models/, PREFIX/share/warplab/models)
# and are found from the program, not from ../shared or the current
# directory (issue 20, item 21): run from an empty folder with
# WARPLAB_SHARED unset, as in a clone, as installed (a copy of the
# binary with the models in ../share/warplab/models), with
# WARPLAB_MODELS; --model NAME without .cat; --why-not with no model to
# be found fails with a message and nonzero exit, --json included.
set -eu
WL=$(cd "$(dirname "$WL")" && pwd)/$(basename "$WL")
T="$ROOT/tests/litmus/MP+sc.cta+diffCTA+relacq.gpu.litmus"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
unset WARPLAB_SHARED WARPLAB_MODELS
cd "$d"
n() { "$@" "$T" | sed -n 's/^States //p'; }
# the build tree: BUILD/../../models
[ "$(n "$WL" litmus --model ptx-v6.0-isa.cat)" = 3 ] || exit 1
[ "$(n "$WL" litmus --model ptx-v6.0)" = 2 ] || exit 1
[ "$(n "$WL" litmus --model ptx-v7.5)" = 3 ] || exit 1
"$WL" litmus --why-not "$T" > out
grep -q "forbidden by axiom-Causality" out || { cat out; exit 1; }
"$WL" litmus --why-not --json "$T" > out
grep -q '"whynot"' out || { cat out; exit 1; }
# a file of that name here is read as the file
printf 'Mine\nacyclic po\n' > ptx-v7.5.cat
[ "$(n "$WL" litmus --model ptx-v7.5.cat)" = 4 ] || exit 1
rm ptx-v7.5.cat
# ... but the defaults are never files here: r:whynot() and --why-not
# with a broken ptx-v6.0-isa.cat in the current directory
printf 'Broken\nacyclic nosuchrelation\n' > ptx-v6.0-isa.cat
"$WL" litmus --why-not "$T" > out
grep -q "forbidden by axiom-Causality" out || { cat out; exit 1; }
printf '%s\n' "local wl = require 'warplab'" \
  "local r = wl.load('$T'):explore()" \
  "assert(r:whynot().text:find('axiom%-Causality'), 'whynot default')" \
  > w.lua
"$WL" run w.lua || exit 1
rm ptx-v6.0-isa.cat
# installed: PREFIX/bin/warplab and PREFIX/share/warplab/models
mkdir -p inst/bin inst/share/warplab/models bare/bin mine
cp "$WL" inst/bin/warplab
cp "$ROOT"/models/*.cat inst/share/warplab/models/
[ "$(n inst/bin/warplab litmus --model ptx-v6.0)" = 2 ] || exit 1
inst/bin/warplab litmus --why-not "$T" | grep -q "axiom-Causality"
# $WARPLAB_MODELS comes first
printf 'Mine\nacyclic po\n' > mine/ptx-v6.0.cat
[ "$(WARPLAB_MODELS=$d/mine n inst/bin/warplab litmus --model ptx-v6.0)" = 4 ] ||
  exit 1
# no models anywhere (unless installed under /usr/local): named, exit 2
cp "$WL" bare/bin/warplab
if [ ! -e /usr/local/share/warplab/models/ptx-v6.0-isa.cat ]; then
  for j in "" --json; do
    rc=0
    bare/bin/warplab litmus --why-not $j "$T" > out 2> err || rc=$?
    [ "$rc" = 2 ] || { echo "why-not $j without a model: exit $rc"; exit 1; }
    grep -q "no model 'ptx-v6.0-isa.cat'" err || { cat err; exit 1; }
    grep -q "$d/bare/bin/../share/warplab/models" err || { cat err; exit 1; }
  done
  rc=0
  bare/bin/warplab litmus --model ptx-v7.5 "$T" > out 2> err || rc=$?
  [ "$rc" = 2 ] && grep -q "no model 'ptx-v7.5'" err || { cat err; exit 1; }
  # --graph alone: the file's why-not graph is missing, which is said
  rc=0
  bare/bin/warplab litmus --graph g "$T" > out 2> err || rc=$?
  [ "$rc" = 1 ] && grep -q "no why-not graph" err || { cat err; exit 1; }
fi
