# --model: the cat evaluator.  MP with fence.sc.cta in two CTAs joined by
# gpu release/acquire: the built-in explorer and ptx-v6.0-isa.cat allow
# the sequentially consistent outcome r0=1, r1=1 (3 states);
# ptx-v6.0.cat read literally forbids it (2 states).  A bad model names
# file:line:col.
set -eu
T="$ROOT/tests/litmus/MP+sc.cta+diffCTA+relacq.gpu.litmus"
S="$SHARED/spec"
n() { "$WL" litmus "$@" "$T" | sed -n 's/^States //p'; }
[ "$(n)" = 3 ] || { echo "built-in: $(n) states"; exit 1; }
[ "$(n --model "$S/ptx-v6.0-isa.cat")" = 3 ] || exit 1
[ "$(n --model="$S/ptx-v6.0.cat")" = 2 ] || exit 1
"$WL" litmus --model "$S/ptx-v6.0-isa.cat" "$T" | grep -q '^1:r0=1; 1:r1=1;$'
# a name without a folder is looked up in $WARPLAB_SHARED/spec
[ "$(WARPLAB_SHARED="$SHARED" n --model ptx-v7.5.cat)" = 3 ] || exit 1
# proxy tests need the 7.5 model, and run with it
P="$SHARED/conformance/dat3m/PTX/Nvidia/proxy/Proxy-MP-gen.litmus"
if "$WL" litmus "$P" 2>/dev/null; then echo "proxy test ran without a model"; exit 1; fi
"$WL" litmus --model "$S/ptx-v7.5.cat" -q "$P" | grep -q 'Ok$\|No$'
# errors name the place
d=$(mktemp -d)
printf 'M\nlet a = po |\nacyclic a\n' > "$d/bad.cat"
printf 'M\nacyclic foo as x\n' > "$d/unknown.cat"
if "$WL" litmus --model "$d/bad.cat" "$T" 2> "$d/err"; then exit 1; fi
grep -q "bad.cat:3:1: " "$d/err" || { cat "$d/err"; exit 1; }
if "$WL" litmus --model "$d/unknown.cat" "$T" 2> "$d/err"; then exit 1; fi
grep -q "unknown.cat:2:9: unknown relation 'foo'" "$d/err" || { cat "$d/err"; exit 1; }
if "$WL" litmus --model "$d/missing.cat" "$T" 2> "$d/err"; then exit 1; fi
grep -q "missing.cat" "$d/err"
rm -rf "$d"
