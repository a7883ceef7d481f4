#!/bin/sh
# api_check.sh PYTHON BINDINGS_DIR MPI_H_PREPROCESSED INCLUDE_DIR: the build's
# mpi.h/mpi.api check (gen.py check) passes on the real header and fails,
# naming the function, when
#   1. mpi.h declares a function that mpi.api lacks,
#   2. mpi.api describes a function that mpi.h lacks,
#   3. they disagree on a parameter's type,
#   4. mpi.h defines a constant that mpi.api lacks.
set -eu
py=$1 dir=$2 pre=$3 inc=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen="$dir/gen.py"
api="$dir/mpi.api"
"$py" "$gen" check "$api" "$pre" "$inc/mpi.h" "$inc/ftmpi.h" "$tmp/stamp" ||
  { echo "api_check: the check fails on the real mpi.h"; exit 1; }
expect_fail() { # WHAT PATTERN API PRE MPI_H
  if "$py" "$gen" check "$3" "$4" "$5" "$inc/ftmpi.h" "$tmp/stamp" > "$tmp/out" 2>&1; then
    echo "api_check: $1: the check passed"; exit 1
  fi
  grep -q "$2" "$tmp/out" || { echo "api_check: $1: no message naming $2:"; cat "$tmp/out"; exit 1; }
  echo "api_check: $1: $(head -1 "$tmp/out")"
}
# 1. a function only mpi.h has
{ cat "$pre"; echo "int MPI_Frobnicate(MPI_Comm comm, int n);"; } > "$tmp/extra.i"
expect_fail "function only in mpi.h" MPI_Frobnicate "$api" "$tmp/extra.i" "$inc/mpi.h"
# 2. a function only mpi.api has
{ cat "$api"; echo "chapter 99 test Test"; echo "fn Frobnicate(comm Comm)"; } > "$tmp/extra.api"
expect_fail "function only in mpi.api" MPI_Frobnicate "$tmp/extra.api" "$pre" "$inc/mpi.h"
# 3. a parameter of another type (MPI_Send's count as MPI_Aint)
sed 's/int MPI_Send *( *const void \*buf, int count/int MPI_Send(const void *buf, MPI_Aint count/' \
  "$pre" > "$tmp/param.i"
cmp -s "$pre" "$tmp/param.i" && { echo "api_check: could not change MPI_Send in $pre"; exit 1; }
expect_fail "parameter type" MPI_Send "$api" "$tmp/param.i" "$inc/mpi.h"
# 4. a constant only mpi.h has
{ cat "$inc/mpi.h"; echo "#define MPI_FROBNICATE 7"; } > "$tmp/const.h"
expect_fail "constant only in mpi.h" MPI_FROBNICATE "$api" "$pre" "$tmp/const.h"
echo "api_check: ok"
