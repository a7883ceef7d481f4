"""chaos_report.py - the campaign's CSV (one row per trial) and its summary
(docs/chaos.md)."""
import csv

from chaos_check import CLASSES, FAILING

COLUMNS = ["trial", "seed", "workload", "mode", "msg", "np", "env", "scenario", "kills",
           "kills_fired", "failures", "exit_code", "class", "detail", "wall_s", "ff_s",
           "hang_limit_s", "leftover", "logs", "replay"]


class Report:
    def __init__(self, path):
        self.path = path
        self.rows = []
        self.f = open(path, "w", newline="")
        self.w = csv.DictWriter(self.f, fieldnames=COLUMNS)
        self.w.writeheader()

    def add(self, row):
        self.rows.append(row)
        self.w.writerow(row)
        self.f.flush()

    def close(self):
        self.f.close()


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _transport(env):
    """The transport variant of a trial (its FTMPI_ variables), or 'default'."""
    v = [e for e in env.split() if e.startswith("FTMPI_")]
    return " ".join(v) if v else "default"


def summary(rows, title="chaos campaign", extra=()):
    """Markdown: counts per class, per workload, and the distinct failure signatures."""
    out = ["# %s" % title, ""]
    out += list(extra)
    n = len(rows)
    by = {c: 0 for c in CLASSES}
    for r in rows:
        by[r["class"]] = by.get(r["class"], 0) + 1
    out.append("%d trials: " % n + ", ".join("%s %d" % (c, by.get(c, 0)) for c in CLASSES))
    out.append("")
    wl = sorted(set(r["workload"] for r in rows))
    out.append("| workload | trials | " + " | ".join(CLASSES) + " | median wall s | median failure-free s |")
    out.append("|---|---|" + "---|" * len(CLASSES) + "---|---|")
    for w in wl:
        rs = [r for r in rows if r["workload"] == w]
        cnt = [sum(1 for r in rs if r["class"] == c) for c in CLASSES]
        walls = sorted(float(r["wall_s"]) for r in rs)
        ffs = sorted(float(r["ff_s"]) for r in rs)
        out.append("| %s | %d | %s | %.2f | %.2f |" % (w, len(rs), " | ".join(map(str, cnt)),
                                                     walls[len(walls) // 2], ffs[len(ffs) // 2]))
    out.append("")
    for title2, classes in (("Failure signatures", FAILING),
                            ("Documented exits", ("documented-exit",))):
        sig = {}
        for r in rows:
            if r["class"] in classes:
                sig.setdefault((r["class"], r["detail"]), []).append(r)
        out.append("## %s (%d distinct)" % (title2, len(sig)))
        out.append("")
        if not sig:
            out.append("none")
            out.append("")
            continue
        out.append("| class | count | signature | workloads | environments | example replay | example kills |")
        out.append("|---|---|---|---|---|---|---|")
        for (c, d), rs in sorted(sig.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            ws = ",".join(sorted(set("%s/%s" % (r["workload"], r["mode"]) for r in rs)))
            envs = ",".join(sorted(set(_transport(r["env"]) for r in rs)))
            ex = rs[0]
            out.append("| %s | %d | `%s` | %s | %s | `%s` | `%s` |" % (
                c, len(rs), d.replace("|", "\\|"), ws, envs, ex["replay"], ex["kills"]))
        out.append("")
    return "\n".join(out) + "\n"
