"""gen_fonly.py: the procedures the standard defines for Fortran only (the
`fortran` entries of mpi.api), for gen_fortran.py and gen_c.py.

- MPI_SIZEOF(x, size, ierror): generic in `mpi` and `mpi_f08` (not mpif.h,
  which has no interfaces), one specific module procedure per intrinsic type
  and kind the compiler has (fkinds.txt, printed by fortran/fkinds.f90),
  each taking an assumed-rank x, so scalars and arrays of any rank match;
  size is the bytes of one element (storage_size). PMPI_SIZEOF is a second
  generic over the same specifics.
- MPI_F_SYNC_REG(buf): an external procedure the compiler cannot see into,
  so a variable given to it is taken as read and written there: a value the
  compiler keeps in a register is stored before the call and loaded again
  after it. The C body (pmpi_f_sync_reg_, f_wrappers.c) does nothing else.
  mpif.h: an implicit external; `mpi`: an interface; `mpi_f08`: the generic
  MPI_F_sync_reg over MPI_F_sync_reg_f08. With their PMPI_ names."""

SIZEOF_TYPES = ("integer", "real", "complex", "logical", "character")


def read_kinds(path):
    """{type: [kind, ...]} from fkinds.txt."""
    kinds = {}
    with open(path) as fh:
        for line in fh:
            words = line.split()
            if words:
                kinds[words[0]] = [int(k) for k in words[1:]]
    missing = [t for t in SIZEOF_TYPES if not kinds.get(t)]
    if missing:
        raise ValueError(f"{path}: no kinds for {', '.join(missing)}")
    return kinds


def _sizeof_names(kinds):
    return [(t, k, f"ftmpi_sizeof_{t}{k}") for t in SIZEOF_TYPES for k in kinds[t]]


def sizeof_spec(api, kinds):
    """Specification part: the generics MPI_SIZEOF and PMPI_SIZEOF."""
    if "Sizeof" not in api.fortran_only:
        return []
    names = [n for _, _, n in _sizeof_names(kinds)]
    out = [f"  private :: {n}" for n in names]
    for g in ("MPI_SIZEOF", "PMPI_SIZEOF"):
        out.append(f"  interface {g}")
        out += [f"    module procedure {n}" for n in names]
        out.append(f"  end interface {g}")
    return out


def sizeof_procs(api, kinds, f08):
    """Module procedures (after `contains`): MPI_SIZEOF's specifics."""
    if "Sizeof" not in api.fortran_only:
        return []
    out = []
    for t, k, n in _sizeof_names(kinds):
        decl = f"character(kind={k}, len=*)" if t == "character" else f"{t}(kind={k})"
        out += [f"  subroutine {n}(x, size, ierror)",
                f"    {decl}, dimension(..), intent(in) :: x",
                "    integer, intent(out) :: size",
                "    integer, optional, intent(out) :: ierror" if f08
                else "    integer, intent(out) :: ierror",
                "    size = storage_size(x) / 8"]
        out += (["    if (present(ierror)) ierror = MPI_SUCCESS"] if f08
                else ["    ierror = MPI_SUCCESS"])
        out.append(f"  end subroutine {n}")
    return out


def sync_reg_interfaces(api, f08):
    """Interface bodies (`mpi`) or generic interfaces (`mpi_f08`) of
    MPI_F_SYNC_REG and PMPI_F_SYNC_REG."""
    if "F_sync_reg" not in api.fortran_only:
        return []
    out = []
    for p in ("", "P"):
        name = f"{p}MPI_F_sync_reg"
        body = [f"subroutine {name}{'_f08' if f08 else ''}(buf)",
                "  !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf",
                "  type(*), dimension(*)" + (", asynchronous" if f08 else "") + " :: buf",
                f"end subroutine {name}{'_f08' if f08 else ''}"]
        if f08:
            out += [f"  interface {name}"] + ["    " + b for b in body] + ["  end interface"]
        else:
            out += ["    " + b for b in body]
    return out


def c_source(api):
    """The C body of MPI_F_SYNC_REG for f_wrappers.c."""
    if "F_sync_reg" not in api.fortran_only:
        return []
    return ["/* MPI_F_SYNC_REG: the call itself is the point (gen_fonly.py); the empty\n"
            " * asm keeps the compiler from treating buf as untouched here too. */\n"
            "void pmpi_f_sync_reg_(void *buf)\n{\n"
            "    __asm__ __volatile__(\"\" : : \"r\"(buf) : \"memory\");\n}\n"
            "FTMPI_F_NAMES_F08(mpi_f_sync_reg)\n"]
