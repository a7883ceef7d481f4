#!/bin/sh
# f_install.sh BUILD_DIR FINDMPI_PROJECT CMAKE: install the build under a
# prefix chosen at install time, then
#  - mpifort -show, mpif90 -show and mpif77 -show point into the prefix;
#  - a Fortran program built with the installed mpif90 runs;
#  - a CMake project using find_package(MPI COMPONENTS C Fortran) configures
#    against the installed wrappers (mpif.h, mpi and mpi_f08 all found),
#    builds, and its programs run with the installed mpirun.
# Fails on any step.
set -eu
build=$1 proj=$2 cmake=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$cmake" --install "$build" --prefix "$dir/inst" >/dev/null
for w in mpifort mpif90 mpif77; do
  "$dir/inst/bin/$w" -show | grep -q -- "-I$dir/inst/include .*-lftmpi_f -lftmpi" ||
    { echo "f_install: $w -show does not point into the prefix: $("$dir/inst/bin/$w" -show)"; exit 1; }
done
for f in mpif.h mpi.mod mpi_f08.mod; do
  [ -f "$dir/inst/include/$f" ] || { echo "f_install: $f is not installed"; exit 1; }
done
"$dir/inst/bin/mpif90" "$proj/hello_f08.f90" -o "$dir/hello_wrapper"
out=$("$dir/inst/bin/mpirun" --timeout 20 -np 2 "$dir/hello_wrapper")
echo "$out"
echo "$out" | grep -q "^findmpi: 2 ranks, sum 3$" || { echo "f_install: the mpif90 program did not run"; exit 1; }
"$cmake" -S "$proj" -B "$dir/proj" -DMPI_C_COMPILER="$dir/inst/bin/mpicc" \
    -DMPI_Fortran_COMPILER="$dir/inst/bin/mpifort" -DMPIEXEC_EXECUTABLE="$dir/inst/bin/mpirun" \
    > "$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; echo "f_install: FindMPI failed"; exit 1; }
grep "findmpi:" "$dir/configure.log"
"$cmake" --build "$dir/proj" > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
out=$("$dir/inst/bin/mpirun" --timeout 20 -np 3 "$dir/proj/hello_f08"; "$dir/inst/bin/mpirun" --timeout 20 -np 1 "$dir/proj/hello_c")
echo "$out"
echo "$out" | grep -q "^findmpi: 3 ranks, sum 6$" || { echo "f_install: the FindMPI Fortran program did not run"; exit 1; }
echo "$out" | grep -q "^findmpi: C ok" || { echo "f_install: the FindMPI C program did not run"; exit 1; }
echo "f_install: ok"
