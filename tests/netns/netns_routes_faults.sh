#!/usr/bin/env bash
# netns_routes_faults.sh FTMPIRUN NET_ROUTES P2P_FLOOD: two routes between
# two namespace hosts (eth0 and eth1, netns_second_net), one of them bad:
# the transport's fault injector drops 3%, corrupts 3%, duplicates 1% and
# reorders 1% of the frames that arrive on route 1 only (--net-faults
# ...,route:1), route 0 is clean (issue 14: tc netem, the real thing, is
# missing from this kernel). One rank per host: 4 messages of 16 MiB
# striped over both routes, every byte checked, then a flood of eager
# messages in both directions (contents, count and order checked). Both
# jobs must pass, faults must have been injected and caught (bad CRCs), and
# both routes must have carried data.
set -u
RUN=$1 ROUTES=$2 FLOOD=$3
. "$(dirname "$0")/netns.sh"
netns_test routes_faults 2
netns_second_net
faults=drop:0.03,corrupt:0.03,dup:0.01,reorder:0.01,route:1
job() { # NAME PROGRAM [ARGS...]
    local name=$1 prog=$2
    shift 2
    netns_run 0 env FTMPI_REL_STATS=1 "$RUN" --timeout 100 --hosts "$(netns_hostlist 1)" \
        --launch-agent "$NETNS_AGENT" --net eth0,eth1 --net-faults "$faults" -np 2 "$prog" "$@" \
        >"$W/$name.out" 2>"$W/$name.err" || netns_fail "$name exited $?"
}
job big "$ROUTES" 4 16
grep -q "4 rounds of 16 MiB intact" "$W/big.out" || netns_fail "not every large message arrived intact"
job flood "$FLOOD"
for name in big flood; do
    inj=$(sed -n 's/.*rank 1: injected \([0-9]*\) drops, \([0-9]*\) corruptions.*/\1 \2/p' "$W/$name.err")
    set -- $inj
    [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] ||
        netns_fail "$name: no faults injected on route 1 at rank 1 ($inj)"
    bad=$(sed -n 's/.*rel: rank 1: .* \([0-9]*\) bad CRC.*/\1/p' "$W/$name.err")
    [ "${bad:-0}" -gt 0 ] || netns_fail "$name: rank 1 caught no bad CRC"
    b=$(sed -n "s/.*rank 0: route 1 to rank 1: [a-z ]*, \([0-9]*\) bytes out.*/\1/p" "$W/$name.err")
    [ -n "$b" ] && [ "$b" -gt 0 ] || netns_fail "$name: route 1 carried ${b:-no} bytes"
    echo "netns_routes_faults: $name: rank 1 had $1 drops and $2 corruptions injected on route 1, $bad bad CRCs caught; route 1 carried $b bytes from rank 0"
done
grep -h "ftmpi: rel:" "$W"/*.err | head -8
echo "netns_routes_faults: passed"
