#!/bin/sh
# Runtime tests: rt_driver.sh TEST FTMPIRUN RT_PROG
# Each test runs ftmpirun on rt_prog (tests/runtime/rt_prog.c) and checks
# exit status, output, the event log, and that no process is left behind.
set -u
T=$1
RUN=$2
PROG=$3
BIN=$(dirname "$RUN")
W=$(mktemp -d "${TMPDIR:-/tmp}/rt-$T.XXXXXX")
trap 'rm -rf "$W"' EXIT

fail() { echo "FAIL [$T]: $*"; for f in "$W"/*; do [ -f "$f" ] && { echo "--- $f"; head -c 4000 "$f"; }; done; exit 1; }
ok() { echo "PASS [$T]${1:+: $1}"; exit 0; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# run OUTFILE ERRFILE ARGS... : sets RC. Every job gets --timeout 45 (under
# ctest's 60 s), so a hang ends with status 124 and a message; a --timeout
# in ARGS comes later and wins.
run() { o=$1; e=$2; shift 2; "$RUN" --timeout 45 "$@" >"$o" 2>"$e"; RC=$?; }

# Is pid alive (a zombie waiting for its reaper counts as gone)?
alive() {
    st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    case $st in Z*|"") return 1 ;; esac
    return 0
}

# Every pid a rank printed ("pid N rank R") must be gone; $2: seconds to
# allow (default 0: already gone when ftmpirun has returned).
no_leftovers() {
    for p in $(sed -n 's/^pid \([0-9]*\) rank .*/\1/p' "$1"); do
        i=0
        while alive "$p" && [ $i -lt $((${2:-0} * 20)) ]; do sleep 0.05; i=$((i + 1)); done
        if alive "$p"; then
            ps -o pid,stat,cmd -p "$p"
            fail "process $p is still there"
        fi
    done
}

# Lines of file $2 matching $1 (0 when the file is not there yet).
count() { c=$(grep -c -- "$1" "$2" 2>/dev/null); echo "${c:-0}"; }

# The "recovered" lines of generation G must be identical on every process
# (rank and incarnation prefix removed) and there must be N of them.
same_recovery() {
    g=$1; want_n=$2; f=$3
    grep "gen=$g " "$f" | sed 's/^recovered rank [0-9]* inc [0-9]*: //' | sort -u >"$W/uniq.$g"
    [ "$(grep -c "gen=$g " "$f")" -eq "$want_n" ] || fail "expected $want_n results of generation $g"
    [ "$(wc -l <"$W/uniq.$g")" -eq 1 ] || fail "results of generation $g differ"
}

case "$T" in
options)
    "$RUN" --help >"$W/out" 2>&1 || fail "--help exit status"
    grep -q -- "--comm-mode" "$W/out" || fail "--help text"
    "$RUN" --version >"$W/out" 2>&1 || fail "--version"
    grep -q ftmpirun "$W/out" || fail "--version text"
    for bad in "-np 0 true" "-np x true" "--comm-mode=foo true" "--msg-mode bar true" \
               "--coll-mode=x true" "--recovery=sometimes true" "--kill 1 true" \
               "--kill 9@1 -np 2 true" "--kill-at @1 true" "--kill-at x@y true" \
               "--ring-bytes 1000 true" "--timeout -1 true" "--frobnicate true" "-np 2"; do
        # shellcheck disable=SC2086
        "$RUN" $bad >"$W/out" 2>"$W/err"; rc=$?
        [ $rc -eq 2 ] || fail "'$bad' exited $rc, expected 2"
        grep -q "^ftmpirun: " "$W/err" || fail "'$bad' printed no message"
    done
    "$RUN" --tag-output --comm-mode rebuild --msg-mode=cont --coll-mode atomic \
        --recovery=auto --oversubscribe -n 2 true || fail "valid options refused"
    FTMPI_COMM_MODE=nonsense "$RUN" true 2>"$W/err"; [ $? -eq 2 ] || fail "bad env mode accepted"
    grep -q FTMPI_COMM_MODE "$W/err" || fail "bad env mode not named"
    for alias in mpirun mpiexec; do
        "$BIN/$alias" -np 2 true || fail "$alias does not work"
    done
    ok ;;
