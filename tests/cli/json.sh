# --json: one array, valid JSON, with verdicts, states and witnesses.
set -eu
out=$("$WL" litmus --json "$ROOT/scripts/litmus/MP.litmus" "$ROOT/scripts/litmus/SB.litmus")
printf "%s\n" "$out" | grep -q '"test": "MP"'
printf "%s\n" "$out" | grep -q '"ok": false'
printf "%s\n" "$out" | grep -q '"ok": true'
printf "%s\n" "$out" | grep -q '"witness": {"events"'
if command -v python3 >/dev/null 2>&1; then
  printf "%s\n" "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d)==2 and d[0]["states"]==[[0,0],[0,1],[1,1]], d[0]["states"]'
elif command -v node >/dev/null 2>&1; then
  printf "%s\n" "$out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const d=JSON.parse(s);if(d.length!==2)process.exit(1)})'
fi
# sample --json: one array of histograms over the files, as parseable
# JSON, with the result's field names and every outcome's values
out=$("$WL" sample --json -n 500 -j 1 "$ROOT/scripts/litmus/MP.litmus" \
      "$ROOT/scripts/litmus/SB.litmus")
printf "%s\n" "$out" | grep -q '"test": "SB", "file": '
printf "%s\n" "$out" | grep -q '"runs": 500, "hung": 0, "partial": false'
printf "%s\n" "$out" | grep -q '{"values": {"0:r0": '
if command -v python3 >/dev/null 2>&1; then
  printf "%s\n" "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d) == 2 and [h["test"] for h in d] == ["MP", "SB"], d
for h in d:
    assert sum(o["count"] for o in h["outcomes"]) == 500, h
    assert h["positive"] + h["negative"] == 500, h
    for o in h["outcomes"]:
        assert sorted(o["values"]) == sorted(h["variables"]), o
        assert o["weak"] in (True, False), o
'
fi
# an empty list when every file fails, still valid JSON
out=$("$WL" sample --json -n 10 /nonexistent.litmus 2>/dev/null || true)
[ "$out" = "[]" ]
