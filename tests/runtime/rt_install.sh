#!/bin/sh
# rt_install.sh BUILD_DIR SOURCE_PROGRAM: install the build under a prefix
# chosen at install time (not the configured one), then build a program
# with the installed mpicc (and through its ftmpicc link) and run it with
# the installed mpirun. Fails on any step.
set -eu
build=$1 prog=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake --install "$build" --prefix "$dir/inst" >/dev/null
"$dir/inst/bin/mpicc" "$prog" -o "$dir/a.out"
"$dir/inst/bin/ftmpicc" -show | grep -q -- "-I$dir/inst/include" ||
  { echo "rt_install: ftmpicc -show does not point into the prefix"; exit 1; }
out=$("$dir/inst/bin/mpirun" --timeout 20 -np 2 "$dir/a.out")
echo "$out"
echo "$out" | grep -q "^rt_install: 2 ranks" || { echo "rt_install: the program did not run"; exit 1; }
echo "rt_install: ok"
