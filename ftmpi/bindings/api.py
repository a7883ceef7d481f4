"""api.py: reads mpi.api, the one description of the MPI interface
(its syntax is explained at the top of that file)."""

import re

HANDLES = ("Comm", "Group", "Datatype", "Op", "Request", "Errhandler", "Info",
           "Win", "Message", "File", "Session")
SCALARS = ("int", "Aint", "Count", "Offset", "Fint", "logical")
KINDS = set(HANDLES + SCALARS + (
    "choice", "Status", "F08status", "string", "extra", "extra_int", "attr", "attr_int",
    "baseptr", "bufaddr", "cptr", "argc", "argv", "strings", "argvs", "..."))
# the handles of the tool interface MPI_T (C only: @conly entries alone may use them)
TOOL_KINDS = {"T_enum", "T_cvar_handle", "T_pvar_handle", "T_pvar_session", "T_event_instance",
              "T_event_registration", "T_cb_safety", "T_source_order"}
KINDS |= TOOL_KINDS
RETURNS = ("int", "double", "Aint", "Fint") + HANDLES
FN_FLAGS = {"removed", "deprecated", "nof08", "f08only", "conly", "f2c", "custom", "c", "cstd"}
# @lc / @la: the parameter is MPI_Count / MPI_Aint in the large-count Name_c
# that a `@c` function line derives (docs/largecount.md)
PARAM_FLAGS = {"preset", "weights", "lc", "la", "index", "nof"}
WIDEN = {"lc": "Count", "la": "Aint"}
PROC_ACTIONS = {"null_copy", "null_delete", "dup", "conversion_null"}
# the procedures the standard defines for Fortran only (`fortran` entries)
FORTRAN_ONLY = {"Sizeof", "F_sync_reg"}


class ApiError(Exception):
    pass


class Param:
    def __init__(self, name, kind, dims, direction, flags):
        self.name = name
        self.kind = kind          # "int", "Comm", "cb:User_function", ...
        self.dims = dims          # None: scalar; else a list of length expressions ("" if none)
        self.dir = direction      # in, out, inout
        self.flags = flags

    @property
    def is_array(self):
        return self.dims is not None and self.kind != "string"

    @property
    def is_cb(self):
        return self.kind.startswith("cb:")

    @property
    def cb_type(self):
        return self.kind[3:]

    @property
    def strlen(self):
        """For an out string: its maximum length (an expression)."""
        return self.dims[0] if self.kind == "string" and self.dims else None


class Function:
    def __init__(self, name, params, ret, flags, chapter, line, prefix="MPI_"):
        self.prefix = prefix      # MPI_, or FTMPI_ for the FT-MPI extensions
        self.name = name
        self.params = params
        self.ret = ret
        self.flags = flags
        self.chapter = chapter
        self.line = line
        self.base = None          # a derived large-count Name_c: the Name it comes from
        self.big = None           # a @c function: its derived Name_c

    @property
    def derived(self):
        return self.base is not None

    def has(self, flag):
        return flag in self.flags

    @property
    def fortran(self):
        return not self.has("conly")

    @property
    def f08(self):
        return self.fortran and not (self.has("removed") or self.has("nof08"))


class Chapter:
    def __init__(self, number, key, title):
        self.number = number
        self.key = key
        self.title = title
        self.entries = []     # ("fn", Function) or ("std", name, bigcount)


class Api:
    def __init__(self):
        self.chapters = []
        self.functions = {}
        self.extensions = {}  # ftfn: FT-MPI functions (ftmpi.h), Fortran bindings only
        self.callbacks = {}
        self.procs = []       # (NAME, callback, action)
        self.consts = []      # (kind, NAME)
        self.fconsts = []     # (NAME, value)
        self.sentinels = []   # (kind, NAME)
        self.conly = set()
        self.fortran_only = []  # MPI_Sizeof, MPI_F_sync_reg: no C function (gen_fortran.py)

    def bound(self, legacy=False):
        """The functions with Fortran bindings: MPI's, then FT-MPI's;
        legacy: those of mpif.h and `mpi` (not the @f08only ones)."""
        fs = [f for f in self.functions.values() if f.fortran] + list(self.extensions.values())
        return [f for f in fs if not (legacy and f.has("f08only"))]

    def standard_names(self):
        """Every MPI function the description knows: (chapter, name, implemented)."""
        out = []
        for ch in self.chapters:
            for e in ch.entries:
                if e[0] == "fn":
                    f = e[1]
                    out.append((ch, f.name, True))
                    if f.has("cstd"):
                        out.append((ch, f.name + "_c", False))
                else:
                    out.append((ch, e[1], e[0] == "fortran" or e[1] in self.functions))
                    if e[2]:
                        out.append((ch, e[1] + "_c", e[1] + "_c" in self.functions))
        return out


