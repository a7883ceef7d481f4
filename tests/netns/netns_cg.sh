#!/bin/bash
# netns_cg.sh CASE FTMPIRUN CG: CG with in-memory checkpoints on 4 namespace
# hosts (2 ranks each, REBUILD), MPI traffic over the TCP transport, and a
# whole host (its daemon and its ranks) SIGKILLed during the solve. The run
# must recover once, for both of the host's ranks in one round, and print
# the failure-free solution checksum (taken by a run on the same hosts).
#   rs2        one RS group with 2 checksum ranks: the host's 2 data ranks
#              are rebuilt together
#   xor_spread two XOR groups of 3 data + 1 checksum rank: recoverable only
#              because the checkpoint layer puts no two members of a group
#              on one host (docs/diskless_ckpt.md, placement)
set -u
CASE=$1
RUN=$2
CG=$3
. "$(dirname "$0")/netns.sh"
netns_test "cg-$CASE" 4

case $CASE in
rs2) opts=(--n 20 --tol 1e-12 --encoding rs --checksums 2 --ckpt-interval 5) ;;
xor_spread) opts=(--n 20 --tol 1e-12 --encoding xor --group 3 --ckpt-interval 5) ;;
*) echo "unknown case $CASE"; exit 2 ;;
esac
job() { # NAME EXTRA-CG-OPTIONS...
    local name=$1
    shift
    netns_run 0 "$RUN" --timeout 60 --hosts "$(netns_hostlist 2)" --launch-agent "$NETNS_AGENT" \
        --comm-mode=rebuild --event-log "$W/$name.log" -np 8 "$CG" "${opts[@]}" --json "$@" \
        >"$W/$name.out" 2>"$W/$name.err"
}
sum() { grep -Eo '"solution_checksum": "[0-9a-f]+"' "$W/$1.out"; }

job ref || netns_fail "the failure-free run exited $?"
ref=$(sum ref)
[ -n "$ref" ] || netns_fail "no checksum in the failure-free run"

# ~25 ms per iteration: the host dies well inside the solve
job kill --delay-us 25000 &
JOB=$!
for _ in $(seq 600); do
    n=$(grep -c '"event":"proc_start"' "$W/kill.log" 2>/dev/null)
    [ "${n:-0}" -ge 8 ] && break
    sleep 0.05
done
sleep 0.8
netns_kill_host 2
wait "$JOB"
rc=$?
JOB=
[ $rc -eq 0 ] || netns_fail "the run with host 2 killed exited $rc"
[ "$(sum kill)" = "$ref" ] || netns_fail "checksum $(sum kill), failure-free $ref"
grep -q '"recoveries_total": 1' "$W/kill.out" || netns_fail "not exactly one recovery"
grep -q '"event":"recovery_end","generation":1,"failed":\[4,5\]' "$W/kill.log" ||
    netns_fail "ranks 4 and 5 were not recovered in one round"
echo "PASS [cg $CASE]: $ref after losing host 2"
