#!/bin/sh
# timens_agent.sh HOST SHIFTED SECONDS CMD [ARGS...]: run CMD, in a time
# namespace whose CLOCK_MONOTONIC is SECONDS ahead when HOST is SHIFTED
# (netns_clock.sh: a host whose clock disagrees with the head's).
[ $# -ge 4 ] || { echo "usage: timens_agent.sh HOST SHIFTED SECONDS CMD..." >&2; exit 2; }
h=$1 shifted=$2 secs=$3
shift 3
[ "$h" = "$shifted" ] || exec "$@"
exec unshare --fork --time --monotonic "$secs" -- "$@"
