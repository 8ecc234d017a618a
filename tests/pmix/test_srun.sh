#!/bin/bash
# test_srun.sh DSMRUN HAVE_PMIX SPMD [OMP] — libdsm jobs started by Slurm's
# srun --mpi=pmix on a private one-node cluster (munged, slurmctld and
# slurmd as root, with their own socket, ports, state and logs under $T,
# stopped by their pids at the end). It starts in well under a second; no
# systemd is involved. Skipped (77) unless run as root on a host with
# Debian's slurmd, slurmctld, slurm-client and munge, and libdsm with PMIx.
. "$(dirname "$0")/../lib.sh"
HAVE_PMIX=${2:?usage: $0 DSMRUN HAVE_PMIX SPMD [OMP]}
SPMD=$3 OMP=${4:-}
[ "$HAVE_PMIX" = 1 ] || skip "libdsm was built without PMIx support (-Dpmix)"
[ "$(id -u)" -eq 0 ] || skip "the private Slurm cluster runs as root"
for c in munged slurmctld slurmd srun sinfo; do
  command -v $c >/dev/null || skip "no $c (Debian: slurmd slurmctld slurm-client munge)"
done
[ -r /etc/munge/munge.key ] || skip "no /etc/munge/munge.key"

host=$(hostname -s)
port=$((20000 + RANDOM % 40000))
mkdir -p "$T/state" "$T/spool" "$T/munge"
chmod 700 "$T/munge"
cat >"$T/slurm.conf" <<CONF
ClusterName=dsmtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$T/munge/socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=8 State=UNKNOWN
PartitionName=dsm Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
export SLURM_CONF=$T/slurm.conf
# slurmd, slurmctld, then munged, each by the pid it wrote; slurmctld
# saves its state on the way out, so wait (at most 10 s) until each is gone
# before $T is removed.
stop_daemons() {
  local f pid i
  for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/pid"; do
    pid=$(cat "$f" 2>/dev/null) || continue
    kill "$pid" 2>/dev/null || continue
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
}
CLEANUP+=(stop_daemons)
munged --force --socket="$T/munge/socket" --pid-file="$T/munge/pid" \
  --log-file="$T/munge/log" --seed-file="$T/munge/seed" --key-file=/etc/munge/munge.key ||
  skip "munged does not start"
slurmctld -c || skip "slurmctld does not start"
slurmd || skip "slurmd does not start"
up=0
for ((i = 0; i < 100; i++)); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && { up=1; break; }
  sleep 0.2
done
[ $up = 1 ] || { tail -5 "$T/slurmctld.log" "$T/slurmd.log" >&2; skip "the Slurm node never came up"; }
srun --mpi=list 2>&1 | grep -qw pmix || skip "Slurm has no pmix MPI plugin"

for n in 1 4; do
  run_timed "$T/out" "$T/err" timeout 100 srun --mpi=pmix -n $n "$SPMD" $n
  check "srun spmd n=$n exits 0 ($(head -c 600 "$T/err"))" [ "$RC" -eq 0 ]
  check "srun spmd n=$n: rank 0 verified the shared array" grep_q "^pmix_spmd: $n processes: OK\$" "$T/out"
done
if [ -n "$OMP" ]; then
  run_timed "$T/out" "$T/err" timeout 100 srun --mpi=pmix -n 4 "$OMP" 4
  check "srun omp n=4 exits 0 ($(head -c 600 "$T/err"))" [ "$RC" -eq 0 ]
  check "srun omp n=4: a team of 4, VERIFIED" grep_q "^VERIFIED\$" "$T/out"
fi
# A rank that fails at a barrier: the whole step ends, non-zero, and the
# failure is named.
run_timed "$T/out" "$T/err" timeout 100 srun --mpi=pmix -n 4 "$SPMD" 4 fatal 2
check "srun failing rank: non-zero exit (status $RC)" [ "$RC" -ne 0 -a "$RC" -ne 124 ]
check "srun failing rank: down in under 15 s ($MS ms)" [ "$MS" -lt 15000 ]
# The rank named depends on arrival order (see test_mpirun.sh, fatal).
check "srun failing rank: the error is reported" \
  grep_q "barrier mismatch: rank (2 is at barrier 2|[013] is at barrier 1) " "$T/err"
finish
