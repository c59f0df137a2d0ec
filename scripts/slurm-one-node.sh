#!/bin/sh
# slurm-one-node.sh start|stop|env -- a one-node Slurm on this machine,
# from Debian's packages (munge, slurmctld, slurmd, slurm-client), for
# CI and for trying `warplab campaign --submit` on a workstation.
#
#   start  installs the packages when missing (as root, apt-get), writes
#          a slurm.conf for this host alone into $WARPLAB_SLURM_DIR
#          (default /tmp/warplab-slurm: its config, state, spool and
#          logs), starts munged, slurmctld and slurmd, and waits until
#          the node takes jobs (at most 60 s).  Exit 0 when it does; else
#          1, with the reason (and the daemons' last log lines) on stderr.
#   stop   stops the daemons it started.
#   env    prints the line to point Slurm's commands at it:
#          export SLURM_CONF=.../slurm.conf
#
# The node needs no cgroups (proctrack/linuxproc, task/none) and runs
# its jobs as the user who submits them; everything runs as root, so it
# is for throw-away machines (CI), not for a shared one.
set -u
D=${WARPLAB_SLURM_DIR:-/tmp/warplab-slurm}
CONF=$D/slurm.conf
say() { echo "slurm-one-node: $*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }

stop() {
  for p in slurmd slurmctld munged; do
    if [ -f "$D/$p.pid" ]; then
      kill "$(cat "$D/$p.pid")" 2>/dev/null
      rm -f "$D/$p.pid"
    fi
  done
}

logs() {
  for f in "$D/slurmctld.log" "$D/slurmd.log" "$D/munged.log"; do
    [ -f "$f" ] && { say "last lines of $f:"; tail -n 8 "$f" >&2; }
  done
}

case ${1:-} in
stop)
  stop
  exit 0
  ;;
env)
  echo "export SLURM_CONF=$CONF"
  exit 0
  ;;
start) ;;
*)
  echo "usage: sh scripts/slurm-one-node.sh start|stop|env" >&2
  exit 2
  ;;
esac

if [ "$(id -u)" != 0 ]; then
  say "must run as root (it starts munged, slurmctld and slurmd)"
  exit 1
fi
if ! have munged || ! have slurmctld || ! have slurmd || ! have sbatch; then
  if have apt-get; then
    say "installing munge slurmctld slurmd slurm-client with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends munge slurmctld slurmd \
      slurm-client >/dev/null 2>&1 ||
      { apt-get update >/dev/null 2>&1 &&
        apt-get install -y --no-install-recommends munge slurmctld slurmd \
          slurm-client >/dev/null 2>&1; }
  fi
  if ! have munged || ! have slurmctld || ! have slurmd || ! have sbatch; then
    say "munge and Slurm are not installed and apt-get could not install them"
    exit 1
  fi
fi
stop
mkdir -p "$D/state" "$D/spool" "$D/munge" || exit 1
host=$(hostname -s 2>/dev/null || hostname)
cpus=$(nproc)
# what slurmd will find, less a margin (a node with less than slurm.conf
# says is drained)
mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
cat > "$CONF" <<CONF
# written by warplab's scripts/slurm-one-node.sh: one node, this host
ClusterName=warplab
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
SlurmctldPort=6917
SlurmdPort=6918
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MaxArraySize=100001
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=warplab Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
export SLURM_CONF=$CONF
# munge: the package's key; its own socket and pid under $D
[ -f /etc/munge/munge.key ] || {
  say "no /etc/munge/munge.key (the munge package makes it: mungekey)"
  have mungekey && mungekey --create >/dev/null 2>&1
}
if [ -S /run/munge/munge.socket.2 ] && munge -n >/dev/null 2>&1; then
  : # a munged is already running: use it
else
  mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null
  if ! munged --force --pid-file="$D/munged.pid" \
      --log-file="$D/munged.log" 2>"$D/munged.err"; then
    say "munged did not start: $(cat "$D/munged.err")"
    exit 1
  fi
fi
if ! slurmctld -f "$CONF" 2>"$D/slurmctld.err"; then
  say "slurmctld did not start: $(cat "$D/slurmctld.err")"
  logs
  stop
  exit 1
fi
if ! slurmd -f "$CONF" 2>"$D/slurmd.err"; then
  say "slurmd did not start: $(cat "$D/slurmd.err")"
  logs
  stop
  exit 1
fi
i=0
while :; do
  st=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1)
  case $st in
  idle | mixed | allocated) break ;;
  esac
  i=$((i + 1))
  if [ $i -ge 120 ]; then
    say "the node did not come up in 60 s (state: ${st:-none})"
    logs
    stop
    exit 1
  fi
  sleep 0.5
done
say "up: node $host ($cpus CPUs), partition warplab; $(sh "$0" env)"
exit 0
