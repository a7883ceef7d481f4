#!/usr/bin/env bash
# netns_routes.sh FTMPIRUN NET_ROUTES: several routes between two hosts
# (issue 14). Two namespace hosts joined by two networks (eth0 on
# 10.77.0.0/24, eth1 on 10.77.1.0/24, each a veth pair to its own bridge),
# both rate limited with tc tbf where the kernel has it (so that a 64 MiB
# message takes seconds and the cut below lands mid-transfer). One rank per
# host sends 8 messages of 64 MiB, 1 s apart (every byte checked, answered
# before the next): round 0 on both routes; during round 1 host 1's eth1
# cable is cut (ip link set down); after round 2 it is restored (the rounds
# after it leave TCP time to resume the route and the PROBE to find it). The job must finish
# with every message intact, rank 0 must take route 1 out of use and back
# (stderr and the event log), and both routes must have carried data.
set -u
RUN=$1 PROG=$2
. "$(dirname "$0")/netns.sh"
netns_test routes 2
netns_second_net
SW=${NETNS_PREFIX}sw
tbf=1
for i in 0 1; do
    for d in eth0 eth1; do
        tc -n "${NETNS_HOST[$i]}" qdisc replace dev $d root tbf rate 200mbit burst 256kb \
            latency 100ms 2>/dev/null || tbf=0
    done
done
[ $tbf = 1 ] || echo "netns_routes: NOTE: no tc tbf here: routes at full speed (the cut may land between messages)"
wait_for() { # PATTERN SECONDS
    local t=0
    until grep -q "$1" "$W/progress" 2>/dev/null; do
        sleep 0.2; t=$((t + 1)); [ $t -ge $(($2 * 5)) ] && return 1
    done
    return 0
}
netns_run 0 env FTMPI_REL_STATS=1 "$RUN" --timeout 150 --hosts "$(netns_hostlist 1)" \
    --launch-agent "$NETNS_AGENT" --net eth0,eth1 --event-log "$W/events.jsonl" \
     -np 2 "$PROG" 8 64 1000 "$W/progress" >"$W/job.out" 2>"$W/job.err" &
JOB=$!
wait_for "round 1 sent" 60 || netns_fail "round 1 did not start"
sleep 0.5
ip -n "$SW" link set w1 down
echo "netns_routes: host 1's eth1 cut during round 1"
wait_for "round 2 intact" 90 || netns_fail "rounds 1-2 did not finish on the remaining route"
ip -n "$SW" link set w1 up
echo "netns_routes: host 1's eth1 restored after round 2"
wait "$JOB"; rc=$?; JOB=
[ $rc = 0 ] || netns_fail "the job exited $rc"
grep -q "8 rounds of 64 MiB intact" "$W/job.out" || netns_fail "not every message arrived intact"
grep -q "rank 0: route 1 to rank 1 out of use" "$W/job.err" || netns_fail "route 1 was not taken out of use"
grep -q "rank 0: route 1 to rank 1 back in use" "$W/job.err" || netns_fail "route 1 was not taken back"
grep -q '"route_down"' "$W/events.jsonl" && grep -q '"route_up"' "$W/events.jsonl" ||
    netns_fail "route changes missing from the event log"
# striping: rank 0 sent at least 16 MiB on each route
for r in 0 1; do
    b=$(sed -n "s/.*rank 0: route $r to rank 1: [a-z ]*, \([0-9]*\) bytes out.*/\1/p" "$W/job.err")
    [ -n "$b" ] && [ "$b" -ge $((16 << 20)) ] || netns_fail "route $r carried ${b:-no} bytes"
    echo "netns_routes: route $r carried $b bytes from rank 0"
done
grep -h "net_routes: round\|ftmpi: rel:" "$W/job.out" "$W/job.err" | head -20
echo "netns_routes: passed"
