# netns.sh: several "hosts" on one machine, for multi-host tests.
# Source it from a bash test script (docs/testing.md, "Multi-host tests"):
#
#   . tests/netns/netns.sh
#   netns_setup 4                 # hosts NETNS_HOST[0..3]; exits 77 (skip)
#                                 # with a message when namespaces cannot be made
#   netns_run 0 ftmpirun --hosts "$(netns_hostlist 2)" \
#       --launch-agent "$NETNS_AGENT" -np 8 ./prog
#   netns_kill_daemon 2           # SIGKILL host 2's ftmpid (its ranks follow)
#   netns_kill_host 2             # SIGKILL every process of host 2
#   netns_stop_daemon 2 / netns_cont_daemon 2
#   netns_link_down 2 / netns_link_up 2     # cut / restore host 2's cable
#   netns_netem 2 delay 5ms       # tc netem on host 2's interface
#
# Each host is a network namespace named NETNS_HOST[i] (= its host name:
# netns_run and the agent give the command its own UTS namespace with that
# host name) with one interface eth0, address 10.77.0.(i+1)/24, on a bridge
# that lives in a namespace of its own (NETNS_PREFIX"sw"): nothing is added
# to the machine's own network namespace. Names resolve inside every host
# through /etc/netns/NAME/hosts (ip netns exec mounts it over /etc/hosts).
#
# Everything is removed by netns_cleanup, which runs from an EXIT/INT/TERM
# trap; a test killed with SIGKILL leaves its namespaces behind, and the
# next netns_setup removes every set whose creating process is gone (the
# prefix holds its pid: ftn<PID>x).

NETNS_PREFIX=ftn$$x
NETNS_N=0
NETNS_HOST=()
NETNS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The launch agent for ftmpirun: starts {cmd} in host {host}'s namespace.
NETNS_AGENT="$NETNS_DIR/netns_agent.sh {host} {cmd}"
NETNS_SKIP=77

netns_skip() { echo "SKIP: $*"; exit $NETNS_SKIP; }

# Remove the namespaces of test processes that are gone.
netns_reap_stale() {
    local ns pid
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
        case $ns in ftn[0-9]*x*) ;; *) continue ;; esac
        pid=${ns#ftn}; pid=${pid%%x*}
        [ -d "/proc/$pid" ] && continue
        netns_del_one "$ns"
    done
}

netns_del_one() {
    local ns=$1 p
    for p in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
    ip netns del "$ns" 2>/dev/null
    rm -rf "/etc/netns/$ns"
}

netns_cleanup() {
    local i
    for ((i = 0; i < NETNS_N; i++)); do netns_del_one "${NETNS_HOST[$i]}"; done
    [ "$NETNS_N" -gt 0 ] && netns_del_one "${NETNS_PREFIX}sw"
    NETNS_N=0
}

# netns_setup N: make N hosts. Skips the test (exit 77) where it cannot.
netns_setup() {
    local n=$1 i ns
    [ "$(id -u)" = 0 ] || netns_skip "multi-host tests need root (network namespaces)"
    command -v ip >/dev/null || netns_skip "no ip command (iproute2)"
    command -v unshare >/dev/null || netns_skip "no unshare command (util-linux)"
    netns_reap_stale
    trap 'netns_cleanup' EXIT
    trap 'netns_cleanup; exit 130' INT
    trap 'netns_cleanup; exit 143' TERM
    ip netns add "${NETNS_PREFIX}sw" 2>/dev/null ||
        netns_skip "cannot create network namespaces (ip netns add failed)"
    NETNS_N=$n
    ip -n "${NETNS_PREFIX}sw" link add br0 type bridge || netns_skip "cannot create a bridge"
    ip -n "${NETNS_PREFIX}sw" link set br0 up
    ip -n "${NETNS_PREFIX}sw" link set lo up
    for ((i = 0; i < n; i++)); do
        ns=${NETNS_PREFIX}h$i
        NETNS_HOST[$i]=$ns
        ip netns add "$ns" || netns_skip "cannot create network namespace $ns"
        ip link add eth0 netns "$ns" type veth peer name "v$i" netns "${NETNS_PREFIX}sw" ||
            netns_skip "cannot create veth pairs"
        ip -n "${NETNS_PREFIX}sw" link set "v$i" master br0 up
        ip -n "$ns" addr add "10.77.0.$((i + 1))/24" dev eth0
        ip -n "$ns" link set eth0 up
        ip -n "$ns" link set lo up
    done
    for ((i = 0; i < n; i++)); do
        mkdir -p "/etc/netns/${NETNS_HOST[$i]}"
        {
            echo "127.0.0.1 localhost"
            local j
            for ((j = 0; j < n; j++)); do echo "10.77.0.$((j + 1)) ${NETNS_HOST[$j]}"; done
        } >"/etc/netns/${NETNS_HOST[$i]}/hosts"
    done
}

