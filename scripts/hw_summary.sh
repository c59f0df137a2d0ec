#!/bin/sh
# hw_summary.sh DIR... -- one TSV row per histogram DIR/*.hist written by
# a `warplab cuda` program: test, weak runs (the condition's outcome,
# for exists; violations for ~exists/forall), runs, rate, and the
# harness line.  Used to write tests/hw/observed/*/summary.tsv.
printf 'test\tpositive\truns\trate\tgpu\tharness\n'
for d in "$@"; do
  for f in "$d"/*.hist; do
    awk -v OFS='\t' '
      /^# gpu: / { sub(/^# gpu: /, ""); gpu = $0 }
      /^# harness: / { sub(/^# harness: /, ""); h = $0 }
      /^Test / { name = $2 }
      /^Positive: / { p = $2; sub(/,/, "", p); n = $4 }
      END { printf "%s\t%s\t%s\t%.3g\t%s\t%s\n", name, p, p + n,
            (p + n) ? p / (p + n) : 0, gpu, h }' "$f"
  done
done
