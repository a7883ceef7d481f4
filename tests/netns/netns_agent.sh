#!/bin/sh
# netns_agent.sh HOST CMD [ARGS...]: run CMD in network namespace HOST with
# its own UTS namespace whose host name is HOST (tests/netns/netns.sh).
# ftmpirun's launch agent for namespace hosts: "netns_agent.sh {host} {cmd}".
# Standard input is passed through (ftmpid reads the job's secret there).
[ $# -ge 2 ] || { echo "usage: netns_agent.sh HOST CMD [ARGS...]" >&2; exit 2; }
h=$1
shift
exec ip netns exec "$h" unshare --uts -- sh -c 'hostname "$0" && exec "$@"' "$h" "$@"
