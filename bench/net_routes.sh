#!/usr/bin/env bash
# net_routes.sh [BUILD_DIR] [RATE] [ROUNDS]: bandwidth of one route against
# two (issue 14). Two network namespaces joined by two veth pairs
# (10.79.N.0/24 and 10.79.N+1.0/24), each direction of each pair limited
# to RATE (default 200mbit) with tc tbf, so that the wire and not the CPU
# is the limit; tests/mpi/net_routes sends 4 MiB messages (20 per run) with
# ftmpirun --net v0 (one route) and --net v0,v1 (two routes), ROUNDS runs
# each (default 3) alternating; prints the median MB/s of each and the
# ratio. Needs root and sch_tbf (exits 77 without it).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$ROOT/build}" && pwd)
rate=${2:-200mbit}
rounds=${3:-3}
[ "$(id -u)" = 0 ] || { echo "net_routes.sh: needs root (network namespaces)" >&2; exit 2; }
t=ftrb$$ sub=$(( $$ % 100 * 2 + 20 ))
out=$(mktemp -d "${TMPDIR:-/tmp}/net_routes.XXXXXX")
cleanup() { ip netns del "${t}a" 2>/dev/null || true; ip netns del "${t}b" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
ip netns add "${t}a"; ip netns add "${t}b"
for k in 0 1; do
    ip link add "${t}a$k" type veth peer name "${t}b$k"
    ip link set "${t}a$k" netns "${t}a" name "v$k"; ip link set "${t}b$k" netns "${t}b" name "v$k"
    ip -n "${t}a" addr add "10.79.$((sub + k)).1/24" dev "v$k"
    ip -n "${t}b" addr add "10.79.$((sub + k)).2/24" dev "v$k"
    for n in a b; do
        ip -n "$t$n" link set "v$k" up
        tc -n "$t$n" qdisc replace dev "v$k" root tbf rate "$rate" burst 256kb latency 100ms ||
            { echo "net_routes.sh: no tc tbf here (sch_tbf): skipped"; exit 77; }
    done
done
for n in a b; do ip -n "$t$n" link set lo up; done
run() { # NET RUN#
    ip netns exec "${t}a" env FTMPI_HEAD_ADDRESS="10.79.$sub.1" "$build/bin/mpirun" \
        --timeout 120 --hosts "localhost:1,${t}b:1" --launch-agent 'ip netns exec {host} {cmd}' \
        --net "$1" -np 2 "$build/tests/mpi/net_routes" 20 4 0 >"$out/$1.$2.out" 2>&1
}
for r in $(seq "$rounds"); do run v0 "$r"; run v0,v1 "$r"; done
python3 - "$out" "$rounds" "$rate" <<'PY'
import re, statistics, sys
out, rounds, rate = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def mbs(net):
    v = []
    for r in range(1, rounds + 1):
        s = open(f"{out}/{net}.{r}.out").read()
        x = [float(m) for m in re.findall(r"intact \(([0-9.]+) MB/s\)", s)]
        if x: v.append(statistics.median(x))
    return v
one, two = mbs("v0"), mbs("v0,v1")
m1, m2 = statistics.median(one), statistics.median(two)
print(f"4 MiB messages, {rate} per route (tc tbf), median of {rounds} runs of 20 messages each")
print("| routes | MB/s (runs) | median | ratio |")
print("| ---: | --- | ---: | ---: |")
print(f"| 1 | {', '.join(f'{x:.1f}' for x in one)} | {m1:.1f} | 1.00 |")
print(f"| 2 | {', '.join(f'{x:.1f}' for x in two)} | {m2:.1f} | {m2 / m1:.2f} |")
PY
echo "(runs in $out)"