exitcode)
    run "$W/out" "$W/err" -np 3 "$PROG" exit 5; [ $RC -eq 5 ] || fail "exit 5 gave $RC"
    grep -q "rank 2 .* exited with code 5" "$W/err" || fail "no line for rank 2"
    run "$W/out" "$W/err" -np 3 "$PROG" exit 0; [ $RC -eq 0 ] || fail "exit 0 gave $RC"
    [ -s "$W/err" ] && fail "unexpected stderr"
    run "$W/out" "$W/err" -np 4 "$PROG" plain-exit 6; [ $RC -eq 6 ] || fail "plain exit 6 gave $RC"
    run "$W/out" "$W/err" -np 4 false; [ $RC -eq 1 ] || fail "false gave $RC"
    run "$W/out" "$W/err" -np 4 true; [ $RC -eq 0 ] || fail "true gave $RC"
    ok ;;
output)
    run "$W/out" "$W/err" -np 3 "$PROG" echo
    [ $RC -eq 0 ] || fail "exit $RC"
    [ "$(count "hello from rank" "$W/out")" -eq 3 ] || fail "stdout lines"
    [ "$(count "err line" "$W/err")" -eq 3 ] || fail "stderr lines"
    grep -q "err line" "$W/out" && fail "stderr went to stdout"
    echo "from stdin" | "$RUN" -np 2 cat >"$W/out" || fail "cat"
    [ "$(count "from stdin" "$W/out")" -eq 1 ] || fail "stdin not given to rank 0 only"
    # A terminal as stdin: rank 0 (own process group) reads it through the
    # launcher, without being stopped by SIGTTIN.
    if command -v python3 >/dev/null 2>&1; then
        python3 "$(dirname "$0")/pty_run.py" "$RUN" -np 2 --tag-output /bin/cat >"$W/pty" 2>&1
        grep -qx "\[0\] typed line" "$W/pty" || fail "terminal stdin not forwarded"
        grep -qx "status 0" "$W/pty" || fail "terminal stdin: exit status"
    fi
    ok ;;
tagoutput)
    run "$W/out" "$W/err" -np 4 --tag-output "$PROG" echo
    [ $RC -eq 0 ] || fail "exit $RC"
    for r in 0 1 2 3; do
        grep -qx "\[$r\] hello from rank $r" "$W/out" || fail "rank $r first line"
        grep -qx "\[$r\] second line $r" "$W/out" || fail "rank $r second line"
        grep -qx "\[$r\] err line $r" "$W/err" || fail "rank $r stderr"
    done
    printf 'no newline' >"$W/nonl.sh"
    "$RUN" -np 1 --tag-output sh -c 'printf "partial"' >"$W/out2"
    grep -qx "\[0\] partial" "$W/out2" || fail "unterminated last line"
    ok ;;
env)
    FTMPI_MSG_MODE=cont run "$W/out" "$W/err" -np 2 -x FOO=bar -x RT_PROBE --comm-mode=SHRINK \
        "$PROG" env FOO FTMPI_COMM_MODE FTMPI_MSG_MODE FTMPI_SIZE FTMPI_SHM_FD FTMPI_CTL_FD
    [ $RC -eq 0 ] || fail "exit $RC"
    [ "$(count "^FOO=bar" "$W/out")" -eq 2 ] || fail "-x FOO=bar"
    [ "$(count "^FTMPI_COMM_MODE=shrink" "$W/out")" -eq 2 ] || fail "comm mode"
    [ "$(count "^FTMPI_MSG_MODE=cont" "$W/out")" -eq 2 ] || fail "msg mode from env"
    [ "$(count "^FTMPI_SIZE=2" "$W/out")" -eq 2 ] || fail "size"
    grep -q "FTMPI_SHM_FD=(unset)" "$W/out" && fail "no shm fd"
    RT_PROBE=xyz run "$W/out" "$W/err" -np 1 -x RT_PROBE "$PROG" env RT_PROBE
    grep -qx "RT_PROBE=xyz" "$W/out" || fail "-x VAR"
    ok ;;
kv)
    for n in 1 2 4 8; do
        run "$W/out" "$W/err" -np $n --event-log "$W/log" "$PROG" kv
        [ $RC -eq 0 ] || fail "np $n: exit $RC"
        [ "$(count "^kv ok" "$W/out")" -eq $n ] || fail "np $n: kv results"
    done
    grep -q '"suspect_cleared"' "$W/log" || fail "suspect of a live rank not cleared"
    grep -q '"proc_failed"' "$W/log" && fail "suspect made a failure"
    ok ;;