_PARAM = re.compile(r"^(\w+|\.\.\.)(?:\s+([\w:.]+)((?:\[[^\]]*\])*))?((?:\s+\w+)?)((?:\s+@\w+)*)$")


def _split_params(text, where):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_param(text, where):
    if text == "...":
        return Param("...", "...", None, "in", set())
    m = _PARAM.match(text)
    if not m or not m.group(2):
        raise ApiError(f"{where}: cannot read the parameter '{text}'")
    name, kind, dims, direction, flags = m.groups()
    if not (kind in KINDS or kind.startswith("cb:")):
        raise ApiError(f"{where}: parameter '{name}' has an unknown kind '{kind}'")
    dimlist = re.findall(r"\[([^\]]*)\]", dims) if dims else None
    direction = direction.strip() or "in"
    if direction not in ("in", "out", "inout"):
        raise ApiError(f"{where}: parameter '{name}': unknown direction '{direction}'")
    flagset = set(re.findall(r"@(\w+)", flags))
    bad = flagset - PARAM_FLAGS
    if bad:
        raise ApiError(f"{where}: parameter '{name}': unknown flag @{sorted(bad)[0]}")
    return Param(name, kind, dimlist, direction, flagset)


_FN = re.compile(r"^(fn|ftfn|callback)\s+(\w+)\((.*)\)\s*(?:->\s*(\w+))?((?:\s+@\w+)*)\s*$")


def parse(path):
    api = Api()
    chapter = None
    with open(path) as fh:
        lines = fh.read().splitlines()
    for no, raw in enumerate(lines, 1):
        where = f"{path}:{no}"
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.split()[0]
        if word == "chapter":
            m = re.match(r"chapter\s+(\d+)\s+(\w+)\s+(.+)$", line)
            if not m:
                raise ApiError(f"{where}: expected 'chapter N key Title'")
            chapter = Chapter(int(m.group(1)), m.group(2), m.group(3))
            api.chapters.append(chapter)
        elif word in ("fn", "ftfn", "callback"):
            m = _FN.match(line)
            if not m:
                raise ApiError(f"{where}: cannot read the {word} entry")
            kw, name, ptext, ret, flags = m.groups()
            params = [parse_param(p, where) for p in _split_params(ptext, where)]
            ret = ret or "int"
            if ret not in RETURNS:
                raise ApiError(f"{where}: {name}: unknown return type {ret}")
            flagset = set(re.findall(r"@(\w+)", flags))
            bad = flagset - FN_FLAGS
            if bad:
                raise ApiError(f"{where}: {name}: unknown flag @{sorted(bad)[0]}")
            names = [p.name for p in params]
            if len(set(names)) != len(names):
                raise ApiError(f"{where}: {name}: two parameters have the same name")
            if "conly" not in flagset and any(p.kind in TOOL_KINDS for p in params):
                raise ApiError(f"{where}: {name}: MPI_T handles are C only: mark it @conly")
            f = Function(name, params, ret, flagset, chapter, where,
                         "FTMPI_" if kw == "ftfn" else "MPI_")
            if kw == "callback":
                api.callbacks[name] = f
                continue
            if kw == "ftfn":
                api.extensions[name] = f
                continue
            if chapter is None:
                raise ApiError(f"{where}: fn before the first chapter")
            if name in api.functions:
                raise ApiError(f"{where}: MPI_{name} is described twice "
                               f"(first at {api.functions[name].line})")
            api.functions[name] = f
            chapter.entries.append(("fn", f))
            if f.has("c"):
                big = derive_large_count(f, where)
                if big.name in api.functions:
                    raise ApiError(f"{where}: MPI_{big.name} is described twice (@c here)")
                api.functions[big.name] = big
                chapter.entries.append(("fn", big))
        elif word == "std":
            if chapter is None:
                raise ApiError(f"{where}: std before the first chapter")
            for n in line.split()[1:]:
                big = n.endswith("+c")
                chapter.entries.append(("std", n[:-2] if big else n, big))
        elif word == "fortran":
            if chapter is None:
                raise ApiError(f"{where}: fortran before the first chapter")
            for n in line.split()[1:]:
                if n not in FORTRAN_ONLY:
                    raise ApiError(f"{where}: MPI_{n}: gen_fortran.py does not write it")
                api.fortran_only.append(n)
                chapter.entries.append(("fortran", n, False))
        elif word == "const":
            parts = line.split()
            if len(parts) < 3 or not (parts[1] in HANDLES or parts[1] in ("int", "logical", "Offset")):
                raise ApiError(f"{where}: expected 'const KIND NAME...'")
            api.consts += [(parts[1], n) for n in parts[2:]]
        elif word == "fconst":
            for item in line.split()[1:]:
                n, _, v = item.partition("=")
                if not v.lstrip("-").isdigit():
                    raise ApiError(f"{where}: fconst {n}: the value must be an integer")
                api.fconsts.append((n, int(v)))
        elif word == "sentinel":
            parts = line.split()
            if parts[1] not in ("int", "status", "statuses", "int_array", "char", "char_array"):
                raise ApiError(f"{where}: unknown sentinel kind {parts[1]}")
            api.sentinels += [(parts[1], n) for n in parts[2:]]
        elif word == "proc":
            parts = line.split()
            if len(parts) != 4 or parts[3] not in PROC_ACTIONS:
                raise ApiError(f"{where}: expected 'proc NAME Callback null_copy|dup|null_delete|conversion_null'")
            api.procs.append((parts[1], parts[2], parts[3]))
        elif word == "conly":
            api.conly.update(line.split()[1:])
        else:
            raise ApiError(f"{where}: unknown entry '{word}'")
    _validate(api)
    return api


