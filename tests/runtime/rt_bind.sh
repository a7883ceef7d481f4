#!/bin/sh
# rt_bind.sh FTMPIRUN RT_BIND: ftmpirun's binding (docs/runtime.md,
# "Binding"):
#  - bad --bind-to values and a bad FTMPI_BIND_TO exit 2 with a message and
#    start nothing;
#  - every --report-bindings line ("ftmpirun: binding: host H rank R pid P
#    cpus LIST (bound|not bound)") names the mask that process finds with
#    sched_getaffinity, under core, none and auto;
#  - under core with no more ranks than CPUs, each rank has its own CPU;
#  - REBUILD: the replacement of a SIGKILLed rank runs on the dead rank's
#    CPU, and the survivors' masks are unchanged after the recovery (also
#    under SHRINK).
# Binding claims CPUs host-wide (/dev/shm/ftmpi-cpus-UID): another job
# running at the same moment may hold them, so the checks that need free
# CPUs use --bind-to core, which binds whatever other jobs hold.
set -u
RUN=$1
PROG=$2
W=$(mktemp -d "${TMPDIR:-/tmp}/rt-bind.XXXXXX")
trap 'rm -rf "$W"' EXIT
NCPU=$(nproc)
n=0
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$W/out"; echo "--- stderr"; cat "$W/err"; exit 1; }

# bad MESSAGE_RE ARGS...: exits 2, says MESSAGE_RE, starts nothing
bad() {
    re=$1; shift
    "$RUN" "$@" sh -c "touch '$W/started'" >"$W/out" 2>"$W/err"; rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, want 2"
    grep -Eq "^ftmpirun: .*$re" "$W/err" || fail "'$*': no message matching '$re'"
    [ ! -e "$W/started" ] || fail "'$*' started the job"
    n=$((n + 1))
}
bad "bad --bind-to 'socket' \\(core, none or auto\\)" --bind-to socket -np 2
bad "bad --bind-to '' " --bind-to= -np 2
bad "option '--report-bindings' takes no value" --report-bindings=yes -np 2
FTMPI_BIND_TO=cores bad "invalid value 'cores' in environment variable FTMPI_BIND_TO" -np 2
unset FTMPI_BIND_TO

# job NP ARGS...: run rt_bind with --report-bindings; fail unless it exits 0
job() {
    np=$1; shift
    "$RUN" --timeout 60 --report-bindings -np "$np" "$@" "$PROG" >"$W/out" 2>"$W/err"; rc=$?
    [ $rc -eq 0 ] || fail "'$*' -np $np exited $rc"
}

# reports_match KIND: one report per "affinity" line, with the same cpus;
# KIND (bound, not bound, any) is what every report must say
reports_match() {
    kind=$1
    nrep=$(grep -c '^ftmpirun: binding: ' "$W/err")
    naff=$(grep -c '^affinity rank ' "$W/out")
    if [ "$nrep" -ne "$naff" ] || [ "$nrep" -eq 0 ]; then fail "$nrep reports for $naff processes"; fi
    grep '^affinity rank ' "$W/out" | while read -r _ _ r _ pid _ cpus; do
        line=$(grep "^ftmpirun: binding: host [0-9]* rank $r pid $pid cpus " "$W/err")
        [ -n "$line" ] || { echo "FAIL: no report for rank $r pid $pid"; exit 1; }
        got=$(echo "$line" | sed 's/.* cpus \([^ ]*\) (.*/\1/')
        [ "$got" = "$cpus" ] || { echo "FAIL: rank $r: report says cpus $got, the rank has $cpus"; exit 1; }
        case $kind in
        any) ;;
        *) echo "$line" | grep -q "($kind)\$" || { echo "FAIL: rank $r: '$line' is not ($kind)"; exit 1; } ;;
        esac
    done || fail "reports and masks differ"
    n=$((n + 1))
}

# core: one CPU each, distinct while there are CPUs for all
np=$NCPU; [ "$np" -gt 4 ] && np=4
job "$np" --bind-to core
reports_match bound
grep '^affinity rank ' "$W/out" | awk '{print $NF}' | grep -q ',\|-' && fail "a bound rank has several CPUs"
[ "$(grep '^affinity rank ' "$W/out" | awk '{print $NF}' | sort -u | wc -l)" -eq "$np" ] ||
    fail "-np $np on $NCPU CPUs: ranks share a CPU"
# core with more ranks than CPUs: still one CPU each, shared round-robin
job $((NCPU + 1)) --bind-to core
reports_match bound
# none and FTMPI_BIND_TO=none: the launcher's mask, unchanged
job 2 --bind-to none
reports_match "not bound"
FTMPI_BIND_TO=none job 2
unset FTMPI_BIND_TO
reports_match "not bound"
# auto: more ranks than CPUs are never bound; otherwise bound or not (another
# job may hold the CPUs), and the report says which
job $((NCPU + 1))
reports_match "not bound"
job 1
reports_match any

# REBUILD: the replacement gets the dead rank's CPU; nobody else moves
BIND_VICTIM=1 job 3 --bind-to core --comm-mode=rebuild -x BIND_VICTIM
reports_match bound # the victim and its replacement both report
[ "$(grep -c '^ftmpirun: binding: host 0 rank 1 ' "$W/err")" -eq 2 ] || fail "rank 1 was not started again"
c1=$(grep '^ftmpirun: binding: host 0 rank 1 ' "$W/err" | sed 's/.* cpus \([^ ]*\) (.*/\1/' | sort -u)
[ "$(echo "$c1" | wc -l)" -eq 1 ] || fail "the replacement of rank 1 is on cpus $(echo "$c1" | tr '\n' ' '), not the dead rank's"
[ "$(grep -c '^rank [0-2]: ok$' "$W/out")" -eq 3 ] || fail "not every rank said ok"
r1=$(grep '^affinity-after rank 1 ' "$W/out" | awk '{print $NF}')
[ "$r1" = "$c1" ] || fail "the replacement runs on cpus '$r1', its report said $c1"
n=$((n + 1))
# SHRINK: the survivors keep their CPUs
BIND_VICTIM=1 job 3 --bind-to core --comm-mode=shrink -x BIND_VICTIM
[ "$(grep -c '^rank [01]: ok$' "$W/out")" -eq 2 ] || fail "the survivors did not say ok"
n=$((n + 1))
echo "rt_bind: $n checks passed"
