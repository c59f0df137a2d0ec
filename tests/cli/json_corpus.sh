# JSON of the conformance corpus (issue 14): `warplab litmus --json`
# over the PTX 6.0 tests of ../shared/conformance parses, and its
# verdicts and states round-trip: the same as the herd text's, and as
# Dat3M's expected results.  `warplab sample --json` likewise for the
# histograms, once the command has it (it comes with issue 13's JSON;
# until then that half says it is skipped).
set -eu
# run by itself (sh tests/cli/json_corpus.sh from the top of the repository), it
# finds what the runner (tests/run.sh) would give it
: "${ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${WL:=$ROOT/build/release/warplab}"
: "${SHARED:=$(sh "$ROOT/scripts/shared.sh" "$ROOT")}"
C="$SHARED/conformance/dat3m"
[ -d "$C/PTX" ] || { echo "SKIP json_corpus: no corpus at $C" >&2; exit 0; }
command -v python3 >/dev/null 2>&1 ||
  { echo "SKIP json_corpus: no python3 to parse JSON" >&2; exit 0; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
sed -n 's|^litmus/\(PTX/[^,]*\),\([01]\)$|\1 \2|p' \
  "$C/expected/PTXv6_0-expected.csv" > "$D/expected"
files=""
while read -r f e; do
  case $f in *proxy*) continue ;; esac
  [ -f "$C/$f" ] && files="$files $C/$f"
done < "$D/expected"
# shellcheck disable=SC2086
"$WL" litmus --json $files > "$D/all.json"
# shellcheck disable=SC2086
"$WL" litmus $files > "$D/all.herd"
python3 - "$D/all.json" "$D/all.herd" "$D/expected" "$C" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
herd = []
for line in open(sys.argv[2]):
    w = line.split()
    if line.startswith("Test "):
        herd.append({"name": w[1]})
    elif line.startswith("States "):
        herd[-1]["states"] = int(w[1])
    elif w and w[-1] in ("Ok", "No") and len(w) <= 2:
        herd[-1]["ok"] = w[-1] == "Ok"
exp = {}
for line in open(sys.argv[3]):
    f, e = line.split()
    exp[sys.argv[4] + "/" + f] = e == "1"
assert len(res) == len(herd) and len(res) > 50, (len(res), len(herd))
for r, h in zip(res, herd):
    assert r["test"] == h["name"]
    assert r["ok"] == h["ok"], r["test"]
    assert len(r["states"]) == h["states"], r["test"]
    assert r["ok"] == bool(r["verdict"])
    assert r["ok"] == exp[r["file"]], r["file"]
    # every final state's witness refers to its own events
    for s in r["final_states"]:
        ev = s["witness"]["events"]
        for e in ev:
            if e["kind"] == "R":
                assert 0 <= e["rf"] < len(ev)
    # the JSON text round-trips
    assert json.loads(json.dumps(r)) == r
print(len(res), "tests round-trip")
PY
# sampling: histograms in JSON, when the command writes them
if "$WL" sample --json -n 10 "$ROOT/scripts/litmus/MP.litmus" \
     > "$D/s.json" 2>/dev/null; then
  set -- $files
  "$WL" sample --json -n 200 --seed 7 "$@" > "$D/sample.json"
  "$WL" sample -n 200 --seed 7 "$@" > "$D/sample.txt"
  python3 - "$D/sample.json" "$D/sample.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d = d if isinstance(d, list) else [d]
text = open(sys.argv[2]).read()
assert len(d) > 50
for h in d:
    assert json.loads(json.dumps(h)) == h
    runs = h.get("runs")
    assert runs is None or runs == 200, h.get("test")
print(len(d), "histograms parse")
PY
else
  echo "SKIP json_corpus (sample half): warplab sample has no --json yet" >&2
fi
