#!/bin/sh
# ckpt_ft_check.sh: runs the real-kill tests of tests/ckpt_ft (CMakeLists.txt).
#
#   ckpt_ft_check.sh same VALUE_RE RECOVERIES_RE -- REF_CMD... -- FAIL_CMD...
#       runs the failure-free command, then the one with killed ranks; both
#       must exit 0, print the same value (first match of the extended
#       regular expression VALUE_RE: a solution checksum, a sum in hex), and
#       the failing run must match RECOVERIES_RE (how many recoveries).
#   ckpt_ft_check.sh fails WANT_RC MESSAGE_RE -- CMD...
#       the command must exit with status WANT_RC and print MESSAGE_RE.
#   ckpt_ft_check.sh fails-n N WANT_RC MESSAGE_RE -- CMD...
#       the same, N runs in a row (a message that shows only sometimes fails).
# Every output is shown, so a failing test explains itself.
set -u
mode=$1; shift
case $mode in
same)
    value_re=$1; rec_re=$2; shift 3
    ref=""; while [ $# -gt 0 ] && [ "$1" != "--" ]; do ref="$ref '$1'"; shift; done
    shift
    echo "== failure-free: $ref"
    out_ref=$(eval "$ref" 2>&1); rc_ref=$?
    printf '%s\n' "$out_ref"
    echo "== with failures: $*"
    out=$("$@" 2>&1); rc=$?
    printf '%s\n' "$out"
    [ $rc_ref -eq 0 ] || { echo "ckpt_ft_check: the failure-free run exited $rc_ref"; exit 1; }
    [ $rc -eq 0 ] || { echo "ckpt_ft_check: the run with failures exited $rc"; exit 1; }
    v_ref=$(printf '%s\n' "$out_ref" | grep -Eo "$value_re" | head -n 1)
    v=$(printf '%s\n' "$out" | grep -Eo "$value_re" | head -n 1)
    [ -n "$v_ref" ] || { echo "ckpt_ft_check: no '$value_re' in the failure-free output"; exit 1; }
    [ "$v" = "$v_ref" ] || { echo "ckpt_ft_check: DIFFERENT: '$v' vs failure-free '$v_ref'"; exit 1; }
    printf '%s\n' "$out" | grep -Eq "$rec_re" ||
        { echo "ckpt_ft_check: the run with failures does not show '$rec_re'"; exit 1; }
    echo "ckpt_ft_check: identical ($v)"
    ;;
fails|fails-n)
    runs=1
    if [ "$mode" = fails-n ]; then runs=$1; shift; fi
    want=$1; msg_re=$2; shift 3
    i=1
    while [ $i -le "$runs" ]; do
        echo "== run $i of $runs, expected to fail with status $want: $*"
        out=$("$@" 2>&1); rc=$?
        printf '%s\n' "$out"
        [ $rc -eq "$want" ] || { echo "ckpt_ft_check: run $i: exit status $rc, want $want"; exit 1; }
        printf '%s\n' "$out" | grep -Eq "$msg_re" ||
            { echo "ckpt_ft_check: run $i: no message matching '$msg_re'"; exit 1; }
        i=$((i + 1))
    done
    echo "ckpt_ft_check: failed as expected ($runs run(s))"
    ;;
*)
    echo "usage: ckpt_ft_check.sh same|fails|fails-n ..." >&2; exit 2 ;;
esac
exit 0
