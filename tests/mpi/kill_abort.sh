#!/bin/sh
# kill_abort.sh MPIRUN PROG: under the default ABORT mode, a rank killed
# with SIGKILL must end the whole job quickly, with a non-zero exit status
# and a message naming the rank and the signal, and no process of the job
# (ranks, daemon) may be left behind. Two ways to kill rank 1 of 4:
#   raise     the rank raises SIGKILL itself after a barrier
#   launcher  mpirun --kill 1@1.5 while every rank loops on Allreduce
#             (1.5 s: time for the 4 ranks to start even when slowed down by
#             a sanitizer build and a busy machine; they must have printed
#             their pids first)
set -u
RUN=$1
PROG=$2
W=$(mktemp -d "${TMPDIR:-/tmp}/kill_abort.XXXXXX")
trap 'rm -rf "$W"' EXIT
MARK="kill_abort_$$_$(date +%s%N)"
MAX_SECONDS=5

fail() {
    echo "FAIL [kill_abort $CASE]: $*"
    for f in "$W"/out "$W"/err; do [ -f "$f" ] && { echo "--- $f"; head -c 3000 "$f"; }; done
    exit 1
}
now() { date +%s.%N; }

# Is pid alive? (a zombie counts as gone)
alive() {
    st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    case $st in Z*|"") return 1 ;; esac
    return 0
}

# Processes whose environment carries this run's marker (ours only).
marked() {
    grep -lzx "FTMPI_TEST_MARKER=$MARK" /proc/[0-9]*/environ 2>/dev/null |
        sed 's|^/proc/\([0-9]*\)/environ$|\1|' | grep -vx "$$"
}

check_case() {
    CASE=$1; shift
    t0=$(now)
    env FTMPI_TEST_MARKER="$MARK" "$RUN" --timeout 30 "$@" >"$W/out" 2>"$W/err"
    rc=$?
    t1=$(now)
    el=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    [ "$rc" -ne 0 ] || fail "exit status 0 after a rank was killed"
    [ "$rc" -ne 124 ] || fail "the job hung until --timeout (exit 124)"
    awk -v e="$el" -v m="$MAX_SECONDS" 'BEGIN { exit !(e < m) }' ||
        fail "the job took $el s to end (limit $MAX_SECONDS s)"
    n=$(grep -c '^pid [0-9]* rank ' "$W/out")
    [ "$n" -eq 4 ] || fail "expected 4 ranks to start, saw $n"
    grep -q 'rank 1' "$W/err" || fail "no message naming rank 1 on stderr"
    grep -Eqi 'SIGKILL|signal 9' "$W/err" || fail "the message does not name the signal"
    grep -Eq 'rank [023] .*(killed by|exited with)' "$W/err" &&
        fail "a surviving rank is reported as the failed one"
    # no process left: the ranks' pids, then anything with our marker
    for p in $(sed -n 's/^pid \([0-9]*\) rank .*/\1/p' "$W/out"); do
        i=0
        while alive "$p" && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
        alive "$p" && { ps -o pid,stat,cmd -p "$p"; fail "rank process $p is still there"; }
    done
    i=0
    left=$(marked)
    while [ -n "$left" ] && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); left=$(marked); done
    [ -z "$left" ] || { ps -o pid,stat,cmd -p "$(echo $left | tr ' ' ,)"; fail "processes left behind: $left"; }
    echo "PASS [kill_abort $CASE]: exit $rc after $el s: $(head -n 1 "$W/err")"
}

check_case raise -np 4 "$PROG" raise
check_case launcher --kill 1@1.5 -np 4 "$PROG" loop
exit 0
