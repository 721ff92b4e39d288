# A one-machine Slurm owned by a test: munged, slurmctld and slurmd (Debian's munge, slurmctld,
# slurmd) with their own key, slurm.conf, sockets, state and logs under $WORK/slurm, on ports
# derived from the test's pid. Clients find it through SLURM_CONF. Everything is stopped by pid
# on exit (cluster_lib.sh's OWNED_PIDS). Needs lib.sh and cluster_lib.sh sourced first.

need_slurm() {
  local p
  for p in munged mungekey slurmctld slurmd srun sbatch salloc scancel sinfo; do
    command -v "$p" >/dev/null || [ -x "/usr/sbin/$p" ] || {
      echo "SKIP: needs $p (munge, slurmctld, slurmd, slurm-client; tools/install-deps.sh)"; exit $SKIP; }
  done
}

start_slurm() {  # CPUS
  local d="$WORK/slurm" cpus=$1 host port
  mkdir -p -m 0700 "$d" "$d/state" "$d/spool"
  chmod 0755 "$WORK" "$d"  # the munge socket must be reachable
  mungekey -c -k "$d/munge.key" -b 1024
  /usr/sbin/munged -F -f --key-file="$d/munge.key" --socket="$d/munge.sock" \
    --pid-file="$d/munged.pid" --log-file="$d/munged.log" --seed-file="$d/munged.seed" \
    > /dev/null 2>&1 &
  OWNED_PIDS+=($!)
  host=$(hostname)
  port=$((20000 + ($$ % 10000) * 2))
  cat > "$d/slurm.conf" <<CONF
ClusterName=tsunagitest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
  export SLURM_CONF="$d/slurm.conf"
  for _ in $(seq 50); do [ -S "$d/munge.sock" ] && break; sleep 0.1; done
  /usr/sbin/slurmctld -D -f "$SLURM_CONF" > "$d/slurmctld.out" 2>&1 &
  OWNED_PIDS+=($!)
  /usr/sbin/slurmd -D -f "$SLURM_CONF" > "$d/slurmd.out" 2>&1 &
  OWNED_PIDS+=($!)
  for _ in $(seq 150); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && return 0
    sleep 0.2
  done
  tail -n 20 "$d/slurmctld.log" "$d/slurmd.log" >&2 || true
  fail "the local Slurm did not come up"
}
