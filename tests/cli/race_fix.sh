# Litmus Race lines say what would order the pair (issue 20, item 29),
# tailored to the cause: strong accesses whose scope is too narrow; weak
# accesses with synchronisation too narrow, with synchronisation this
# execution does not use (the reader does not wait for the flag), or
# with none.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
race() { "$WL" litmus "$1" | grep '^Race ' || fail "no Race line for $1"; }
has() { printf '%s\n' "$1" | grep -qF -- "$2" || fail "want '$2' in: $1"; }
hasnt() { printf '%s\n' "$1" | grep -qF -- "$2" && fail "not '$2' in: $1"; true; }
L="$ROOT/scripts/litmus"
# no synchronisation at all
out=$(race "$L/MP+weak.litmus")
has "$out" "(PTX data race); both accesses are weak and nothing orders them: a release by P0 after its write (st.release.gpu of a flag"
has "$out" "that P1 observes with an acquire before its read (ld.acquire.gpu"
has "$out" "; or make both strong at .gpu (st.relaxed.gpu and ld.relaxed.gpu, or atomics)"
# fences too narrow for threads of two CTAs
out=$(race "$L/MP+threadfence_block.litmus")
has "$out" "both accesses are weak and the synchronisation's scope is too narrow (P0's fence.sc.cta at line 7 does not include P1; P1's fence.sc.cta at line 7 does not include P0): use .gpu"
hasnt "$out" "nothing orders them"
# release/acquire wide enough, but the reader reads x whatever the flag
out=$(race "$L/MP.litmus")
has "$out" "P0 and P1 synchronise at a scope covering both"
has "$out" "have P1's read wait until it sees the flag"
hasnt "$out" "too narrow"
# strong accesses, one scope too narrow: only the scope is said
printf 'PTX Scope\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.cta x, 1 | ld.relaxed.gpu r0, x ;\nexists (1:r0=0)\n' > "$T/scope.litmus"
out=$(race "$T/scope.litmus")
has "$out" "both are strong, but P0's .cta scope does not include P1, so the pair is not morally strong: give both .gpu scope (st.relaxed.gpu and ld.relaxed.gpu, or atomics at .gpu)"
hasnt "$out" "P1's .gpu scope"
# one weak access in one CTA: .cta is enough
printf 'PTX One\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.relaxed.cta x, 1 | ld.weak r0, x ;\nexists (1:r0=0)\n' > "$T/one.litmus"
out=$(race "$T/one.litmus")
has "$out" "; P1's access is weak and nothing orders them"
has "$out" "or make both strong at .cta (st.relaxed.cta and ld.relaxed.cta"
# the JSON's race and Lua's r.race carry the same text as "fix"
for f in "$L/MP.litmus" "$T/scope.litmus" "$T/one.litmus"; do
  line=$("$WL" litmus "$f" | sed -n 's/^Race [^:]*: .*(PTX data race); //p')
  [ -n "$line" ] || { echo "no Race line for $f"; exit 1; }
  json=$("$WL" litmus --json "$f" | python3 -c \
    'import json,sys; print(json.load(sys.stdin)[0]["race"]["fix"])')
  [ "$json" = "$line" ] || { echo "JSON fix: $json"; echo "line: $line"; exit 1; }
  printf '%s\n' "local wl = require 'warplab'" \
    "io.write(wl.load('$f'):explore().race.fix, '\\n')" > "$T/fix.lua"
  lua=$("$WL" run "$T/fix.lua")
  [ "$lua" = "$line" ] || { echo "Lua fix: $lua"; exit 1; }
done
# the report's finding says it too
"$WL" report --runs 0 -o "$T/r.html" "$L/MP.litmus" > /dev/null 2>&1 ||
  { echo "report failed"; exit 1; }
grep -q "have P1&#39;s read wait until it sees the flag\|have P1's read wait until it sees the flag" "$T/r.html" ||
  { echo "the report lacks the fix"; exit 1; }
exit 0
