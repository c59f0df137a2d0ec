# Names taken from a test (issue 20, items 2 and 11): test, file,
# register and location names with bytes that are not UTF-8, quotes,
# control characters and markup land escaped in every output -- JSON
# stays valid JSON and UTF-8 (each bad byte as \ufffd), DOT stays one
# label that Graphviz reads, the report's HTML carries no markup of the
# test's.
set -eu
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3" >&2; exit 0; }
# a .litmus file whose name has a byte that is not UTF-8 and markup
printf 'PTX M\377<b>&amp;\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\nexists (1:r0=1 /\\ 1:r1=0)\n' \
  > "$D/n$(printf '\376')x.litmus"
F=$(ls "$D"/n*x.litmus)
# strict: the bytes must decode as UTF-8, then parse as JSON
check_json() {
  python3 -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
s = json.dumps(d)
assert "\\ufffd" in s, s[:200]
' "$1" || { echo "not valid JSON/UTF-8: $1"; head -c 400 "$1"; exit 1; }
}
"$WL" litmus --json "$F" > "$D/l.json"
check_json "$D/l.json"
"$WL" litmus --json --why-not "$F" > "$D/w.json" 2>/dev/null || true
check_json "$D/w.json"
"$WL" sample --json -n 20 "$F" > "$D/s.json"
check_json "$D/s.json"
# Lua: names with every kind of byte, registers of a thread function too
cat > "$D/t.lua" <<'LUA'
local wl = require "warplab"
local dir = ...
-- (control characters in a test's name are refused: cuda.lua)
local name = "N\255\"<i>&lt;</i>\\'"
local t = wl.litmus { name = name, init = { x = 0 },
  function(d) d.x = 1 end,
  function(d) local v = d.x; return { ["r\"<\255\1&"] = v } end }
local r = t:explore()
local function save(f, s)
  local h = assert(io.open(dir .. "/" .. f, "wb")); h:write(s); h:close()
end
save("r.json", r:json())
save("g.dot", r:graph(1))
local w = r:whynot()
save("wn.json", w.json)
save("h.json", t:sample { n = 10, seed = 1 }:json())
save("c.json", wl.check_summary(true))
save("page.html", wl.report { t, runs = 10, graphs = 1 })
LUA
"$WL" run "$D/t.lua" "$D"
for j in r wn h; do check_json "$D/$j.json"; done
python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$D/c.json"
python3 - "$D/r.json" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
assert d["test"] == "N\ufffd\"<i>&lt;</i>\\'", repr(d["test"])
reg = "1:r\"<\ufffd\x01&"
assert reg in d["observed"], d["observed"]
assert all(reg in s["values"] for s in d["final_states"]), d["final_states"]
PY
# DOT: valid UTF-8, one label Graphviz reads without a warning, the
# entity-like text shown as written
python3 -c 'import sys; open(sys.argv[1],"rb").read().decode("utf-8")' "$D/g.dot"
python3 - "$D/g.dot" <<'PY'
import sys
s = open(sys.argv[1], "rb").read().decode("utf-8")
want = ('label="N\ufffd\\"<i>&amp;lt;</i>\\\\\': '
        'witness of 1:r\\"<\ufffd\\\\x01&amp;=0')
assert want in s, (want, s[:300])
PY
if command -v dot >/dev/null 2>&1; then
  dot -Tsvg "$D/g.dot" -o "$D/g.svg" 2> "$D/dot.err"
  [ ! -s "$D/dot.err" ] || { cat "$D/dot.err"; exit 1; }
  grep -q '&amp;lt;' "$D/g.svg" || { echo "the label lost its '&lt;'"; exit 1; }
  ! grep -q '<i>' "$D/g.svg" || { echo "markup in the SVG"; exit 1; }
fi
# HTML: valid UTF-8, the test's markup escaped, no control character
python3 - "$D/page.html" <<'PY'
import re, sys
s = open(sys.argv[1], "rb").read().decode("utf-8")
assert "<i>" not in s and "</i>" not in s, "markup of the test in the page"
assert "N\ufffd&quot;&lt;i&gt;&amp;lt;" in s, "the name is not in the page"
assert not re.search("[\x00-\x08\x0b\x0e-\x1f\x7f]", s), "control characters"
PY
# a control character in a .litmus test's name is refused with its
# place (it would start a line of its own in the text outputs)
printf 'PTX A\tB\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x=1)\n' \
  > "$D/tab.litmus"
rc=0
"$WL" litmus "$D/tab.litmus" > /dev/null 2> "$D/err" || rc=$?
[ "$rc" = 1 ] || { echo "a tab in the name: exit $rc"; exit 1; }
grep -q "tab.litmus:1:6: a control character (0x09) in the test's name" \
  "$D/err" || { cat "$D/err"; exit 1; }
