#!/usr/bin/env bash
# A single-node Slurm on this machine (slurmctld and slurmd, authenticated by munge), for
# trying `warpsim sweep --slurm` and for its test. Needs root and Debian's slurm-wlm and munge.
#   tools/slurm_local.sh start DIR     # writes DIR/slurm.conf, starts the daemons; then
#                                      # export SLURM_CONF=DIR/slurm.conf
#   tools/slurm_local.sh stop DIR
set -euo pipefail
action="${1:?usage: slurm_local.sh start|stop DIR}"
dir="$(mkdir -p "${2:?usage: slurm_local.sh start|stop DIR}" && cd "$2" && pwd)"
export SLURM_CONF="$dir/slurm.conf"

stop() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    if [[ -f "$pidfile" ]]; then
      kill "$(cat "$pidfile")" 2>/dev/null || true
      rm -f "$pidfile"
    fi
  done
}

if [[ "$action" == stop ]]; then stop; exit 0; fi
if [[ "$action" != start ]]; then echo "slurm_local.sh: start or stop, not '$action'" >&2; exit 2; fi
for tool in slurmctld slurmd munged sbatch; do
  command -v "$tool" > /dev/null || { echo "slurm_local.sh: $tool is missing (apt-get install slurm-wlm munge)" >&2; exit 77; }
done
[[ $(id -u) -eq 0 ]] || { echo "slurm_local.sh: the daemons need root" >&2; exit 77; }

stop  # whatever an earlier start in DIR left running
host="$(hostname -s)"
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
# munge: its own key and socket in DIR, so nothing system-wide changes.
[[ -f "$dir/munge/munge.key" ]] || { dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none; chmod 400 "$dir/munge/munge.key"; }
socket="$dir/munge/munge.socket"
munged --force --key-file="$dir/munge/munge.key" --socket="$socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed"
cat > "$dir/slurm.conf" <<CONF
ClusterName=warpsim
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmctldPort=${SLURM_LOCAL_PORT:-6817}
SlurmdPort=$(( ${SLURM_LOCAL_PORT:-6817} + 1 ))
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$(( $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) / 2 )) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
# Ready once the node accepts jobs.
for _ in $(seq 60); do
  if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
    echo "slurm_local.sh: single-node Slurm up; export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 1
done
echo "slurm_local.sh: the node did not come up; see $dir/slurmctld.log and $dir/slurmd.log" >&2
stop
exit 1
