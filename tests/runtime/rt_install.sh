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
# pkg-config finds the prefix chosen at install time too
if command -v pkg-config >/dev/null; then
  pc=$(find "$dir/inst" -name ftmpi.pc | head -1)
  [ -n "$pc" ] || { echo "rt_install: ftmpi.pc not installed"; exit 1; }
  flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs ftmpi)
  inc=$(echo "$flags" | sed -n 's/^-I\([^ ]*\).*/\1/p')
  [ -n "$inc" ] && [ "$(cd "$inc" && pwd -P)" = "$(cd "$dir/inst/include" && pwd -P)" ] ||
    { echo "rt_install: pkg-config --cflags does not point into the prefix: $flags"; exit 1; }
  # A sanitized library (.ci/sanitize.sh) needs its runtime linked first,
  # which plain pkg-config flags do not give: check the flags only then.
  libso=$(find "$dir/inst" -name 'libftmpi.so' | head -1)
  if ldd "$libso" | grep -q 'libasan\|libtsan'; then
    echo "rt_install: sanitized build: pkg-config flags checked, program not built"
  else
    cc "$prog" $flags -o "$dir/b.out" ||
      { echo "rt_install: cannot build with pkg-config's flags"; exit 1; }
    LD_LIBRARY_PATH=$(dirname "$libso") \
      "$dir/inst/bin/mpirun" --timeout 20 -np 2 "$dir/b.out" | grep -q "^rt_install: 2 ranks" ||
      { echo "rt_install: the pkg-config build did not run"; exit 1; }
  fi
fi
out=$("$dir/inst/bin/mpirun" --timeout 20 -np 2 "$dir/a.out")
echo "$out"
echo "$out" | grep -q "^rt_install: 2 ranks" || { echo "rt_install: the program did not run"; exit 1; }
echo "rt_install: ok"