timeout)
    t0=$(now)
    run "$W/out" "$W/err" -np 3 --timeout 1 "$PROG" hang
    t1=$(now)
    [ $RC -eq 124 ] || fail "exit $RC, expected 124"
    grep -q "timeout" "$W/err" || fail "no timeout message"
    lt "$(elapsed "$t0" "$t1")" 3 || fail "took $(elapsed "$t0" "$t1") s"
    [ "$(count "^pid" "$W/out")" -eq 3 ] || fail "ranks did not start"
    no_leftovers "$W/out"
    ok ;;
abort_mode)
    run "$W/out" "$W/err" -np 4 --kill 2@0.5 --event-log "$W/log" "$PROG" hang
    [ $RC -eq 137 ] || fail "exit $RC, expected 137"
    grep -Eq "^ftmpirun: rank 2 \(pid [0-9]+, host [^)]+\) killed by signal 9 \(SIGKILL\); aborting the job \(comm mode ABORT\)$" "$W/err" \
        || fail "message"
    tk=$(sed -n 's/.*"t":\([0-9.]*\),"event":"kill".*/\1/p' "$W/log")
    te=$(sed -n 's/.*"t":\([0-9.]*\),"event":"job_end".*/\1/p' "$W/log")
    lt "$(elapsed "$tk" "$te")" 1 || fail "job ended $(elapsed "$tk" "$te") s after the kill"
    no_leftovers "$W/out"
    d=$(elapsed "$tk" "$te")
    # a process that closes its control connection is failed too
    t0=$(now)
    run "$W/out" "$W/err" -np 3 "$PROG" closectl
    [ $RC -eq 137 ] || fail "closed connection: exit $RC"
    grep -q "rank 2 .*closed its control connection" "$W/err" || fail "closed connection: message"
    lt "$(elapsed "$t0" "$(now)")" 5 || fail "closed connection: too slow"
    ok "down $d s after the kill" ;;
mpi_abort)
    run "$W/out" "$W/err" -np 3 "$PROG" abort 7
    [ $RC -eq 7 ] || fail "exit $RC, expected 7"
    grep -q "rank 2 .*called MPI_Abort with error code 7: test abort" "$W/err" || fail "message"
    ok ;;
shrink_events)
    run "$W/out" "$W/err" -np 4 --comm-mode=shrink --kill 2@0.3 --event-log "$W/log" "$PROG" events 1
    [ "$(count "failure of 2 sig 9" "$W/out")" -eq 3 ] || fail "survivors not told"
    for r in 0 1 3; do grep -q "event rank $r: failure of 2" "$W/out" || fail "rank $r"; done
    [ $RC -ne 0 ] || fail "unrecovered failure gave exit 0"
    grep -q "rank 2 .*not recovered" "$W/err" || fail "no line for the failed rank"
    no_leftovers "$W/out"
    # detection latency: the kill (launcher clock) to the last survivor's
    # event (CLOCK_MONOTONIC is the same clock in every process)
    t0=$(sed -n 's/.*"monotonic_t0":\([0-9.]*\).*/\1/p' "$W/log")
    tk=$(sed -n 's/.*"t":\([0-9.]*\),"event":"kill".*/\1/p' "$W/log")
    last=$(sed -n 's/.*failure of 2 .* at \([0-9.]*\)$/\1/p' "$W/out" | sort -n | tail -1)
    lat=$(awk -v a="$t0" -v k="$tk" -v l="$last" 'BEGIN { printf "%.6f", l - (a + k) }')
    lt "$lat" 0.5 || fail "survivors learned of the failure $lat s after the kill"
    ok "kill -> every survivor notified in $lat s" ;;
kill)
    run "$W/out" "$W/err" -np 4 --comm-mode=blank --kill 1@0.3 --kill 3@0.3 --event-log "$W/log" "$PROG" recover 1
    [ $RC -eq 0 ] || fail "recovered job exited $RC"
    same_recovery 1 2 "$W/out"
    grep -q "failed=1,3 " "$W/out" || fail "failed list"
    [ "$(count '"event":"kill"' "$W/log")" -eq 2 ] || fail "kills in the log"
    ok ;;
