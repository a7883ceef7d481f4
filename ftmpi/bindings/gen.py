#!/usr/bin/env python3
"""gen.py: everything generated from mpi.api, the one description of the
MPI interface (docs/fortran.md, "How the bindings are made"). Run by CMake
(ftmpi/bindings/CMakeLists.txt); by hand:

  gen.py check API MPI_H_PREPROCESSED MPI_H FTMPI_H   mpi.h and mpi.api agree
  gen.py f2c API OUT.c                                 MPI_*_c2f/f2c (libftmpi)
  gen.py cproto API OUT.h                              mpi_count_c.h: the derived
                                                       large-count prototypes
  gen.py fconst API OUT.c                              program printing constants
  gen.py fortran API FCONST.txt FKINDS.txt OUTDIR      mpif.h, mpi.f90, mpi_f08.f90,
                                                       f_wrappers.c (FKINDS: the
                                                       compiler's kinds, fkinds.f90)
  gen.py coverage API DOC [--write]                    compare (or rewrite) the
                                                       table in docs/coverage.md
Exit status 1 with one line per problem when something does not agree."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import api as apimod            # noqa: E402
import check_header             # noqa: E402
import gen_c                    # noqa: E402
import gen_coverage             # noqa: E402
import gen_fonly                # noqa: E402
import gen_fortran              # noqa: E402


def write_if_changed(path, text):
    """Keep the timestamp of an unchanged output, so nothing rebuilds."""
    try:
        with open(path) as fh:
            if fh.read() == text:
                return
    except OSError:
        pass
    with open(path, "w") as fh:
        fh.write(text)


def fail(problems, what):
    for p in problems:
        print(f"gen.py {what}: {p}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, path = argv[1], argv[2]
    try:
        api = apimod.parse(path)
    except apimod.ApiError as e:
        fail([str(e)], "parse")
    if cmd == "check" and len(argv) == 7:
        pre = open(argv[3]).read()
        raw = [open(p).read() for p in argv[4:6]]
        problems = check_header.check(api, pre, raw)
        if problems:
            fail(problems + ["mpi.h and ftmpi/bindings/mpi.api must describe the same "
                             "functions and constants (docs/fortran.md)"], "check")
        write_if_changed(argv[6], "ok\n")
    elif cmd == "cproto" and len(argv) == 4:
        write_if_changed(argv[3], gen_c.count_c_header(api))
    elif cmd == "f2c" and len(argv) == 4:
        write_if_changed(argv[3], gen_c.f2c_source(api))
    elif cmd == "fconst" and len(argv) == 4:
        write_if_changed(argv[3], gen_c.fconst_source(api))
    elif cmd == "fortran" and len(argv) == 6:
        vals = gen_fortran.read_values(argv[3])
        problems = gen_fortran.check_layout(api, vals)
        if problems:
            fail(problems, "fortran")
        try:
            kinds = gen_fonly.read_kinds(argv[4])
        except (OSError, ValueError) as e:
            fail([str(e)], "fortran")
        d = argv[5]
        write_if_changed(os.path.join(d, "mpif.h"), gen_fortran.mpif_h(api, vals))
        write_if_changed(os.path.join(d, "mpi.f90"), gen_fortran.mpi_module(api, vals, kinds))
        write_if_changed(os.path.join(d, "mpi_f08.f90"),
                         gen_fortran.mpi_f08_module(api, vals, kinds))
        write_if_changed(os.path.join(d, "f_wrappers.c"), gen_c.wrappers_source(api))
    elif cmd == "coverage" and len(argv) in (4, 5):
        doc = open(argv[3]).read()
        new = gen_coverage.splice(doc, gen_coverage.table(api))
        if new is None:
            fail([f"{argv[3]} has no generated-table markers"], "coverage")
        if len(argv) == 5 and argv[4] == "--write":
            write_if_changed(argv[3], new)
        elif new != doc:
            fail([f"the table in {argv[3]} is not the one mpi.api gives: run "
                  f"`cmake --build build --target coverage_doc` and commit it"], "coverage")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
