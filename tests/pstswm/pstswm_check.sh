#!/bin/sh
# pstswm_check.sh: checks of pstswm's JSON report (tests/pstswm/CMakeLists.txt).
#
#   pstswm_check.sh bound KEY MAX [KEY MAX ...] -- CMD...
#       CMD must exit 0 and print "KEY": V with |V| <= MAX for every pair
#       (a null or missing value fails).
#   pstswm_check.sh restart KEY -- FULL_CMD... -- FIRST_CMD... -- SECOND_CMD...
#       the full run, then the same run in two parts (the second starts from
#       the first one's restart files): all exit 0, the full run and the
#       second part print the same "KEY": "VALUE".
# Every output is shown, so a failing test explains itself.
set -u
mode=$1; shift
json_val() { # KEY TEXT -> the value (number, string without quotes, null)
    printf '%s\n' "$2" | grep -Eo "\"$1\": (\"[^\"]*\"|[^,}]+)" | head -n 1 |
        sed -e "s/^\"$1\": //" -e 's/"//g'
}
case $mode in
bound)
    pairs=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do pairs="$pairs $1=$2"; shift 2; done
    shift
    echo "== $*"
    out=$("$@" 2>&1); rc=$?
    printf '%s\n' "$out"
    [ $rc -eq 0 ] || { echo "pstswm_check: exit status $rc"; exit 1; }
    for p in $pairs; do
        k=${p%%=*}; max=${p#*=}
        v=$(json_val "$k" "$out")
        awk -v v="$v" -v m="$max" 'BEGIN { if (v == "" || v == "null") exit 1;
            a = v + 0; if (a < 0) a = -a; exit !(a <= m + 0) }' ||
            { echo "pstswm_check: $k = '$v', want |$k| <= $max"; exit 1; }
        echo "pstswm_check: $k = $v (bound $max)"
    done
    ;;
restart)
    key=$1; shift 2
    c1=""; while [ "$1" != "--" ]; do c1="$c1 '$1'"; shift; done; shift
    c2=""; while [ "$1" != "--" ]; do c2="$c2 '$1'"; shift; done; shift
    for c in "$c1" "$c2"; do
        echo "== $c"
        out=$(eval "$c" 2>&1); rc=$?
        printf '%s\n' "$out"
        [ $rc -eq 0 ] || { echo "pstswm_check: exit status $rc"; exit 1; }
        [ "$c" = "$c1" ] && v1=$(json_val "$key" "$out")
    done
    echo "== $*"
    out=$("$@" 2>&1); rc=$?
    printf '%s\n' "$out"
    [ $rc -eq 0 ] || { echo "pstswm_check: exit status $rc"; exit 1; }
    v2=$(json_val "$key" "$out")
    [ -n "$v1" ] && [ "$v1" = "$v2" ] ||
        { echo "pstswm_check: DIFFERENT $key: restarted '$v2' vs full run '$v1'"; exit 1; }
    echo "pstswm_check: identical $key ($v1)"
    ;;
*)
    echo "usage: pstswm_check.sh bound|restart ..." >&2; exit 2 ;;
esac
exit 0
