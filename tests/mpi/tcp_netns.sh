#!/usr/bin/env bash
# tcp_netns.sh BUILD_DIR PROGRAM [ARGS...]: run PROGRAM with 2 ranks on two
# "hosts" that are network namespaces joined by a veth pair (10.77.N.1 and
# 10.77.N.2), the head and rank 0 in the first, a daemon and rank 1 in the
# second, so that the TCP transport goes over a real interface. The
# namespaces are removed on every exit. Exit 77 (CTest: skipped) with a
# clear message where namespaces cannot be made (not root, no ip(8)).
# To be folded into tests/netns/ (the shared harness of issue 13).
set -u
build=$1; shift
[ "$(id -u)" = 0 ] && command -v ip >/dev/null 2>&1 ||
    { echo "tcp_netns: SKIPPED: needs root and ip(8) to make network namespaces"; exit 77; }
tag=ftnet$$
n0=${tag}a n1=${tag}b sub=$(( $$ % 200 + 20 ))
cleanup() { ip netns del "$n0" 2>/dev/null; ip netns del "$n1" 2>/dev/null; }
trap cleanup EXIT INT TERM
if ! { ip netns add "$n0" && ip netns add "$n1" &&
       ip link add "${tag}0" type veth peer name "${tag}1" &&
       ip link set "${tag}0" netns "$n0" && ip link set "${tag}1" netns "$n1" &&
       ip -n "$n0" addr add 10.77.$sub.1/24 dev "${tag}0" &&
       ip -n "$n1" addr add 10.77.$sub.2/24 dev "${tag}1" &&
       ip -n "$n0" link set "${tag}0" up && ip -n "$n1" link set "${tag}1" up &&
       ip -n "$n0" link set lo up && ip -n "$n1" link set lo up; } 2>/tmp/$tag.err; then
    echo "tcp_netns: SKIPPED: cannot make the namespaces: $(cat /tmp/$tag.err)"; rm -f /tmp/$tag.err
    exit 77
fi
rm -f /tmp/$tag.err
ip netns exec "$n0" env FTMPI_HEAD_ADDRESS=10.77.$sub.1 "$build/bin/mpirun" --timeout 60 \
    --hosts "localhost:1,$n1:1" --launch-agent 'ip netns exec {host} {cmd}' \
    --net "${tag}0,${tag}1" -np 2 "$@"
