# warplab campaign and warplab merge (issue 23) without Slurm: a
# campaign's shards run through local.sh (GNU parallel or xargs -P, as
# on a workstation) and merged give what one warplab litmus over the
# list prints (Time lines and "time" values aside), as text, --herd and
# JSON, with a file that fails among them (exit 1 both ways); the shards
# are contiguous runs of the list of about equal size; merge refuses
# what is no shard output (bad JSON, a JSON array laid out otherwise,
# text that is no Test block, formats mixed) naming the file, and says
# when a shard holds a Partial result.  The same campaign through sbatch
# is tests/slurm.sh (a CI stage: it starts a one-node Slurm).
set -u
: "${ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${WL:=$ROOT/build/release/warplab}"
W=$(cd "$(dirname "$WL")" && pwd)/$(basename "$WL")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
cd "$T" || exit 1
"$W" gen --random --count 120 --seed 11 -o tests > /dev/null 2>&1 ||
  fail "gen failed"
ls tests/*.litmus | LC_ALL=C sort > list
printf 'PTX broken\n{ x=0; }\n P0 ;\n' > tests/zz-broken.litmus
echo tests/zz-broken.litmus >> list
n=$(wc -l < list)
[ "$n" = 121 ] || fail "want 121 files, got $n"
notime() { sed -e '/^Time /d' -e 's/"time": [-0-9.e+]*/"time": 0/' "$1"; }
for fmt in text herd json; do
  case $fmt in text) opt= ext=txt ;; herd) opt=--herd ext=herd ;; json) opt=--json ext=json ;; esac
  # shellcheck disable=SC2086
  "$W" litmus $opt $(cat list) > one.$ext 2> /dev/null
  want=$?
  [ $want = 1 ] || fail "litmus $opt on the list: exit $want, want 1"
  # shellcheck disable=SC2086
  "$W" campaign --shards 5 $opt --list list -o c-$fmt > out ||
    fail "campaign $opt failed"
  grep -q "121 files in 5 shards" out || { cat out; fail "campaign $opt: $(head -n 1 out)"; }
  sh c-$fmt/local.sh 2 > /dev/null 2> err
  rc=$?
  [ $rc = 1 ] || { cat err; fail "local.sh $opt: exit $rc, want 1 (a file failed)"; }
  [ -f c-$fmt/merged.$ext ] || fail "local.sh $opt: no merged.$ext"
  notime one.$ext > a
  notime c-$fmt/merged.$ext > b
  cmp -s a b || { diff a b | head -n 10; fail "campaign $opt: merged output differs"; }
done
# the shards: contiguous, in order, the whole list, none empty
cat c-text/shard-0.list c-text/shard-1.list c-text/shard-2.list \
  c-text/shard-3.list c-text/shard-4.list > joined
cmp -s list joined || fail "the shards are not the list cut in order"
for k in 0 1 2 3 4; do
  m=$(wc -l < c-text/shard-$k.list)
  [ "$m" -ge 12 ] && [ "$m" -le 36 ] || fail "shard $k has $m files of 121"
done
# more shards than files: one file a shard
"$W" campaign --shards 50 -o c-small tests/rand-s11-1.litmus \
  tests/rand-s11-2.litmus > out || fail "campaign of 2 files"
grep -q "2 files in 2 shards" out || fail "2 files: $(head -n 1 out)"
# merge: its own checks
"$W" merge c-json/out/shard-0.json c-json/out/shard-1.json > m.json ||
  fail "merge of two JSON shards"
printf '[{"test": "x",}]\n' > bad.json
"$W" merge c-json/out/shard-0.json bad.json > /dev/null 2> err &&
  fail "merge took invalid JSON"
grep -q "bad.json: not valid JSON" err || { cat err; fail "merge: bad JSON message"; }
printf '[ {"test": "x"} ]\n' > odd.json
"$W" merge odd.json > /dev/null 2> err && fail "merge took an odd layout"
grep -q "odd.json: not laid out" err || { cat err; fail "merge: layout message"; }
printf 'hello\n' > bad.txt
"$W" merge bad.txt > /dev/null 2> err && fail "merge took text that is no output"
grep -q "bad.txt: neither" err || { cat err; fail "merge: text message"; }
"$W" merge c-text/out/shard-0.txt c-json/out/shard-1.json > /dev/null 2> err &&
  fail "merge took mixed formats"
grep -q "shard-1.json: JSON, where" err || { cat err; fail "merge: mixed message"; }
"$W" merge > /dev/null 2>&1
[ $? = 2 ] || fail "merge with no shard: want exit 2"
sed 's/^Time \(.*\)/Partial \1: interrupted\nTime \1/' c-text/out/shard-0.txt > part.txt
"$W" merge part.txt c-text/out/shard-1.txt > m.txt 2> err
[ $? = 1 ] || fail "merge of a Partial shard: want exit 1"
grep -q "part.txt: a result in it was cut short" err || { cat err; fail "merge: partial message"; }
# -o: written whole or not at all
"$W" merge -o "$T/no.json" c-json/out/shard-0.json bad.json 2> /dev/null &&
  fail "merge -o with a bad shard: exit 0"
[ ! -e "$T/no.json" ] && [ ! -e "$T/no.json.merge-tmp" ] ||
  fail "merge -o with a bad shard left a file"
"$W" merge -o "$T/m2.txt" c-text/out/shard-0.txt c-text/out/shard-1.txt ||
  fail "merge -o"
cat c-text/out/shard-0.txt c-text/out/shard-1.txt | cmp -s - m2.txt ||
  fail "merge -o: not the shards in order"
exit 0