# "h0:S,h1:S,..." (S slots each; without S, no slot counts).
netns_hostlist() {
    local i out=""
    for ((i = 0; i < NETNS_N; i++)); do
        out+="${out:+,}${NETNS_HOST[$i]}${1:+:$1}"
    done
    echo "$out"
}

# netns_run I CMD...: run CMD on host I (its namespace and host name).
netns_run() { local i=$1; shift; "$NETNS_DIR/netns_agent.sh" "${NETNS_HOST[$i]}" "$@"; }

# Pids of host I's processes; with a name, only those whose comm is NAME.
netns_pids() {
    local p
    for p in $(ip netns pids "${NETNS_HOST[$1]}" 2>/dev/null); do
        if [ -z "${2:-}" ] || [ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ]; then echo "$p"; fi
    done
}

netns_signal() { local p; for p in $(netns_pids "$2" "${3:-}"); do kill "-$1" "$p" 2>/dev/null; done; }
netns_kill_daemon() { netns_signal KILL "$1" ftmpid; }
netns_stop_daemon() { netns_signal STOP "$1" ftmpid; }
netns_cont_daemon() { netns_signal CONT "$1" ftmpid; }
netns_kill_host() { netns_signal KILL "$1"; }
netns_link_down() { ip -n "${NETNS_PREFIX}sw" link set "v$1" down; }
netns_link_up() { ip -n "${NETNS_PREFIX}sw" link set "v$1" up; }
# netns_netem I ARGS...: tc netem ARGS on host I's eth0 (replaces any).
netns_netem() { local i=$1; shift; tc -n "${NETNS_HOST[$i]}" qdisc replace dev eth0 root netem "$@"; }

# netns_test NAME N: the common start of a test script: N hosts, a work
# directory $W for the job's files, $JOB for a job run in the background;
# at exit the job is killed, the hosts and $W removed. netns_fail MESSAGE
# prints MESSAGE and the end of every file in $W, and exits 1.
netns_test() {
    NETNS_TEST=$1
    W=$(mktemp -d "${TMPDIR:-/tmp}/netns-$1.XXXXXX")
    JOB=
    netns_setup "$2"
    trap '[ -n "$JOB" ] && kill -KILL $JOB 2>/dev/null; netns_cleanup; rm -rf "$W"' EXIT
}
netns_fail() {
    echo "FAIL [$NETNS_TEST]: $*"
    for f in "$W"/*; do [ -f "$f" ] && { echo "--- $f"; tail -c 4000 "$f"; }; done
    exit 1
}

# netns_second_net: a second network between the hosts (several routes,
# issue 14): a bridge br1 in the switch namespace and, per host, eth1 with
# 10.77.1.(i+1)/24 on it. Skips the test where it cannot.
netns_second_net() {
    local sw=${NETNS_PREFIX}sw i
    ip -n "$sw" link add br1 type bridge && ip -n "$sw" link set br1 up ||
        netns_skip "cannot create a second bridge"
    for ((i = 0; i < NETNS_N; i++)); do
        ip link add eth1 netns "${NETNS_HOST[$i]}" type veth peer name "w$i" netns "$sw" ||
            netns_skip "cannot create a second veth pair"
        ip -n "$sw" link set "w$i" master br1 up
        ip -n "${NETNS_HOST[$i]}" addr add "10.77.1.$((i + 1))/24" dev eth1
        ip -n "${NETNS_HOST[$i]}" link set eth1 up
    done
}
