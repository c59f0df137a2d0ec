#!/bin/bash
# i22 harness measurement: build every program, run each under the
# presets plain, sync, stress, parallel (50 launches), stop by DEADLINE s.
D=$(cd "$(dirname "$0")" && pwd); cd /tmp; rm -rf w; mkdir w; cd w
T0=$(date +%s); DL=${DEADLINE:-500}
tar xzf $D/cu.tgz; mkdir -p bin out
nvidia-smi -L > out/gpu.txt; nvcc --version | tail -2 >> out/gpu.txt
(cat $D/order.txt | xargs -P 15 -I{} sh -c 'nvcc -O3 -arch=sm_90 -w -o bin/{} {}.cu > bin/{}.err 2>&1; touch bin/{}.done') &
n_done=0
for h in ${HARN:-plain sync stress parallel}; do mkdir -p out/$h; done
for n in $(cat $D/order.txt); do
  while [ ! -e bin/$n.done ]; do sleep 0.1; done
  [ -x bin/$n ] || { echo "build fail $n" >> out/log.txt; continue; }
  [ $(( $(date +%s) - T0 )) -gt $DL ] && { echo "deadline at $n" >> out/log.txt; break; }
  for h in ${HARN:-plain sync stress parallel}; do
    s=$(date +%s.%N)
    timeout 40 bin/$n --harness $h --launches 50 > out/$h/$n.txt 2> out/$h/$n.err || echo "rc $? $h $n" >> out/log.txt
    echo "$n $h $(awk "BEGIN{print $(date +%s.%N) - $s}")" >> out/times.txt
  done
  n_done=$((n_done+1))
done
echo "tests run: $n_done in $(( $(date +%s) - T0 )) s" >> out/log.txt
for n in $(head -${TUNE_N:-3} $D/order.txt); do
  [ -x bin/$n ] && [ $(( $(date +%s) - T0 )) -lt $(( DL + 40 )) ] && timeout 60 bin/$n --tune --tune-launches 2 --launches 10 > out/tune.$n.txt 2>&1
done
tar czf $OUT/hist.tgz out; cat out/log.txt | tail -20; tail -3 out/times.txt
