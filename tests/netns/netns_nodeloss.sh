#!/bin/bash
# netns_nodeloss.sh CASE FTMPIRUN RT_PROG: a whole host lost, on namespace
# hosts (docs/runtime.md, "Node loss"). The ranks only use the runtime's FT
# machinery (rt_prog recover: failure events, one recovery round, the
# replacement joins), so no MPI message crosses hosts.
#   rebuild_spare  REBUILD, np 6 on 3 hosts + 1 spare; host 1's daemon is
#                  SIGKILLed: ranks 2,3 fail in one round and are replaced
#                  on the spare host
#   rebuild_rr     REBUILD, np 8 on 4 full hosts; host 3's daemon and ranks
#                  are SIGKILLed: ranks 6,7 are replaced round-robin on
#                  hosts 0 and 1 (no spare slot anywhere)
#   shrink_link    SHRINK, np 8 on 4 hosts; host 2's cable is cut: the head
#                  loses it after the heartbeat timeout (not before), ranks
#                  4,5 fail in one round, host 2's ftmpid kills its ranks
#   blank_stop     BLANK, np 8 on 4 hosts; host 1's ftmpid is SIGSTOPped:
#                  lost after the heartbeat timeout, one round for ranks 2,3
set -u
CASE=$1
RUN=$2
PROG=$3
. "$(dirname "$0")/netns.sh"
netns_test "$CASE" 4

# start NP EXTRA-OPTIONS...: the job in the background, waits for NP ready lines
start() {
    local np=$1
    shift
    netns_run 0 "$RUN" --timeout 40 --launch-agent "$NETNS_AGENT" \
        --event-log "$W/log" "$@" -np "$np" "$PROG" recover 1 >"$W/out" 2>"$W/err" &
    JOB=$!
    for _ in $(seq 300); do
        [ "$(grep -c '^ready' "$W/out")" -ge "$np" ] && return 0
        sleep 0.05
    done
    netns_fail "the job did not start"
}
finish() { wait "$JOB"; RC=$?; JOB=; }
t_event() { sed -n "s/^{\"t\":\([0-9.]*\),\"event\":\"$1\".*/\1/p" "$W/log" | head -1; }
one_round() {
    [ "$(grep -c '"event":"recovery_end"' "$W/log")" -eq 1 ] || netns_fail "not exactly one recovery round"
    grep -q "\"event\":\"recovery_end\",\"generation\":1,\"failed\":\[$1\]" "$W/log" ||
        netns_fail "the round did not handle ranks $1 together"
}
# 3 s: long enough that a loaded machine (load 20 on 2 cores) never misses
# heartbeats for that long by itself; only the fault can make the host silent
hb="--heartbeat-interval 0.1 --heartbeat-timeout 3"

case $CASE in
rebuild_spare)
    start 6 --hosts "$(netns_hostlist 2)" --spare-hosts 1 --comm-mode=rebuild
    netns_kill_daemon 1
    finish
    [ $RC -eq 0 ] || netns_fail "exit $RC"
    one_round "2,3"
    [ "$(grep -c "\"event\":\"replaced\".*\"host\":\"${NETNS_HOST[3]}\"" "$W/log")" -eq 2 ] ||
        netns_fail "ranks 2 and 3 not replaced on the spare host"
    [ "$(grep -c "^recovered .*failed=2,3 .* hosts=0,0,3,3,2,2$" "$W/out")" -eq 6 ] ||
        netns_fail "every process must see the new host table"
    ;;
rebuild_rr)
    start 8 --hosts "$(netns_hostlist 2)" --comm-mode=rebuild
    netns_kill_host 3
    finish
    [ $RC -eq 0 ] || netns_fail "exit $RC"
    one_round "6,7"
    grep -q "\"event\":\"replaced\",\"rank\":6,.*\"host\":\"${NETNS_HOST[0]}\"" "$W/log" || netns_fail "rank 6 not on host 0"
    grep -q "\"event\":\"replaced\",\"rank\":7,.*\"host\":\"${NETNS_HOST[1]}\"" "$W/log" || netns_fail "rank 7 not on host 1"
    [ "$(grep -c "^recovered .*failed=6,7 .* hosts=0,0,1,1,2,2,0,1$" "$W/out")" -eq 8 ] ||
        netns_fail "every process must see the new host table"
    ;;
shrink_link)
    # shellcheck disable=SC2086
    start 8 --hosts "$(netns_hostlist 2)" --comm-mode=shrink $hb
    victims=$(netns_pids 2 rt_prog)
    t0=$(date +%s.%N)
    netns_link_down 2
    finish
    t1=$(date +%s.%N)
    grep -q "lost the daemon of host ${NETNS_HOST[2]}: no heartbeat for 3 s" "$W/err" || netns_fail "no heartbeat loss"
    one_round "4,5"
    [ "$(grep -c '^recovered .*failed=4,5 ' "$W/out")" -eq 6 ] || netns_fail "6 survivors must recover"
    # The timeout runs from the last heartbeat heard, which may have come up
    # to one interval (0.1 s) before the link went down: 2.8 s, not 3.
    awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a >= 2.8) }' || netns_fail "lost before the heartbeat timeout"
    for _ in $(seq 100); do
        left=0; for p in $victims; do [ -d /proc/$p ] && left=1; done
        [ $left = 0 ] && break; sleep 0.05
    done
    [ $left = 0 ] || netns_fail "host 2's ranks outlived the partition"
    ;;
blank_stop)
    # shellcheck disable=SC2086
    start 8 --hosts "$(netns_hostlist 2)" --comm-mode=blank $hb
    netns_stop_daemon 1
    finish
    netns_cont_daemon 1
    grep -q "lost the daemon of host ${NETNS_HOST[1]}: no heartbeat" "$W/err" || netns_fail "no heartbeat loss"
    one_round "2,3"
    [ "$(grep -c '^recovered .*failed=2,3 ' "$W/out")" -eq 6 ] || netns_fail "6 survivors must recover"
    ;;
*) echo "unknown case $CASE"; exit 2 ;;
esac
echo "PASS [$CASE]"
