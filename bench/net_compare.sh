#!/usr/bin/env bash
# net_compare.sh: the TCP transport against Open MPI's TCP path (and MPICH),
# through bench/compare.sh (interleaved runs, medians, ratios).
#
#   bench/net_compare.sh [BUILD_DIR] [-- compare.sh options...]
#
# Every implementation is forced onto TCP between the ranks of this host:
#   ftmpi    FTMPI_TRANSPORT=tcp (docs/network.md)
#   Open MPI --mca btl tcp,self
#   MPICH    MPIR_CVAR_NOLOCAL=1 / MPIR_CVAR_CH3_NOLOCAL=1 (no shared memory
#            between local ranks: the netmod, over loopback)
# FTMPIRUN_OPTS adds ftmpirun options, e.g. FTMPIRUN_OPTS=--reliability=off.
# Example (the table of docs/network.md):
#   bench/net_compare.sh build -- --bench pingpong --runs 3 -- --max-size 4194304
#   bench/net_compare.sh build -- --bench coll_lat --np 4 --runs 3 -- --ops bcast,allreduce
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$ROOT/build
if [ $# -gt 0 ] && [ "$1" != -- ]; then build=$(cd "$1" && pwd); shift; fi
[ "${1:-}" = -- ] && shift
[ -x "$build/bin/mpirun" ] || { echo "net_compare.sh: no $build/bin/mpirun (build first)" >&2; exit 2; }
wrap=$(mktemp -d "${TMPDIR:-/tmp}/ftmpi-netcmp.XXXXXX")
trap 'rm -rf "$wrap"' EXIT
cat >"$wrap/ftmpi-tcp" <<EOS
#!/bin/sh
exec "$build/bin/mpirun" -x FTMPI_TRANSPORT=tcp ${FTMPIRUN_OPTS:-} "\$@"
EOS
cat >"$wrap/openmpi-tcp" <<'EOS'
#!/bin/sh
exec mpirun.openmpi --mca btl tcp,self "$@"
EOS
cat >"$wrap/mpich-tcp" <<'EOS'
#!/bin/sh
exec mpirun.mpich -genv MPIR_CVAR_NOLOCAL 1 -genv MPIR_CVAR_CH3_NOLOCAL 1 "$@"
EOS
chmod +x "$wrap"/*
MPIRUN_FTMPI=$wrap/ftmpi-tcp MPIRUN_OPENMPI=$wrap/openmpi-tcp MPIRUN_MPICH=$wrap/mpich-tcp \
    "$ROOT/bench/compare.sh" "$build" "$@"