kill_at)
    run "$W/out" "$W/err" -np 4 --comm-mode=shrink --kill-at iter=5@1 --kill-at iter@3 \
        --event-log "$W/log" "$PROG" fault iter 10
    # nobody recovers here: the kills stay unrecovered, status 128 + SIGKILL
    [ $RC -eq 137 ] || fail "unrecovered kills: exit $RC, expected 137"
    grep -q "rank 1 inc 0 done" "$W/out" && fail "rank 1 was not killed"
    grep -q "rank 3 inc 0 done" "$W/out" && fail "rank 3 was not killed"
    grep -q "rank 0 inc 0 done" "$W/out" || fail "rank 0"
    grep -q '"point":"iter","value":5' "$W/log" || fail "iter=5 not logged"
    grep -q '"rank":3,.*"point":"iter","value":0' "$W/log" || fail "iter@3 not logged"
    # one shot: the replacement passes iter=5 again and lives
    run "$W/out" "$W/err" -np 3 --comm-mode=rebuild --kill-at iter=5@1 --event-log "$W/log" \
        "$PROG" fault iter 10 1
    [ $RC -eq 137 ] || fail "replacement run: exit $RC, expected 137 (no recovery round)"
    grep -q "rank 1 inc 1 done" "$W/out" || fail "replacement was killed again"
    [ "$(count '"reason":"--kill-at"' "$W/log")" -eq 1 ] || fail "kill count"
    # a point that is not reached, or another rank: nothing happens
    run "$W/out" "$W/err" -np 2 --kill-at other@1 --kill-at iter=50@1 "$PROG" fault iter 10
    [ $RC -eq 0 ] || fail "unarmed points killed something"
    ok ;;
rebuild)
    # rank 2 is killed at 0.3 s, and its replacement again once it has
    # seen the result of the first round
    run "$W/out" "$W/err" -np 4 --comm-mode=rebuild --kill 2@0.3 --kill-at recovered=1@2 \
        --event-log "$W/log" "$PROG" recover 2
    [ $RC -eq 0 ] || fail "exit $RC"
    grep -q "^restarted rank 2 inc 1 gen 0" "$W/out" || fail "first replacement"
    grep -q "^restarted rank 2 inc 2 gen 1" "$W/out" || fail "second replacement"
    same_recovery 1 4 "$W/out"
    same_recovery 2 4 "$W/out"
    grep "gen=2 " "$W/out" | head -1 | grep -q "2:1:[0-9]*:2" || fail "incarnation 2 not in the result"
    [ "$(count '"event":"replaced"' "$W/log")" -eq 2 ] || fail "replaced events"
    ok ;;
recovery)
    for n in 2 8; do
        run "$W/out" "$W/err" -np $n --comm-mode=shrink --kill 1@0.3 "$PROG" recover 1
        [ $RC -eq 0 ] || fail "np $n: exit $RC"
        same_recovery 1 $((n - 1)) "$W/out"
        grep -q "gen=1 size=$n failed=1 " "$W/out" || fail "np $n: failed list"
    done
    ok ;;
recovery_during)
    # rank 0 joins 1 s late; rank 1 is killed right after it joined, while
    # the round waits for rank 0
    RT_JOIN_DELAY_MS=1000 run "$W/out" "$W/err" -np 4 --comm-mode=rebuild --kill 2@0.3 \
        --kill-at joined=0@1 --event-log "$W/log" "$PROG" recover 1
    [ $RC -eq 0 ] || fail "exit $RC"
    same_recovery 1 4 "$W/out"
    grep -q "gen=1 size=4 failed=1,2 " "$W/out" || fail "both failures in one round"
    [ "$(count '"event":"recovery_end"' "$W/log")" -eq 1 ] || fail "one round expected"
    # the same under SHRINK: no replacement, the dead one is not waited for
    RT_JOIN_DELAY_MS=1000 run "$W/out" "$W/err" -np 4 --comm-mode=shrink --kill 2@0.3 \
        --kill-at joined=0@1 "$PROG" recover 1
    [ $RC -eq 0 ] || fail "shrink: exit $RC"
    same_recovery 1 2 "$W/out"
    ok ;;
eventlog)
    run "$W/out" "$W/err" -np 3 --comm-mode=rebuild --kill 1@0.3 --event-log "$W/log" "$PROG" recover 1
    [ $RC -eq 0 ] || fail "exit $RC"
    for e in launch proc_start proc_exit proc_failed replaced recovery_start recovery_end job_end kill; do
        grep -q "\"event\":\"$e\"" "$W/log" || fail "no $e event"
    done
    if command -v python3 >/dev/null 2>&1; then
        python3 -c '
import json, sys
last = -1.0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert isinstance(o["t"], float) and o["t"] >= last, line
    assert isinstance(o["event"], str)
    last = o["t"]
