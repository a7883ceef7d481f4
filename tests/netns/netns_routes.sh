#!/usr/bin/env bash
# netns_routes.sh fast|long FTMPIRUN NET_ROUTES: several routes between two
# hosts (issue 14). Two namespace hosts joined by two networks (eth0 on
# 10.77.0.0/24, eth1 on 10.77.1.0/24, each a veth pair to its own bridge),
# both rate limited with tc tbf where the kernel has it (so that a message
# takes long enough for the cut below to land mid-transfer). One rank per
# host sends messages, every byte checked and answered before the next:
# round 0 on both routes; during round 1 host 1's eth1 cable is cut (ip
# link set down); once rank 0 has taken route 1 out of use and round 1
# (fast) or round 2 (long) has arrived on route 0, the cable is restored; once rank 0 has taken
# route 1 back and one more round has arrived, the job is told to stop (the
# STOP file of net_routes). The job must finish with every message intact,
# rank 0 must take route 1 out of use and back (stderr and the event log),
# and both routes must have carried data; rank 0's first ROUTE frame is
# refused once (FTMPI_REL_ROUTE_EAGAIN=1) and must still reach rank 1.
#   fast (in CI, about 10-20 s): 8 MiB messages (16 fragments of 512 KiB)
#     back to back at 40 Mbit/s per route, the layer's route timers
#     shortened for the test through the environment (FTMPI_REL_ROUTE_MS=300,
#     FTMPI_REL_PROBE_MS=100; the defaults are unchanged), the cut 0.3 s into
#     round 1 (about half way: a round takes about 0.8 s on both routes).
#   long (-DFTMPI_ROUTE_CUT_TEST=ON, 40-80 s): 64 MiB messages 1 s apart at
#     200 Mbit/s per route, default timers, the cut 0.5 s into round 1.
set -u
MODE=$1 RUN=$2 PROG=$3
case $MODE in
fast) MIB=8 RATE=40mbit PAUSE=0 CUT_AFTER=0.3 MINB=$((2 << 20)) RESTORE_AFTER=1
      TIMERS="FTMPI_REL_ROUTE_MS=300 FTMPI_REL_PROBE_MS=100" ;;
long) MIB=64 RATE=200mbit PAUSE=1000 CUT_AFTER=0.5 MINB=$((16 << 20)) RESTORE_AFTER=2 TIMERS= ;;
*) echo "netns_routes: mode '$MODE' is not fast or long" >&2; exit 2 ;;
esac
. "$(dirname "$0")/netns.sh"
netns_test routes 2
netns_second_net
SW=${NETNS_PREFIX}sw
tbf=1
for i in 0 1; do
    for d in eth0 eth1; do
        tc -n "${NETNS_HOST[$i]}" qdisc replace dev $d root tbf rate $RATE burst 256kb \
            latency 100ms 2>/dev/null || tbf=0
    done
done
[ $tbf = 1 ] || echo "netns_routes: NOTE: no tc tbf here: routes at full speed (the cut may land between messages)"
wait_for() { # FILE PATTERN SECONDS
    local t=0
    until grep -q "$2" "$1" 2>/dev/null; do
        sleep 0.1; t=$((t + 1)); [ $t -ge $(($3 * 10)) ] && return 1
    done
    return 0
}
intact() { grep -c "intact (" "$W/progress" 2>/dev/null; }
T0=$(date +%s.%N)
stamp() { echo "netns_routes: $(awk -v a="$(date +%s.%N)" -v b="$T0" 'BEGIN { printf "%.1f", a - b }') s: $*"; }
# shellcheck disable=SC2086 # TIMERS is a list of NAME=VALUE words
netns_run 0 env FTMPI_REL_STATS=1 FTMPI_REL_ROUTE_EAGAIN=1 $TIMERS "$RUN" --timeout 150 --hosts "$(netns_hostlist 1)" \
    --launch-agent "$NETNS_AGENT" --net eth0,eth1 --event-log "$W/events.jsonl" \
    -np 2 "$PROG" 100 $MIB $PAUSE "$W/progress" "$W/stop" >"$W/job.out" 2>"$W/job.err" &
JOB=$!
wait_for "$W/progress" "round 0 sent" 60 || netns_fail "the job did not start"
stamp "round 0 sent"
wait_for "$W/progress" "round 1 sent" 60 || netns_fail "round 1 did not start"
sleep $CUT_AFTER
ip -n "$SW" link set w1 down
stamp "host 1's eth1 cut during round 1"
wait_for "$W/job.err" "rank 0: route 1 to rank 1 out of use" 60 ||
    netns_fail "route 1 was not taken out of use"
stamp "rank 0 took route 1 out of use"
wait_for "$W/progress" "round $RESTORE_AFTER intact" 90 ||
    netns_fail "rounds 1-$RESTORE_AFTER did not finish on the remaining route"
ip -n "$SW" link set w1 up
stamp "host 1's eth1 restored after round $RESTORE_AFTER"
wait_for "$W/job.err" "rank 0: route 1 to rank 1 back in use" 60 ||
    netns_fail "route 1 was not taken back"
n=$(intact)
stamp "rank 0 took route 1 back after $n rounds"
until [ "$(intact)" -gt "$n" ]; do
    sleep 0.1
    kill -0 "$JOB" 2>/dev/null || break
done
touch "$W/stop"
stamp "one more round intact: stop"
wait "$JOB"; rc=$?; JOB=
stamp "the job ended"
[ $rc = 0 ] || netns_fail "the job exited $rc"
grep -q "net_routes: [0-9]* rounds of $MIB MiB intact" "$W/job.out" ||
    netns_fail "not every message arrived intact"
# the ROUTE frame is reliable: its first try was made to fail as if the
# connection's queue were full (FTMPI_REL_ROUTE_EAGAIN=1, above); sent
# again, it told rank 1, which took route 1 out of use because of it
grep -q "rel: rank 0: .*ROUTE frames sent ([1-9][0-9]* tries not taken)" "$W/job.err" ||
    netns_fail "the first ROUTE frame was not refused (FTMPI_REL_ROUTE_EAGAIN)"
grep -q "rank 1: route 1 to rank 0 out of use (the peer took it out of use)" "$W/job.err" ||
    netns_fail "rank 1 was not told that route 1 is out of use (the ROUTE frame was lost)"
grep -q '"route_down"' "$W/events.jsonl" && grep -q '"route_up"' "$W/events.jsonl" ||
    netns_fail "route changes missing from the event log"
# the cut landed mid-transfer: fragments rank 0 had sent on route 1 were
# sent again (on route 0: by their timer or when the route was taken out of
# use; with tbf a round lasts longer than the delay before the cut)
again=$(sed -n 's/.*rel: rank 0: [0-9]* fragments, \([0-9]*\) sent again.*/\1/p' "$W/job.err")
[ $tbf = 0 ] || [ "${again:-0}" -gt 0 ] || netns_fail "rank 0 sent no fragment again: the cut was not mid-transfer"
echo "netns_routes: rank 0 sent $again fragments again"
# striping: rank 0 sent data on each route
for r in 0 1; do
    b=$(sed -n "s/.*rank 0: route $r to rank 1: [a-z ]*, \([0-9]*\) bytes out.*/\1/p" "$W/job.err")
    [ -n "$b" ] && [ "$b" -ge $MINB ] || netns_fail "route $r carried ${b:-no} bytes"
    echo "netns_routes: route $r carried $b bytes from rank 0"
done
grep -h "net_routes: round\|net_routes: [0-9]* rounds\|ftmpi: rel:" "$W/job.out" "$W/job.err" | head -30
echo "netns_routes: passed"