def derive_large_count(f, where):
    """The large-count MPI_<f>_c of a `@c` line: the same parameters, those
    flagged @lc in MPI_Count, those flagged @la in MPI_Aint. In Fortran it
    is a specific procedure of mpi_f08's generic MPI_<f> only (the standard
    gives mpif.h and `mpi` no large-count forms)."""
    if f.has("cstd"):
        raise ApiError(f"{where}: {f.name}: @c and @cstd together")
    params = []
    for p in f.params:
        w = [WIDEN[x] for x in p.flags if x in WIDEN]
        if len(w) > 1:
            raise ApiError(f"{where}: {f.name}: parameter '{p.name}' has both @lc and @la")
        kind = w[0] if w else p.kind
        if w and p.kind not in ("int", "Aint"):
            raise ApiError(f"{where}: {f.name}: @lc/@la on '{p.name}', which is not int or Aint")
        params.append(Param(p.name, kind, p.dims, p.dir, p.flags - set(WIDEN)))
    if all(a.kind == b.kind for a, b in zip(params, f.params)):
        raise ApiError(f"{where}: {f.name}: @c but no parameter is flagged @lc or @la")
    big = Function(f.name + "_c", params, f.ret, (f.flags - {"c"}) | {"f08only"},
                   f.chapter, where, f.prefix)
    big.base = f
    f.big = big
    return big


def _validate(api):
    for f in (list(api.functions.values()) + list(api.callbacks.values())
              + list(api.extensions.values())):
        names = {p.name for p in f.params}
        for p in f.params:
            if set(WIDEN) & p.flags and not f.has("c"):
                raise ApiError(f"{f.line}: {f.name}: parameter '{p.name}' is flagged @lc/@la "
                               f"but the function has no @c")
            if p.is_cb and p.cb_type not in api.callbacks:
                raise ApiError(f"{f.line}: {f.name}: no callback entry for {p.kind}")
            for d in p.dims or []:
                for ident in re.findall(r"[A-Za-z_]\w*", d):
                    if ident not in names and not ident.startswith("MPI_"):
                        raise ApiError(f"{f.line}: {f.name}: length '{d}' of '{p.name}' "
                                       f"names no parameter")
    for name, cb, _ in api.procs:
        if cb not in api.callbacks:
            raise ApiError(f"proc {name}: unknown callback {cb}")
    seen = set()
    for ch in api.chapters:
        for e in ch.entries:
            n = e[1].name if e[0] == "fn" else e[1]
            if e[0] == "std" and n in api.functions:
                raise ApiError(f"MPI_{n} is both implemented (fn) and listed as missing (std)")
            if n in seen and e[0] == "std":
                raise ApiError(f"MPI_{n} is listed twice")
            seen.add(n)
