#!/usr/bin/env bash
# deps.sh: install the Debian (bookworm) packages that the project needs.
#
#   bash .ci/deps.sh            install only what is missing (no network when
#                               everything is there already)
#   bash .ci/deps.sh --update   always run apt-get update and install (CI)
#   bash .ci/deps.sh --bench    also what only the benchmarks need (ScaLAPACK
#                               for bench/dense_bench.sh); not the test path
#
# Runs non-interactively; needs root, or sudo without a password.
set -euo pipefail

PKGS=(
    build-essential cmake pkg-config       # toolchain
    python3                                # gen.py (API check, bindings), test drivers (tcp_outsider, chaos)
    gfortran                               # the Fortran bindings and their tests
    clang                                  # the clang -Werror job (.ci/sanitize.sh)
    libisal-dev                            # Reed-Solomon and CRC (diskless_ckpt, transports)
    iproute2 util-linux                    # ip, ss, nsenter: namespace hosts (tests/netns), tcp_outsider
    libcmocka-dev                          # unit tests
    gdb                                    # every rank's stack when a chaos trial hangs (tests/chaos)
    libopenblas-dev liblapacke-dev         # dense apps
    openmpi-bin libopenmpi-dev             # peer MPI, for benchmarks only
    slurm-wlm                              # the Slurm launch test (tests/netns/netns_slurm.sh)
    mpich libmpich-dev                     # peer MPI, for benchmarks only
    libfftw3-dev zlib1g-dev                # apps/pstswm: FFTs, PNG maps
    python3-matplotlib                     # tools/ftmpi-report (docs/tools.md)
)

update=0
for arg in "$@"; do
    case "$arg" in
        --update) update=1 ;;
        --bench) PKGS+=(libscalapack-openmpi-dev) ;;   # bench/dense_bench.sh only
        *) echo "usage: bash .ci/deps.sh [--update] [--bench]" >&2; exit 2 ;;
    esac
done

missing=()
for p in "${PKGS[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done

if [ "${#missing[@]}" -eq 0 ] && [ "$update" = 0 ]; then
    echo "deps: all ${#PKGS[@]} packages present"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps: error: missing packages (${missing[*]}) and no apt-get here;" \
         "install their equivalents by hand" >&2
    exit 1
fi

sudo=()
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo=(sudo -n)
    else
        echo "deps: error: missing packages: ${missing[*]}" >&2
        echo "deps: run as root, or install them: apt-get install ${missing[*]}" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
to_install=("${missing[@]}")
[ "$update" = 1 ] && to_install=("${PKGS[@]}")
echo "deps: apt-get update"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
echo "deps: apt-get install ${to_install[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    -o Dpkg::Use-Pty=0 "${to_install[@]}" </dev/null >/dev/null
echo "deps: done"
