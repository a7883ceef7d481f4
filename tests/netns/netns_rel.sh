#!/usr/bin/env bash
# netns_rel.sh FTMPIRUN P2P_FLOOD P2P_HOSTS COLL_BASIC: the reliability layer
# across two namespace hosts whose interfaces lose, corrupt, duplicate and
# reorder 1% of packets (tc netem), with 1% of each fault also injected in
# the transport (--net-faults, below the CRC, which TCP's own checksum
# cannot see): one rank per host (a flood of eager messages, every size
# both ways with rendezvous), then 2 ranks per host (collectives). Every
# program checks each message's contents and order; the job must pass.
set -u
RUN=$1 FLOOD=$2 HOSTS=$3 COLL=$4
. "$(dirname "$0")/netns.sh"
netns_test rel 2
# Where the kernel has no netem (sch_netem), the injected faults alone are
# used, and the output says so.
netem=1
for i in 0 1; do
    command -v tc >/dev/null &&
        netns_netem $i delay 1ms loss 1% corrupt 1% duplicate 1% reorder 1% 2>/dev/null ||
        netem=0
done
[ $netem = 1 ] || echo "netns_rel: NOTE: tc netem is not available here: injected faults only"
faults=drop:0.01,corrupt:0.01,dup:0.01,reorder:0.01
job() { # NAME SLOTS NP PROGRAM [ENV...]
    local name=$1 slots=$2 np=$3 prog=$4
    shift 4
    netns_run 0 env "$@" "$RUN" --timeout 100 --hosts "$(netns_hostlist "$slots")" \
        --launch-agent "$NETNS_AGENT" --net eth0 --net-faults "$faults" -np "$np" "$prog" \
        >"$W/$name.out" 2>"$W/$name.err" || netns_fail "$name exited $?"
    grep -q "bad CRC" "$W/$name.err" || netns_fail "$name: no reliability statistics"
}
job flood 1 2 "$FLOOD"
job hosts_rndv 1 2 "$HOSTS" FTMPI_EAGER_LIMIT=0
job coll 2 4 "$COLL"
grep -h "ftmpi: rel:" "$W"/*.err | head -4
echo "netns_rel: passed"
