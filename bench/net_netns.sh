#!/usr/bin/env bash
# net_netns.sh [BUILD_DIR] [-- compare.sh options...]: bench/compare.sh with
# 2 ranks on two "hosts" that are network namespaces joined by a veth pair
# (10.78.N.1, 10.78.N.2): ftmpi (a daemon started in the second namespace
# with --launch-agent) against Open MPI's TCP path (--mca btl tcp,self, its
# daemon started with an `ip netns exec` rsh agent). Needs root; the
# namespaces are removed on every exit.
#   bench/net_netns.sh build -- --bench pingpong --impl ftmpi,openmpi --runs 3 -- --max-size 4194304
# FTMPIRUN_OPTS adds ftmpirun options, e.g. FTMPIRUN_OPTS=--reliability=off
# (bench/net_rel.sh compares the reliability layer on and off this way).
# With --np N > 2 the ranks are split over the two hosts (the first takes
# the odd one): ftmpi's ranks on one host talk through shared memory, Open
# MPI's over TCP (tcp,self, as issue 13 asks; with vader added its rank 1
# died with SIGSEGV in a namespace, 2026-11-25), ranks on different hosts
# over the veth pair; e.g. the collectives at np 4, 2 per host:
#   bench/net_netns.sh build -- --bench coll_lat --np 4 --impl ftmpi,openmpi --runs 3 -- --ops bcast,allreduce
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$ROOT/build
if [ $# -gt 0 ] && [ "$1" != -- ]; then build=$(cd "$1" && pwd); shift; fi
[ "${1:-}" = -- ] && shift
[ "$(id -u)" = 0 ] || { echo "net_netns.sh: needs root (network namespaces)" >&2; exit 2; }
t=ftnb$$ sub=$(( $$ % 200 + 20 ))
wrap=$(mktemp -d "${TMPDIR:-/tmp}/ftmpi-netns.XXXXXX")
cleanup() { ip netns del "${t}a" 2>/dev/null || true; ip netns del "${t}b" 2>/dev/null || true
            rm -rf "$wrap"; }
trap cleanup EXIT INT TERM
ip netns add "${t}a"; ip netns add "${t}b"
ip link add "${t}0" type veth peer name "${t}1"
ip link set "${t}0" netns "${t}a"; ip link set "${t}1" netns "${t}b"
ip -n "${t}a" addr add "10.78.$sub.1/24" dev "${t}0"
ip -n "${t}b" addr add "10.78.$sub.2/24" dev "${t}1"
for n in a b; do ip -n "$t$n" link set lo up; done
ip -n "${t}a" link set "${t}0" up; ip -n "${t}b" link set "${t}1" up
cat >"$wrap/agent" <<'EOS'
#!/bin/sh
h=$1; shift
exec ip netns exec "$h" sh -c "$*"
EOS
cat >"$wrap/ftmpi-ns" <<EOS
#!/bin/sh
np=\$2; shift 2
a=\$(( (np + 1) / 2 )) b=\$(( np / 2 ))
exec env FTMPI_HEAD_ADDRESS=10.78.$sub.1 "$build/bin/mpirun" --hosts localhost:\$a,${t}b:\$b \\
    --launch-agent 'ip netns exec {host} {cmd}' ${FTMPIRUN_OPTS:-} -np "\$np" "\$@"
EOS
cat >"$wrap/openmpi-ns" <<EOS
#!/bin/sh
np=\$2
a=\$(( (np + 1) / 2 )) b=\$(( np / 2 ))
exec mpirun.openmpi --mca btl tcp,self --mca btl_tcp_if_include 10.78.$sub.0/24 \\
    --mca oob_tcp_if_include 10.78.$sub.0/24 --mca plm_rsh_agent $wrap/agent \\
    --host ${t}a:\$a,${t}b:\$b "\$@"
EOS
chmod +x "$wrap"/*
ip netns exec "${t}a" env MPIRUN_FTMPI="$wrap/ftmpi-ns" MPIRUN_OPENMPI="$wrap/openmpi-ns" \
    "$ROOT/bench/compare.sh" "$build" --np 2 "$@"
