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