' "$W/log" || fail "event log is not valid JSON lines"
    fi
    run "$W/out" "$W/err" -np 2 --kill 0@0.2 --event-log "$W/log" "$PROG" hang
    [ $RC -eq 137 ] || fail "ABORT after a kill: exit $RC, expected 137"
    grep -q '"event":"abort"' "$W/log" || fail "no abort event"
    ok ;;
signal)
    for s in TERM INT HUP; do
        "$RUN" -np 3 "$PROG" hang >"$W/out" 2>"$W/err" &
        pid=$!
        i=0
        while [ "$(count "^pid" "$W/out")" -lt 3 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
        kill -$s $pid
        wait $pid; rc=$?
        case $s in TERM) want=143 ;; INT) want=130 ;; HUP) want=129 ;; esac
        [ $rc -eq $want ] || fail "SIG$s: exit $rc, expected $want"
        no_leftovers "$W/out"
    done
    # ftmpirun itself SIGKILLed: the ranks die with it (PR_SET_PDEATHSIG)
    "$RUN" -np 3 "$PROG" hang >"$W/out" 2>"$W/err" &
    pid=$!
    i=0
    while [ "$(count "^pid" "$W/out")" -lt 3 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    kill -KILL $pid; wait $pid
    no_leftovers "$W/out" 2
    ok ;;
singleton)
    env -u FTMPI_CTL_FD "$PROG" singleton >"$W/out" 2>&1 || fail "singleton"
    grep -q "singleton ok" "$W/out" || fail "output"
    ok ;;
plain)
    run "$W/out" "$W/err" -np 2 sh -c 'exit 3'; [ $RC -eq 3 ] || fail "sh exit 3 gave $RC"
    d=$(dirname "$PROG"); b=$(basename "$PROG")
    (cd "$d" && "$RUN" -np 2 "./$b" echo) >"$W/out" 2>/dev/null || fail "./prog"
    [ "$(count "hello from rank" "$W/out")" -eq 2 ] || fail "./prog output"
    run "$W/out" "$W/err" -np 2 echo a b; [ "$(count "^a b$" "$W/out")" -eq 2 ] || fail "PATH lookup"
    ok ;;
no_program)
    run "$W/out" "$W/err" -np 2 /nonexistent/prog; [ $RC -eq 127 ] || fail "exit $RC"
    grep -q "nonexistent" "$W/err" || fail "message"
    run "$W/out" "$W/err" -np 2 no-such-program-xyz; [ $RC -eq 127 ] || fail "PATH: exit $RC"
    run "$W/out" "$W/err" -np 2 /tmp; [ $RC -eq 127 ] || fail "directory: exit $RC"
    ok ;;
startup)
    best=99
    for i in 1 2 3; do
        t0=$(now); "$RUN" -np 8 "$PROG" exit 0 >/dev/null 2>&1 || fail "run"; t1=$(now)
        e=$(elapsed "$t0" "$t1"); lt "$e" "$best" && best=$e
    done
    lt "$best" 3 || fail "8 ranks took $best s"
    ok "np 8 init+fence+finalize in $best s" ;;
multihost)
    # Host 0 is served in-process, host 1 by an ftmpid started through the
    # launch agent (here: run the command on this machine).
    export FTMPI_HEAD_ADDRESS=127.0.0.1
    H="--hosts localhost:2,h1:2 --launch-agent {cmd}"
    # shellcheck disable=SC2086
    run "$W/out" "$W/err" $H -np 4 "$PROG" kv
    [ $RC -eq 0 ] || fail "kv: exit $RC"
    [ "$(count "^kv ok" "$W/out")" -eq 4 ] || fail "kv results"
    # shellcheck disable=SC2086
    run "$W/out" "$W/err" $H -np 4 --tag-output "$PROG" echo
    grep -qx "\[3\] hello from rank 3" "$W/out" || fail "remote output"
    grep -qx "\[2\] err line 2" "$W/err" || fail "remote stderr"
    # shellcheck disable=SC2086
    run "$W/out" "$W/err" $H -np 4 --comm-mode=rebuild --kill 3@0.3 "$PROG" recover 1
    [ $RC -eq 0 ] || fail "rebuild: exit $RC"
    same_recovery 1 4 "$W/out"
    grep -q "^restarted rank 3 inc 1" "$W/out" || fail "remote replacement"
    # shellcheck disable=SC2086
    run "$W/out" "$W/err" $H -np 4 --kill 2@0.3 "$PROG" hang
    [ $RC -eq 137 ] || fail "abort: exit $RC"
    grep -q "rank 2 .*host h1) killed by signal 9" "$W/err" || fail "abort message"
    no_leftovers "$W/out" 1
    # shellcheck disable=SC2086
    run "$W/out" "$W/err" --hosts h0,h1 --launch-agent {cmd} -np 3 "$PROG" exit 4
    [ $RC -eq 4 ] || fail "two remote hosts: exit $RC"
    run "$W/out" "$W/err" --hosts localhost,h1 --launch-agent false -np 2 true
    [ $RC -ne 0 ] || fail "failed agent: exit 0"
    grep -q "launch agent for host h1" "$W/err" || fail "failed agent message"
    ok ;;
