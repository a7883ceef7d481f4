"""gen_coverage.py: the table of every MPI function by chapter (implemented
or not), for docs/coverage.md, generated from mpi.api."""

BEGIN = "<!-- BEGIN GENERATED TABLE (ftmpi/bindings/gen.py coverage; do not edit) -->"
END = "<!-- END GENERATED TABLE -->"


def _name(api, n):
    f = api.functions.get(n)
    text = f"`MPI_{n}`"
    if n in api.fortran_only:
        text += " (Fortran only)"
    if f is not None:
        if f.has("removed"):
            text += " (removed in MPI-3.0)"
        elif f.has("deprecated"):
            text += " (deprecated)"
    return text


def table(api):
    rows = api.standard_names()
    out = [BEGIN, "",
           "| chapter (MPI-4.1) | implemented | not implemented |",
           "| --- | ---: | ---: |"]
    tot_y = tot_n = 0
    for ch in api.chapters:
        y = sum(1 for c, _, ok in rows if c is ch and ok)
        n = sum(1 for c, _, ok in rows if c is ch and not ok)
        tot_y, tot_n = tot_y + y, tot_n + n
        out.append(f"| {ch.number}. {ch.title} | {y} | {n} |")
    out.append(f"| all | {tot_y} | {tot_n} |")
    for ch in api.chapters:
        have = [n for c, n, ok in rows if c is ch and ok]
        lack = [n for c, n, ok in rows if c is ch and not ok]
        out += ["", f"### {ch.number}. {ch.title}", ""]
        out.append("Implemented: " + (", ".join(_name(api, n) for n in have) if have else "none") + ".")
        out.append("")
        out.append("Not implemented: " + (", ".join(_name(api, n) for n in lack) if lack else "none") + ".")
    out += ["", END]
    return "\n".join(out) + "\n"


def splice(doc, generated):
    """doc with its generated table replaced by `generated` (None: no markers)."""
    if BEGIN not in doc or END not in doc:
        return None
    head = doc[:doc.index(BEGIN)]
    tail = doc[doc.index(END) + len(END):]
    return head + generated.rstrip("\n") + tail
