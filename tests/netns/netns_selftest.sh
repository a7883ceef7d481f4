#!/bin/bash
# netns_selftest.sh FTMPIRUN RT_PROG: the multi-host harness itself
# (tests/netns/netns.sh): hosts reach each other by name, a job runs on
# three hosts, killing a host fails its ranks, and a test killed with
# SIGKILL has its namespaces removed by the next setup.
set -u
RUN=$1
PROG=$2
. "$(dirname "$0")/netns.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/netns-self.XXXXXX")
fail() { echo "FAIL [netns_selftest]: $*"; for f in "$W"/*; do [ -f "$f" ] && { echo "--- $f"; head -c 3000 "$f"; }; done; exit 1; }

# A set left behind by a killed test is reaped by the next setup.
bash -c '. "$1"; netns_setup 2; echo "$NETNS_PREFIX" > "$2"; kill -KILL $$' _ \
    "$NETNS_DIR/netns.sh" "$W/stale" >/dev/null 2>&1
rc=$?
[ "$rc" = 77 ] && { rm -rf "$W"; netns_skip "cannot create network namespaces"; }
stale=$(cat "$W/stale" 2>/dev/null)
[ -n "$stale" ] || fail "the killed setup did not start"
ip netns list | grep -q "^${stale}h0" || fail "the killed test left nothing (cannot test reaping)"

netns_setup 3
trap 'netns_cleanup; rm -rf "$W"' EXIT
ip netns list | grep -q "^${stale}" && fail "stale namespaces of $stale not removed"
[ -e "/etc/netns/${stale}h0" ] && fail "stale /etc/netns entry not removed"

[ "$(netns_run 1 getent hosts "${NETNS_HOST[2]}" | cut -d" " -f1)" = 10.77.0.3 ] || fail "h1 cannot resolve h2"
[ "$(netns_run 2 hostname)" = "${NETNS_HOST[2]}" ] || fail "host name"

# A job on three hosts: the head in host 0, ftmpid in hosts 1 and 2.
netns_run 0 "$RUN" --timeout 30 --hosts "$(netns_hostlist 2)" --launch-agent "$NETNS_AGENT" \
    -np 6 "$PROG" kv >"$W/out" 2>"$W/err" || fail "kv job: exit $?"
[ "$(grep -c '^kv ok' "$W/out")" -eq 6 ] || fail "kv results"

# Kill host 2 (daemon and ranks): its two ranks fail, the others are told.
netns_run 0 "$RUN" --timeout 30 --hosts "$(netns_hostlist 2)" --launch-agent "$NETNS_AGENT" \
    -np 6 --comm-mode=shrink "$PROG" events 2 >"$W/out" 2>"$W/err" &
job=$!
for _ in $(seq 200); do [ "$(grep -c '^pid' "$W/out")" -ge 6 ] && break; sleep 0.05; done
[ "$(grep -c '^pid' "$W/out")" -ge 6 ] || fail "job did not start"
netns_kill_host 2
wait $job; rc=$?
[ $rc -ne 0 ] || fail "exit 0 after losing a host"
grep -q "lost the daemon of host ${NETNS_HOST[2]}" "$W/err" || fail "no lost-host message"
[ "$(grep -c 'failure of' "$W/out")" -eq 8 ] || fail "4 survivors x 2 failures expected"
[ -z "$(netns_pids 1)" ] || fail "processes left in host 1"

netns_cleanup
ip netns list | grep -q "^${NETNS_PREFIX}" && fail "namespaces left after cleanup"
echo "PASS [netns_selftest]"
