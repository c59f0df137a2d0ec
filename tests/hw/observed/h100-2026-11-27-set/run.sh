#!/bin/bash
# run.sh SET DEADLINE: build SET/*.cu, run each under every variant of VARS
D=$(cd "$(dirname "$0")" && pwd); SET=$1; DL=${2:-400}
W=/tmp/w$SET; rm -rf $W; mkdir -p $W/bin $W/out; cd $W
T0=$(date +%s)
nvidia-smi -L > out/gpu.txt; nvcc --version | tail -2 >> out/gpu.txt
ls $D/$SET/*.cu | sed 's|.*/||; s|\.cu$||' > order.txt
(cat order.txt | xargs -P 15 -I{} sh -c "nvcc -O3 -arch=sm_90 -w -o bin/{} $D/$SET/{}.cu > bin/{}.err 2>&1; touch bin/{}.done") &
echo "$VARS" | while IFS== read -r v a; do mkdir -p out/$v; done
n_done=0
for n in $(cat order.txt); do
  while [ ! -e bin/$n.done ]; do sleep 0.1; done
  [ -x bin/$n ] || { echo "build fail $n" >> out/log.txt; continue; }
  [ $(( $(date +%s) - T0 )) -gt $DL ] && { echo "deadline at $n" >> out/log.txt; break; }
  while IFS== read -r v a; do
    s=$(date +%s.%N)
    timeout 40 bin/$n $a --launches 50 > out/$v/$n.txt 2> out/$v/$n.err < /dev/null || echo "rc $? $v $n" >> out/log.txt
    echo "$n $v $(awk "BEGIN{print $(date +%s.%N) - $s}")" >> out/times.txt
  done <<< "$VARS"
  n_done=$((n_done+1))
done
echo "tests run: $n_done in $(( $(date +%s) - T0 )) s" >> out/log.txt
tar czf $OUT/hist.tgz out; tail -5 out/log.txt; awk '{s[$2]+=$3} END {for (k in s) print k, s[k]}' out/times.txt
