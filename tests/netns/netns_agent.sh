#!/bin/sh
# netns_agent.sh HOST CMD [ARGS...]: run CMD on namespace host HOST
# (tests/netns/netns.sh): in network namespace HOST, with a UTS namespace
# whose host name is HOST and a mount namespace where /etc/hosts is
# /etc/netns/HOST/hosts. Unlike `ip netns exec` it leaves /sys alone, so
# /sys/fs/cgroup stays (slurmd needs it).
# ftmpirun's launch agent for namespace hosts: "netns_agent.sh {host} {cmd}".
# Standard input is passed through (ftmpid reads the job's secret there).
[ $# -ge 2 ] || { echo "usage: netns_agent.sh HOST CMD [ARGS...]" >&2; exit 2; }
h=$1
shift
exec nsenter --net="/run/netns/$h" unshare --mount --uts --propagation private -- \
    sh -c 'mount --bind "/etc/netns/$0/hosts" /etc/hosts && hostname "$0" && exec "$@"' "$h" "$@"
