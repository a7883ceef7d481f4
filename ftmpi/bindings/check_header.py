"""check_header.py: mpi.h and mpi.api must describe the same C interface.

Compares the MPI_ functions that the preprocessed mpi.h declares with the
`fn` entries of the description (name, return type, and each parameter's
type up to const and names), and the macros mpi.h defines with the
description's constants. Returns a list of problems (empty: they agree)."""

import re

from api import HANDLES

C_SCALAR = {"int": "int", "logical": "int", "Aint": "MPI_Aint", "Count": "MPI_Count",
            "Offset": "MPI_Offset", "Fint": "MPI_Fint"}
C_RET = dict(C_SCALAR, double="double", **{h: "MPI_" + h for h in HANDLES})
C_RET["Datatype"] = "MPI_Datatype"


def c_type(p):
    """The C type of a described parameter, normalised (no const, no names)."""
    k = p.kind
    if k == "...":
        return "..."
    if k in ("choice", "extra", "extra_int", "attr", "attr_int", "baseptr", "bufaddr"):
        return "void*"
    if k == "argc":
        return "int*"
    if k in ("argv", "argvs"):
        return "char***"
    if k == "strings":
        return "char**"
    if k == "string":
        return "char*"
    if k == "Status":
        return "MPI_Status*"
    if k == "F08status":
        return "MPI_F08_status*"
    if k == "cptr":
        return "void*"
    if p.is_cb:
        return "MPI_" + p.cb_type + "*"
    base = C_SCALAR.get(k) or "MPI_" + k
    if p.dims and len(p.dims) == 2:
        return f"{base}(*)[{p.dims[1]}]"
    if p.is_array or p.dir != "in":
        return base + "*"
    return base


def c_proto(f):
    """(return type, [parameter types]) of a described function."""
    return C_RET[f.ret], [c_type(p) for p in f.params] or ["void"]


def _norm_param(text):
    t = re.sub(r"\bconst\b", " ", text).strip()
    if t == "...":
        return "..."
    dims = re.findall(r"\[\s*(\w*)\s*\]", t)
    t = re.sub(r"\[.*", "", t)
    toks = re.findall(r"\w+|\*", t)
    words = [x for x in toks if x != "*"]
    if len(words) >= 2 and toks[-1] != "*":
        toks = toks[:-1]                    # the parameter's name
    base = " ".join(x for x in toks if x != "*") + "*" * toks.count("*")
    if not dims:
        return base
    if len(dims) == 1:
        return base + "*"
    return f"{base}(*)[{dims[1]}]"


def parse_header(text):
    """MPI_ functions a preprocessed mpi.h declares: name -> (ret, [param types])."""
    text = re.sub(r"^\s*#.*$", ";", text, flags=re.M)     # pragmas end a declaration too
    text = re.sub(r"\s+", " ", text)
    out = {}
    decl_re = re.compile(
        r"^\s*([A-Za-z_][\w ]*?[\w*])\s*\bMPI_([A-Z][a-z0-9]\w*|T_[a-z]\w*)\s*\((.*)\)\s*$")
    for decl in text.split(";"):
        m = decl_re.match(decl)
        if not m:
            continue
        ret, name, args = m.group(1).strip(), m.group(2), m.group(3)
        if re.search(r"\btypedef\b", ret):
            continue
        ret = re.sub(r"\b(extern|const)\b", "", ret).replace(" ", "")
        params = [_norm_param(a) for a in args.split(",")] if args.strip() else ["void"]
        out[name] = (ret, params)
    return out


def header_macros(texts):
    names = set()
    for t in texts:
        names.update(re.findall(r"^\s*#\s*define\s+((?:MPI|MPIX|FTMPI|FT_MPI)_\w+)", t, re.M))
    return names


def check(api, preprocessed, raw_headers):
    problems = []
    declared = parse_header(preprocessed)
    for name, f in sorted(api.functions.items()):
        if name not in declared:
            problems.append(f"MPI_{name}: in mpi.api ({f.line}) but not declared by mpi.h")
            continue
        want = c_proto(f)
        have = declared[name]
        if want != have:
            problems.append(f"MPI_{name}: mpi.h says {have[0]} ({', '.join(have[1])}), "
                            f"mpi.api ({f.line}) says {want[0]} ({', '.join(want[1])})")
    for name in sorted(declared):
        if name not in api.functions:
            problems.append(f"MPI_{name}: declared by mpi.h but not in mpi.api "
                            f"(add an fn entry, or move its std entry to fn)")
    # a proc whose C form is a macro (MPI_CONVERSION_FN_NULL: a null pointer)
    described = {n for _, n in api.consts} | api.conly | {n for n, _, _ in api.procs}
    macros = header_macros(raw_headers)
    for n in sorted(macros - described):
        problems.append(f"{n}: defined by mpi.h/ftmpi.h but not in mpi.api "
                        f"(a const entry, or conly when Fortran has no such constant)")
    for n in sorted(described - macros - {n for n, _, _ in api.procs}):
        if not n.startswith("MPI_COMBINER_"):
            problems.append(f"{n}: in mpi.api but not defined by mpi.h/ftmpi.h")
    return problems
