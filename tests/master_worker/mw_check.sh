#!/bin/sh
# mw_check.sh KIND MPIRUN PROGRAM NP TASKS MS MIN_FAILURES [launcher options...] [-- program options...]
#
# Runs PROGRAM (the sweep example or mw_test) under MPIRUN with the given
# launcher options (comm mode, --kill, --kill-at ...) and checks the outcome:
#   sweep        exit 0; the sorted output equals a failure-free reference
#                (the same sweep run as a singleton), line for line: every
#                parameter's line once, none twice
#   singleton    the same, PROGRAM started without MPIRUN
#   master-lost  the master was killed: a non-zero exit that is not a
#                timeout, one "single point of failure" message, no line twice,
#                every line a correct one
#   prog         exit 0 and "each result consumed exactly once" (mw_test)
#   user-error   exit 3 and "stopped by a user error" (mw_test --fail-task)
# and that at least MIN_FAILURES processes really failed (--event-log).
# MW_LINGER_S=3 shortens the wait that works around a library issue
# (docs/master_worker.md, "Library issues"). With MW_DEBUG=1 in the
# environment the skeleton traces its messages; MW_KEEP_FAILED=PREFIX keeps
# the stderr and event log of a failed run as PREFIX.<pid>.err/.ev.
kind=$1 mpirun=$2 prog=$3 np=$4 tasks=$5 ms=$6 minfail=$7
shift 7
lopts=""
popts=""
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; popts="$*"; break; fi
    lopts="$lopts $1"
    shift
done
tmp=$(mktemp -d /tmp/mw_check.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "mw_check: FAILED: $*"; echo "--- stderr"; tail -n 40 "$tmp/err"
    echo "--- stdout (first lines)"; head -n 10 "$tmp/out"
    [ -n "$MW_KEEP_FAILED" ] && cp "$tmp/err" "$MW_KEEP_FAILED.$$.err" && cp "$tmp/ev" "$MW_KEEP_FAILED.$$.ev"
    exit 1
}

if [ "$kind" = sweep ] || [ "$kind" = singleton ] || [ "$kind" = master-lost ]; then
    "$prog" --tasks "$tasks" --quiet > "$tmp/ref.raw" || { echo "mw_check: reference run failed (exit $?)"; exit 1; }
    sort "$tmp/ref.raw" > "$tmp/ref"
    [ "$(wc -l < "$tmp/ref")" -eq "$tasks" ] || { echo "mw_check: reference has the wrong length"; exit 1; }
fi
if [ "$kind" = singleton ]; then
    "$prog" --tasks "$tasks" --task-ms "$ms" $popts > "$tmp/out" 2> "$tmp/err"
    rc=$?
    : > "$tmp/ev"
else
    # shellcheck disable=SC2086
    "$mpirun" --timeout 90 --event-log "$tmp/ev" -x MW_LINGER_S=3 ${MW_DEBUG:+-x MW_DEBUG} $lopts -np "$np" "$prog" --tasks "$tasks" --task-ms "$ms" $popts \
        > "$tmp/out" 2> "$tmp/err"
    rc=$?
fi
nfail=$(grep -c '"event":"proc_failed"' "$tmp/ev")
echo "mw_check: $kind, np $np, $tasks tasks:$lopts $popts -> exit $rc, $nfail failed processes, $(wc -l < "$tmp/out") output lines"
[ "$rc" -eq 124 ] && fail "timed out"
[ "$nfail" -ge "$minfail" ] || fail "only $nfail processes failed, the test wants $minfail (the run ended before the kills?)"
case $kind in
sweep|singleton)
    [ "$rc" -eq 0 ] || fail "exit status $rc"
    sort "$tmp/out" > "$tmp/sorted"
    cmp -s "$tmp/sorted" "$tmp/ref" || { diff "$tmp/sorted" "$tmp/ref" | head -n 20; fail "output differs from the failure-free run"; }
    ;;
master-lost)
    [ "$rc" -ne 0 ] || fail "exit status 0 although the master was killed"
    [ "$(grep -c 'single point of failure' "$tmp/err")" -eq 1 ] || fail "want one 'single point of failure' message"
    sort "$tmp/out" > "$tmp/sorted"
    [ -z "$(uniq -d "$tmp/sorted")" ] || fail "a line appears twice"
    [ -z "$(comm -23 "$tmp/sorted" "$tmp/ref")" ] || fail "a line is not in the reference"
    ;;
prog)
    [ "$rc" -eq 0 ] || fail "exit status $rc"
    grep -q 'each result consumed exactly once' "$tmp/out" || fail "no 'exactly once' line"
    ;;
user-error)
    [ "$rc" -eq 3 ] || fail "exit status $rc, want 3"
    grep -q 'stopped by a user error' "$tmp/out" || fail "no 'stopped by a user error' line"
    ;;
*)
    echo "mw_check: unknown kind $kind"; exit 2 ;;
esac
grep -v '^mw: [0-9]*/' "$tmp/err" | grep '^mw:' | head -n 8
echo "mw_check: ok"
exit 0
