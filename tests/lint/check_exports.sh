#!/bin/sh
# check_exports.sh NM LIBRARY HEADER...: the shared library exports the MPI
# interface and nothing else (docs/ftmpi.md, "Symbols").
#
# Fails when a defined dynamic symbol of LIBRARY is not
#   - an MPI_, PMPI_, MPIX_, PMPIX_, FTMPI_ or PFTMPI_ name, or
#   - data that one of the HEADERs declares `extern` (the mpi.h sentinels);
# when one of the expected public functions below is missing; when an
# exported MPI_ (MPIX_) function has no PMPI_ (PMPIX_) twin (profiling interface; the
# predefined attribute callbacks MPI_*_FN have none); and when the library
# exports fewer than 400 names (the interface as a whole went missing).
set -eu

NM=$1
LIB=$2
shift 2

tmp=${TMPDIR:-/tmp}/check_exports.$$
trap 'rm -f "$tmp".*' EXIT

"$NM" -D --defined-only "$LIB" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp.syms"

# Data the public headers declare: `extern T a, b;` gives a and b.
awk '/^extern / && !/^extern "C"/ {
        sub(/;.*/, ""); sub(/^extern +/, "")
        n = split($0, part, ",")
        for (i = 1; i <= n; i++) {
            w = part[i]; gsub(/[*]/, " ", w)
            m = split(w, word, " ")
            print word[m]
        }
     }' "$@" | sort -u > "$tmp.data"

bad=0
while read -r s; do
    case "$s" in
        MPI_*|PMPI_*|MPIX_*|PMPIX_*|FTMPI_*|PFTMPI_*) continue ;;
        # AddressSanitizer's one-definition-rule indicator of an exported
        # global (only in FTMPI_SANITIZE=address builds): not a name of ours
        __odr_asan.*) continue ;;
    esac
    if ! grep -qx "$s" "$tmp.data"; then
        echo "check_exports: $LIB exports an internal name: $s"
        bad=1
    fi
done < "$tmp.syms"

for s in MPI_Init PMPI_Init MPI_Init_thread MPI_Finalize PMPI_Finalize \
         MPI_Comm_rank PMPI_Comm_rank MPI_Comm_size MPI_Comm_dup PMPI_Comm_dup \
         MPI_Send PMPI_Send MPI_Recv PMPI_Recv MPI_Isend MPI_Irecv MPI_Wait PMPI_Wait \
         MPI_Allreduce PMPI_Allreduce MPI_Reduce_local MPI_Op_create MPI_Wtime \
         MPI_Type_commit MPI_Abort MPI_Comm_set_errhandler \
         FTMPI_Fault_point PFTMPI_Fault_point FTMPI_Host_of PFTMPI_Host_of \
         MPIX_Comm_agree PMPIX_Comm_agree \
         MPIX_Comm_shrink PMPIX_Comm_shrink MPIX_Comm_revoke PMPIX_Comm_revoke \
         $(cat "$tmp.data"); do
    if ! grep -qx "$s" "$tmp.syms"; then
        echo "check_exports: $LIB does not export $s"
        bad=1
    fi
done

while read -r s; do
    case "$s" in
        MPI_*_FN) continue ;;
        MPI_*|MPIX_*) grep -qx "P$s" "$tmp.syms" || { echo "check_exports: $s has no P$s"; bad=1; } ;;
    esac
done < "$tmp.syms"

n=$(wc -l < "$tmp.syms")
if [ "$n" -lt 400 ]; then
    echo "check_exports: only $n exported names"
    bad=1
fi
if [ "$bad" = 0 ]; then
    echo "check_exports: $n names, all public"
fi
exit "$bad"
