#!/bin/bash
# i22 item 1 (coverage): build every program (warplab cuda --launches 50,
# branch i22-cover), run each under every variant below (50 launches),
# stop starting tests after DEADLINE s.  A variant is DIR=ARGS.
D=$(cd "$(dirname "$0")" && pwd); cd /tmp; rm -rf w; mkdir w; cd w
T0=$(date +%s); DL=${DEADLINE:-400}
VARS=${VARS:-"plain=--harness plain
sync=--harness sync
delay=--harness delay
delay-g256=--harness delay --gap 256
delay-g4096=--harness delay --gap 4096
stress-delay=--harness stress --delay 2048 --gap 1024"}
tar xzf $D/cu.tgz; mkdir -p bin out
nvidia-smi -L > out/gpu.txt; nvcc --version | tail -2 >> out/gpu.txt
(cat $D/order.txt | xargs -P 15 -I{} sh -c 'nvcc -O3 -arch=sm_90 -w -o bin/{} {}.cu > bin/{}.err 2>&1; touch bin/{}.done') &
n_done=0
echo "$VARS" | while IFS== read -r v a; do mkdir -p out/$v; done
for n in $(cat $D/order.txt); do
  while [ ! -e bin/$n.done ]; do sleep 0.1; done
  [ -x bin/$n ] || { echo "build fail $n" >> out/log.txt; continue; }
  [ $(( $(date +%s) - T0 )) -gt $DL ] && { echo "deadline at $n" >> out/log.txt; break; }
  while IFS== read -r v a; do
    s=$(date +%s.%N)
    # shellcheck disable=SC2086
    timeout 40 bin/$n $a --launches 50 > out/$v/$n.txt 2> out/$v/$n.err < /dev/null || echo "rc $? $v $n" >> out/log.txt
    echo "$n $v $(awk "BEGIN{print $(date +%s.%N) - $s}")" >> out/times.txt
  done <<< "$VARS"
  n_done=$((n_done+1))
done
echo "tests run: $n_done in $(( $(date +%s) - T0 )) s" >> out/log.txt
tar czf $OUT/hist.tgz out; tail -20 out/log.txt; tail -3 out/times.txt
