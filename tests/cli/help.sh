# warplab help documents the litmus command and its options.
set -eu
out=$("$WL" help)
for w in "litmus" "gen" "--cycle" "--random" "--json" "--unroll" "Exit status" "sample" "--jobs" \
         "--profile" "--seed" "130" "wl.device" "dev:launch" "--no-symmetry" \
         "--no-prefix" "--no-stutter" "--no-thin-air-filter" \
         "--search auto|values|rf" "reads-from search" "--copies"; do
  printf "%s\n" "$out" | grep -q -- "$w" || { echo "help lacks $w"; exit 1; }
done
"$WL" --version | grep -q '^warplab [0-9]'
