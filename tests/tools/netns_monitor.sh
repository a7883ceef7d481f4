#!/bin/bash
# netns_monitor.sh FTMPIRUN CG CTL: the monitor of a job on 2 namespace
# hosts (tests/netns/netns.sh; 2 ranks each, REBUILD). CPU and memory come
# from each host's daemon (runtime/daemon/daemon_usage.c): the ranks of
# host 1 must show them, and their communicators and matrix rows too;
# `ftmpi-ctl ranks`, `comms 3` and `matrix` run inside host 0 against the
# URL. Rank 3 (host 1) is then stopped with SIGSTOP, so that it cannot
# report anything itself: its daemon must go on sampling it (state letter
# T, CPU 0, memory, more samples), and it runs on after SIGCONT. Then
# `stop`: exit 143.
# Skipped (77) where namespaces cannot be made.
set -u
RUN=$1
CG=$2
CTL=$3
. "$(dirname "$0")/../netns/netns.sh"
netns_test monitor 2

netns_run 0 "$RUN" --timeout 100 --hosts "$(netns_hostlist 2)" --launch-agent "$NETNS_AGENT" \
    --monitor --heartbeat-timeout 60 --comm-mode=rebuild -np 4 "$CG" --n 16 --tol 1e-300 --max-iter 100000 \
    --delay-us 100000 >"$W/job.out" 2>"$W/job.err" &
JOB=$!
url=
for _ in $(seq 600); do
    url=$(grep -Eo 'http://[^ ]+token=[0-9a-f]+' "$W/job.err" 2>/dev/null | head -1)
    [ -n "$url" ] && break
    kill -0 "$JOB" 2>/dev/null || netns_fail "ftmpirun ended before printing its URL"
    sleep 0.1
done
[ -n "$url" ] || netns_fail "no monitor URL"
ctl() { netns_run 0 python3 "$CTL" "$url" "$@"; }

# every rank, those of host 1 included, with RSS and CPU
ok=
for _ in $(seq 300); do
    ctl ranks >"$W/ranks.txt" 2>&1 || netns_fail "ftmpi-ctl ranks failed"
    # RANK HOST STATE PID INC CPU% RSS: no "-" left in the last two columns
    n=$(awk '$1 ~ /^[0-9]+$/ && $3 == "running" && $6 != "-" && $7 != "-"' "$W/ranks.txt" | wc -l)
    if [ "$n" -eq 4 ]; then ok=1; break; fi
    sleep 0.2
done
[ -n "$ok" ] || netns_fail "not every rank shows CPU and memory: $(cat "$W/ranks.txt")"
remote=$(awk '$1 == 3 { print $2 }' "$W/ranks.txt")
[ "$remote" = "${NETNS_HOST[1]}" ] || netns_fail "rank 3 is on '$remote', not ${NETNS_HOST[1]}"
ctl comms 3 >"$W/comms.txt" 2>&1 || netns_fail "ftmpi-ctl comms 3 failed"
grep -q "MPI_COMM_WORLD *4 *3 *0 ok" "$W/comms.txt" || netns_fail "rank 3's communicators"
ctl matrix >"$W/matrix.txt" 2>&1 || netns_fail "ftmpi-ctl matrix failed"
awk '$1 == 3 { for (i = 2; i <= NF; i++) if ($i == "-") bad = 1; found = 1 }
     END { exit !(found && !bad) }' "$W/matrix.txt" || netns_fail "rank 3's matrix row"

# a stopped rank: only its daemon can tell how it is
pid3=$(awk '$1 == 3 { print $4 }' "$W/ranks.txt")
samples() { netns_run 0 python3 -c 'import json, sys, urllib.request as u
r = json.load(u.urlopen(sys.argv[1].replace("/?", "/api/state?"), timeout=10))["ranks"][3]
print(r.get("usage_samples", -1), r.get("proc_state", "-"), r.get("cpu_pct", -1), r.get("rss_kib", 0))' "$url"; }
kill -STOP "$pid3" || netns_fail "cannot stop rank 3 (pid $pid3)"
read -r n0 _ < <(samples)
ok=
for _ in $(seq 100); do
    read -r n st cpu rss < <(samples)
    if [ "$st" = T ] && [ "$n" -ge $((n0 + 2)) ] && [ "$cpu" = 0.0 ] && [ "$rss" -gt 0 ]; then
        ok=1; break
    fi
    sleep 0.2
done
kill -CONT "$pid3"
[ -n "$ok" ] || netns_fail "stopped rank 3 (pid $pid3): samples $n0 -> $n, state $st, cpu $cpu, rss $rss"
ctl ranks >"$W/ranks2.txt" 2>&1 || netns_fail "ftmpi-ctl ranks failed"
for _ in $(seq 100); do
    ctl ranks >"$W/ranks2.txt" 2>&1 || netns_fail "ftmpi-ctl ranks failed"
    awk '$1 == 3 && $3 == "running" && $8 != "T" { f = 1 } END { exit !f }' "$W/ranks2.txt" && break
    sleep 0.2
done
awk '$1 == 3 && $3 == "running" && $8 != "T" { f = 1 } END { exit !f }' "$W/ranks2.txt" ||
    netns_fail "rank 3 after SIGCONT: $(cat "$W/ranks2.txt")"
ctl stop >/dev/null 2>&1 || netns_fail "ftmpi-ctl stop failed"
wait "$JOB"
rc=$?
JOB=
[ $rc -eq 143 ] || netns_fail "the stopped job exited $rc, not 143"
echo "PASS [monitor]: remote ranks' usage (also of stopped rank 3: $n0 -> $n samples, state $st), communicators and matrix rows"
sed -n '1,7p' "$W/ranks.txt"
