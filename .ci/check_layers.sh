#!/usr/bin/env bash
# check_layers.sh: no file of a lower layer includes a header of a higher one.
#
# The layers of ftmpi/, lowest first (docs/ftmpi.md, "How it works"):
#
#   0 util/         lists, handles, futex, timers
#   1 transport/    the transport interface, shared memory, TCP
#   2 core/         objects and the process state (core/proc.h)
#   2 runtime/      the daemon client and its wire protocol
#                   (core and runtime serve every layer above the transport)
#   3 p2p/          matching, protocols, progress
#   4 coll/         collectives
#   4 rma/          one-sided communication (windows): beside coll, may use it
#   4 io/           MPI-IO (files, views, POSIX I/O): beside coll and rma,
#                   uses coll for its collective steps
#   5 ft/           failure handling and recovery: it drives p2p (fails and
#                   drops pending traffic) and the communicators, and wraps
#                   collectives at the API edge; nothing below calls it
#   6 api/          the MPI_ entry points
#   6 runtime/init.{c,h}  library start-up: brings every layer up, so it sits
#                   at the top with the API that calls it (MPI_Init)
#   - include/      mpi.h and ftmpi.h: the public interface, usable anywhere
#   - bindings/     the Fortran bindings (libftmpi_f), above the library: they
#                   call the MPI C interface only, so they may include
#                   include/ and each other, and no library file theirs
#
# A file may include headers of its own layer and of layers below it.
# The programs runtime/daemon/, runtime/launcher/ and runtime/monitor/ (ftmpid, ftmpirun) are
# outside the library: they may include only util/, each other, the wire
# protocol (runtime/proto.h, evloop.h, link.h) and the layout of the host
# segment that the daemon creates (transport/shm/shm_seg.h); no library file
# may include theirs.
#
#   bash .ci/check_layers.sh [SOURCE_ROOT]     exit 0: clean, 1: violations
set -euo pipefail

root=${1:-"$(dirname "${BASH_SOURCE[0]}")/.."}
cd "$root"

# layer PATH (relative to ftmpi/): sets L to the rank, "pub", "prog" or "?".
layer() {
    case "$1" in
        include/*) L=pub ;;
        util/*) L=0 ;;
        transport/*) L=1 ;;
        core/*) L=2 ;;
        runtime/daemon/*|runtime/launcher/*|runtime/monitor/*) L=prog ;;
        bindings/*|trace/*) L=bind ;; # trace/: libftmpi_trace, MPI calls only
        runtime/init.c|runtime/init.h) L=6 ;;
        runtime/*) L=2 ;;
        p2p/*) L=3 ;;
        coll/*) L=4 ;;
        rma/*) L=4 ;;
        io/*) L=4 ;;
        ft/*) L=5 ;;
        api/*) L=6 ;;
        *) L='?' ;;
    esac
}

# What a program may include.
prog_may_include() {
    case "$1" in
        util/*|runtime/daemon/*|runtime/launcher/*|runtime/monitor/*) return 0 ;;
        runtime/proto.h|runtime/evloop.h|runtime/link.h) return 0 ;;
        transport/shm/shm_seg.h) return 0 ;;
        include/*) return 0 ;;
    esac
    return 1
}

# normalize PATH: sets N to PATH without "." and "dir/.." parts.
normalize() {
    local IFS=/ part out=()
    for part in $1; do
        case "$part" in
            ''|.) ;;
            ..) [ "${#out[@]}" -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
            *) out+=("$part") ;;
        esac
    done
    N="${out[*]}"
}

# resolve FILE INCLUDED: sets R to the included file's path relative to
# ftmpi/, or to nothing if it is not a file of ftmpi/ (a system header).
resolve() {
    local cand
    R=
    for cand in "${1%/*}/$2" "ftmpi/$2" "ftmpi/include/$2" "ftmpi/include/$2.in"; do
        if [ -f "$cand" ]; then
            normalize "$cand"
            N=${N#ftmpi/}
            R=${N%.in}
            return
        fi
    done
}

status=0
nfiles=0
current=
while IFS= read -r hit; do
    f=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    inc=${rest#*:}
    inc=${inc#*\"}
    inc=${inc%%\"*}
    rel=${f#ftmpi/}
    layer "$rel"
    from=$L
    if [ "$f" != "$current" ]; then
        current=$f
        nfiles=$((nfiles + 1))
        if [ "$from" = '?' ]; then
            echo "$f: not in any layer (add its directory to .ci/check_layers.sh)"
            status=1
        fi
    fi
    [ "$from" != '?' ] || continue
    resolve "$f" "$inc"
    [ -n "$R" ] || continue
    layer "$R"
    to=$L
    ok=1
    if [ "$from" = prog ]; then
        prog_may_include "$R" || ok=0
    elif [ "$from" = bind ]; then
        [ "$to" = pub ] || [ "$to" = bind ] || ok=0
    elif [ "$to" = prog ] || [ "$to" = bind ] || [ "$to" = '?' ]; then
        ok=0
    elif [ "$from" = pub ]; then
        [ "$to" = pub ] || ok=0
    elif [ "$to" != pub ] && [ "$to" -gt "$from" ]; then
        ok=0
    fi
    if [ "$ok" = 0 ]; then
        echo "$f:$line: includes $R (layer $to) from layer $from"
        status=1
    fi
done < <(find ftmpi -type f \( -name '*.c' -o -name '*.h' -o -name '*.h.in' \) -print0 | sort -z |
         xargs -0 grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"')

if [ "$nfiles" -eq 0 ]; then
    echo "check_layers: no sources found under $(pwd)/ftmpi"
    exit 1
fi
if [ "$status" = 0 ]; then
    echo "check_layers: $nfiles files with includes, every include goes down or sideways"
fi
exit "$status"
