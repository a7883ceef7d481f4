#!/bin/bash
# nodeloss.sh BUILD_DIR [RUNS]: how long ftmpirun takes to notice a lost
# host, at np 8 on 4 namespace hosts (tests/netns/netns.sh; needs root).
# For each run and each fault, a SHRINK job (tests' rt_prog "recover":
# survivors wait for the failure and join one recovery round) loses host 3:
#   daemon  SIGKILL of host 3's ftmpid        (end of its TCP stream)
#   link    host 3's cable cut (ip link down) (heartbeat timeout)
#   stop    SIGSTOP of one rank of host 3     (stopped-rank timeout)
# The fault's time is CLOCK_MONOTONIC just before it (bench/monotime), the
# detection's the event log's host_lost / first proc_failed event, the
# round's its recovery_end. Prints the medians over RUNS (default 7).
# Heartbeats: --heartbeat-interval 0.1 --heartbeat-timeout 1 (HB below).
set -u
B=$(cd "$1" && pwd)
RUNS=${2:-7}
HB=(--heartbeat-interval 0.1 --heartbeat-timeout 1)
. "$(dirname "$0")/../tests/netns/netns.sh"
netns_setup 4
W=$(mktemp -d "${TMPDIR:-/tmp}/nodeloss.XXXXXX")
trap 'netns_cleanup; rm -rf "$W"' EXIT

one() { # FAULT -> "detect_ms round_ms"
    local fault=$1 t_fault
    netns_run 0 "$B/bin/ftmpirun" --timeout 30 --launch-agent "$NETNS_AGENT" \
        --hosts "$(netns_hostlist 2)" "${HB[@]}" --comm-mode=shrink --event-log "$W/log" \
        -np 8 "$B/tests/runtime/rt_prog" recover 1 >"$W/out" 2>"$W/err" &
    local job=$!
    for _ in $(seq 400); do [ "$(grep -c '^ready' "$W/out")" -ge 8 ] && break; sleep 0.02; done
    sleep 0.2
    case $fault in
    daemon) t_fault=$("$B/bin/bench_monotime" kill -KILL "$(netns_pids 3 ftmpid)") ;;
    link) t_fault=$("$B/bin/bench_monotime" ip -n "${NETNS_PREFIX}sw" link set v3 down) ;;
    stop) t_fault=$("$B/bin/bench_monotime" kill -STOP "$(netns_pids 3 rt_prog | head -1)") ;;
    esac
    wait $job
    [ "$fault" = link ] && netns_link_up 3
    awk -v tf="$t_fault" -v ev="$([ "$fault" = stop ] && echo proc_failed || echo host_lost)" '
        /"event":"launch"/ { match($0, /"monotonic_t0":[0-9.]+/); t0 = substr($0, RSTART + 15, RLENGTH - 15) }
        $0 ~ "\"event\":\"" ev "\"" && !d { match($0, /"t":[0-9.]+/); d = substr($0, RSTART + 4, RLENGTH - 4) }
        /"event":"recovery_end"/ { match($0, /"t":[0-9.]+/); r = substr($0, RSTART + 4, RLENGTH - 4) }
        END { if (!d || !r) print "NA NA"; else printf "%.1f %.1f\n", (t0 + d - tf) * 1e3, (r - d) * 1e3 }' "$W/log"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "# np 8 on 4 namespace hosts, SHRINK, ${HB[*]}, $RUNS runs; load: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
printf "%-8s %18s %18s %s\n" fault "detect_ms_median" "round_ms_median" "detect_ms_all"
for f in daemon link stop; do
    : >"$W/res.$f"
    for _ in $(seq "$RUNS"); do one $f >>"$W/res.$f"; done
    printf "%-8s %18s %18s %s\n" $f "$(cut -d' ' -f1 "$W/res.$f" | median)" \
        "$(cut -d' ' -f2 "$W/res.$f" | median)" "$(cut -d' ' -f1 "$W/res.$f" | tr '\n' ' ')"
done