host_lost)
    export FTMPI_HEAD_ADDRESS=127.0.0.1
    "$RUN" --hosts localhost:2,h1:2 --launch-agent {cmd} -np 4 --comm-mode=shrink \
        "$PROG" events 2 >"$W/out" 2>"$W/err" &
    pid=$!
    i=0
    while [ "$(count "^pid" "$W/out")" -lt 4 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    d=$(sed -n 's/^pid [0-9]* rank [0-9]* ppid \([0-9]*\) host 1$/\1/p' "$W/out" | head -1)
    [ -n "$d" ] || fail "no rank on host 1"
    kill -KILL "$d"
    wait $pid; rc=$?
    [ $rc -ne 0 ] || fail "exit 0 after losing a host"
    grep -q "lost the daemon of host h1" "$W/err" || fail "message"
    [ "$(count "failure of" "$W/out")" -eq 4 ] || fail "survivors not told"
    no_leftovers "$W/out" 2
    ok ;;
hostfile)
    # Open MPI syntax: comments, slots=N, max_slots ignored with a note;
    # without -np one rank per slot.
    export FTMPI_HEAD_ADDRESS=127.0.0.1
    printf '# two hosts\nlocalhost slots=2 max_slots=4  # this one\n\nh1 slots=3\n' >"$W/hf"
    run "$W/out" "$W/err" --hostfile "$W/hf" --launch-agent {cmd} "$PROG" kv
    [ $RC -eq 0 ] || fail "exit $RC"
    [ "$(count "^kv ok" "$W/out")" -eq 5 ] || fail "expected 5 ranks (2 + 3 slots)"
    grep -q "note: hostfile $W/hf, line 2: max_slots is ignored" "$W/err" || fail "no max_slots note"
    run "$W/out" "$W/err" --hostfile "$W/hf" --launch-agent {cmd} -np 4 --tag-output "$PROG" secret
    [ $RC -eq 0 ] || fail "secret: exit $RC"
    grep -q "^\[3\] secret rank 3: ok hosts 0 0 1 1$" "$W/out" || fail "placement by slots"
    ok ;;
hostof)
    # $PROG is rt_hostof here: FTMPI_Host_of now and at launch, errors
    export FTMPI_HEAD_ADDRESS=127.0.0.1
    run "$W/out" "$W/err" --hosts localhost:2,h1:2 --launch-agent {cmd} -np 4 "$PROG"
    [ $RC -eq 0 ] || fail "exit $RC"
    [ "$(grep -c '^hostof rank [0-3]: 0/0 0/0 1/1 1/1 errors ok$' "$W/out")" -eq 4 ] || fail "host table"
    ok ;;
stopped)
    # A rank SIGSTOPped for the heartbeat timeout is killed and fails.
    "$RUN" --timeout 45 --heartbeat-interval 0.1 --heartbeat-timeout 0.5 -np 4 \
        --comm-mode=shrink "$PROG" events 1 >"$W/out" 2>"$W/err" &
    pid=$!
    i=0
    while [ "$(count "^pid" "$W/out")" -lt 4 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    v=$(sed -n 's/^pid \([0-9]*\) rank 2 .*/\1/p' "$W/out")
    [ -n "$v" ] || fail "rank 2 did not start"
    t0=$(now); kill -STOP "$v"
    wait $pid; rc=$?; t1=$(now)
    [ $rc -eq 137 ] || fail "exit $rc (expected 137: rank 2 killed, not recovered)"
    grep -q "rank 2 (pid $v) stopped for 0.5 s: killing it" "$W/err" || fail "no stop message"
    [ "$(count "failure of 2 sig 9" "$W/out")" -eq 3 ] || fail "survivors not told"
    lt 0.5 "$(elapsed "$t0" "$t1")" || fail "killed before the timeout"
    ok "detected in $(elapsed "$t0" "$t1") s" ;;
*)
    echo "unknown test $T"; exit 2 ;;
esac
