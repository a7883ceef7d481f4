#!/bin/bash
# netns_slurm.sh FTMPIRUN RT_PROG: ftmpirun inside a real Slurm allocation.
# Three namespace hosts (tests/netns/netns.sh) run Debian's slurm-wlm: a
# slurmctld on host 0 and a slurmd on every host, each node named as its
# host (auth/none: no munge). Inside `salloc -N 3` ftmpirun reads the node
# list (scontrol show hostnames) and starts ftmpid on the other nodes with
# `srun --overlap -N1 -n1 -w HOST`; the same through `sbatch`. Skipped (77)
# with a message where Slurm is not installed or does not come up.
set -u
RUN=$1
PROG=$2
for c in slurmctld slurmd salloc sbatch srun scontrol sinfo; do
    command -v $c >/dev/null || { echo "SKIP: no $c (install slurm-wlm)"; exit 77; }
done
. "$(dirname "$0")/netns.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/netns-slurm.XXXXXX")
chmod 755 "$W"
fail() {
    echo "FAIL [slurm]: $*"
    for f in "$W"/*.log "$W"/out* "$W"/err*; do [ -f "$f" ] && { echo "--- $f"; tail -c 3000 "$f"; }; done
    exit 1
}
netns_setup 3
trap 'netns_cleanup; rm -rf "$W"' EXIT
H=("${NETNS_HOST[@]}")
export SLURM_CONF=$W/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=ftmpitest
SlurmctldHost=${H[0]}
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool-%n
SlurmctldPidFile=$W/ctld.pid
SlurmdPidFile=$W/slurmd-%n.pid
SlurmctldLogFile=$W/ctld.log
SlurmdLogFile=$W/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=${H[0]},${H[1]},${H[2]} CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP
CONF
mkdir -p "$W/state" "$W/spool-${H[0]}" "$W/spool-${H[1]}" "$W/spool-${H[2]}"
netns_run 0 slurmctld -D -f "$SLURM_CONF" >"$W/ctld.out" 2>&1 &
for i in 0 1 2; do netns_run "$i" slurmd -D -f "$SLURM_CONF" -N "${H[$i]}" >"$W/slurmd$i.out" 2>&1 & done
up=0
for _ in $(seq 200); do
    n=$(netns_run 0 sinfo -h -N -o '%T' 2>/dev/null | grep -c idle)
    [ "$n" = 3 ] && { up=1; break; }
    sleep 0.1
done
[ $up = 1 ] || { cat "$W"/ctld.log "$W"/slurmd-*.log 2>/dev/null | tail -20; echo "SKIP: Slurm did not come up here (3 idle nodes expected)"; exit 77; }

# salloc: 3 nodes, 2 CPUs each; no -np: one rank per CPU
netns_run 0 timeout 60 salloc -N 3 -n 6 --time=2 "$RUN" -v --timeout 40 --tag-output "$PROG" secret \
    >"$W/out.salloc" 2>"$W/err.salloc" || fail "salloc job: exit $?"
[ "$(grep -c 'secret rank [0-5]: ok hosts 0 0 1 1 2 2$' "$W/out.salloc")" -eq 6 ] ||
    fail "6 ranks, 2 per node, expected"
[ "$(grep -c "^ftmpirun: starting host ${NETNS_PREFIX}h[12]: srun --overlap -N1 -n1 -w ${NETNS_PREFIX}h[12] " "$W/err.salloc")" -eq 2 ] ||
    fail "ftmpid not started with srun on the two other nodes"

# sbatch: the same from a batch script, waited for
cat >"$W/job.sh" <<JOB
#!/bin/sh
exec "$RUN" --timeout 40 "$PROG" kv
JOB
chmod +x "$W/job.sh"
netns_run 0 timeout 60 sbatch --wait -N 3 -n 6 --time=2 -o "$W/out.sbatch" -e "$W/err.sbatch" "$W/job.sh" \
    >/dev/null 2>"$W/err.submit" || fail "sbatch job failed"
[ "$(grep -c '^kv ok' "$W/out.sbatch")" -eq 6 ] || fail "sbatch: 6 kv results expected"
echo "PASS [slurm]"
