#!/bin/bash
D=$(cd "$(dirname "$0")" && pwd); cd /tmp; rm -rf b; mkdir b; cd b
tar xzf $D/bar.tgz; mkdir -p out/plain out/stress bin
ls *.cu | sed 's/\.cu$//' | xargs -P 15 -I{} sh -c 'nvcc -O3 -arch=sm_90 -w -o bin/{} {}.cu > bin/{}.err 2>&1'
for n in $(ls *.cu | sed 's/\.cu$//'); do for h in plain stress; do
  timeout 25 bin/$n --harness $h --launches 50 > out/$h/$n.txt 2> out/$h/$n.err || echo "rc $? $h $n"
done; done
tar czf $OUT/bar.tgz out; grep -h "^Observation\|^# barriers" out/stress/*.txt | head -30
