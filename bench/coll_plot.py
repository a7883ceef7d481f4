#!/usr/bin/env python3
"""coll_plot.py: plot bench/coll_lat.c results of ftmpi, Open MPI and MPICH.

usage: bench/coll_plot.py OUT.svg NP=DIR[,DIR...] [NP=DIR[,DIR...] ...]

Each DIR is a `bench/compare.sh --bench coll_lat --keep DIR` directory holding
<impl>.run<r>.out files (several DIRs of one rank count are merged, e.g. a
--quick run and a separate 1 MiB run). For every (implementation, metric,
size) the median over the runs is plotted: one row per metric, and per rank
count two panels: latency in microseconds against message size (log-log), and
the ratio ftmpi / the faster of the others (log; the 1.0 and 1.1 lines
dashed). Only the metrics present in the data are drawn. On stdout: per rank
count and metric, how many sizes are within 1.1x of the faster of the others
and the worst ratio (a Markdown table). Plain Python, writes SVG by hand (no
plotting library needed).
"""
import glob
import math
import os
import statistics
import sys

IMPLS = [("ftmpi", "ftmpi", "#d62728"), ("openmpi", "Open MPI", "#1f77b4"),
         ("mpich", "MPICH", "#2ca02c")]
METRICS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
           "reduce_scatter", "gather", "scatter"]


def load(dirs):
    data = {}
    for impl, _, _ in IMPLS:
        runs = {}
        for d in dirs.split(","):
            for f in glob.glob(os.path.join(d, impl + ".run*.out")):
                for line in open(f):
                    w = line.split()
                    if len(w) == 3 and not line.startswith("#"):
                        runs.setdefault((w[0], int(w[1])), []).append(float(w[2]))
        data[impl] = {k: statistics.median(v) for k, v in runs.items()}
    return data


def ratios(data, metric):
    """[(size, ftmpi / min(others))] where ftmpi and another measured it."""
    out = []
    for (m, sz), v in sorted(data["ftmpi"].items(), key=lambda kv: kv[0][1]):
        others = [data[i][(m, sz)] for i, _, _ in IMPLS[1:] if (m, sz) in data[i]]
        if m == metric and others and min(others) > 0:
            out.append((sz, v / min(others)))
    return out


def summary(cols, metrics):
    print("| np | " + " | ".join(metrics) + " |")
    print("| ---: |" + " --- |" * len(metrics))
    for np_, data in cols:
        cells = []
        for m in metrics:
            r = ratios(data, m)
            if not r:
                cells.append("")
                continue
            worst = max(r, key=lambda t: t[1])
            cells.append("%d/%d (worst %.2f at %s)" % (sum(1 for _, x in r if x <= 1.1), len(r),
                                                       worst[1], size_label(worst[0])))
        print("| %d | %s |" % (np_, " | ".join(cells)))


def size_label(sz):
    if sz >= 1 << 20 and sz % (1 << 20) == 0:
        return "%dM" % (sz >> 20)
    if sz >= 1024 and sz % 1024 == 0:
        return "%dK" % (sz >> 10)
    return "%d" % sz


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    out = sys.argv[1]
    cols = []
    for a in sys.argv[2:]:
        np_, d = a.split("=", 1)
        cols.append((int(np_), load(d)))
    metrics = [m for m in METRICS if any(k[0] == m for _, d in cols for k in d["ftmpi"])]
    W, H, ML, MT, GAP = 300, 200, 60, 30, 40
    width = ML + 2 * len(cols) * (W + GAP) + 20
    height = MT + len(metrics) * (H + GAP) + 40
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (width, height),
         '<rect width="100%" height="100%" fill="white"/>']
    for li, (impl, label, color) in enumerate(IMPLS):
        x = ML + li * 110
        s.append('<line x1="%d" y1="14" x2="%d" y2="14" stroke="%s" stroke-width="2"/>'
                 % (x, x + 20, color))
        s.append('<text x="%d" y="18">%s</text>' % (x + 24, label))
    for ri, metric in enumerate(metrics):
        for ci, (np_, data) in enumerate(cols):
            s.extend(ratio_panel(ML + (2 * ci + 1) * (W + GAP), MT + ri * (H + GAP), W, H,
                                 metric, np_, ratios(data, metric)))
            x0 = ML + 2 * ci * (W + GAP)
            y0 = MT + ri * (H + GAP)
            s.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>'
                     % (x0, y0, W, H))
            s.append('<text x="%d" y="%d" font-weight="bold">%s, np %d (usec)</text>'
                     % (x0 + 4, y0 - 4, metric, np_))
            pts = {impl: sorted((k[1], v) for k, v in data[impl].items() if k[0] == metric)
                   for impl, _, _ in IMPLS}
            vals = [v for p in pts.values() for _, v in p if v > 0]
            sizes = [sz for p in pts.values() for sz, _ in p]
            if not vals:
                continue
            if metric == "barrier":  # bars
                for li, (impl, label, color) in enumerate(IMPLS):
                    if not pts[impl]:
                        continue
                    v = pts[impl][0][1]
                    top = max(vals) * 1.1
                    bh = (H - 20) * v / top
                    s.append('<rect x="%d" y="%.1f" width="60" height="%.1f" fill="%s"/>'
                             % (x0 + 30 + li * 85, y0 + H - bh, bh, color))
                    s.append('<text x="%d" y="%.1f">%.3g</text>'
                             % (x0 + 32 + li * 85, y0 + H - bh - 3, v))
                continue
            lo, hi = math.log10(min(vals)), math.log10(max(vals))
            if hi - lo < 1e-9:
                hi = lo + 1
            px, py = scales(x0, y0, W, H, sizes, lo, hi)
            for e in range(math.floor(lo), math.ceil(hi) + 1):
                if lo <= e <= hi:
                    s.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>'
                             % (x0 - 3, py(10 ** e) + 4, 10 ** e))
                    s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/>'
                             % (x0, x0 + W, py(10 ** e), py(10 ** e)))
            for sz in (8, 1024, 1 << 20):
                if min(sizes) <= sz <= max(sizes):
                    lab = "8 B" if sz == 8 else ("1 KiB" if sz == 1024 else "1 MiB")
                    s.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                             % (px(sz), y0 + H + 12, lab))
            for impl, label, color in IMPLS:
                p = [(sz, v) for sz, v in pts[impl] if v > 0]
                if len(p) < 2:
                    continue
                path = " ".join("%.1f,%.1f" % (px(sz), py(v)) for sz, v in p)
                s.append('<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>'
                         % (color, path))
    s.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(s) + "\n")
    summary(cols, metrics)
    return 0


def scales(x0, y0, W, H, sizes, lo, hi):
    """Pixel position of a size (log2 x axis over sizes) and of a value
    (log10 y axis from lo to hi) in the panel at (x0, y0)."""
    slo, shi = math.log2(max(min(sizes), 1)), math.log2(max(max(sizes), 1))
    if shi - slo < 1e-9:
        shi = slo + 1

    def px(sz):
        return x0 + 5 + (W - 10) * (math.log2(max(sz, 1)) - slo) / (shi - slo)

    def py(v):
        return y0 + H - 5 - (H - 10) * (math.log10(v) - lo) / (hi - lo)
    return px, py


def ratio_panel(x0, y0, W, H, metric, np_, r):
    """ftmpi / min(others) against size, log scale, lines at 1 and 1.1."""
    s = ['<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>'
         % (x0, y0, W, H),
         '<text x="%d" y="%d" font-weight="bold">%s, np %d: ftmpi / faster other</text>'
         % (x0 + 4, y0 - 4, metric, np_)]
    r = [(sz, v) for sz, v in r if v > 0]
    if not r:
        return s
    lo = math.log10(min(min(v for _, v in r), 0.5))
    hi = math.log10(max(max(v for _, v in r), 2.0))
    szs = [max(sz, 1) for sz, _ in r]
    px, py = scales(x0, y0, W, H, szs, lo, hi)
    for v, dash in ((1.0, "4,3"), (1.1, "2,2")):
        s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#555" stroke-dasharray="%s"/>'
                 % (x0, x0 + W, py(v), py(v), dash))
        s.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (x0 - 3, py(v) + 4, v))
    for v in (0.1, 10, 100):
        if lo <= math.log10(v) <= hi:
            s.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (x0 - 3, py(v) + 4, v))
    for sz, v in r:
        s.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'
                 % (px(sz), py(v), "#d62728" if v > 1.1 else "#2ca02c"))
    if len(r) > 1:
        s.append('<polyline fill="none" stroke="#d62728" stroke-width="1" points="%s"/>'
                 % " ".join("%.1f,%.1f" % (px(sz), py(v)) for sz, v in r))
    for sz in (8, 1024, 1 << 20):
        if min(szs) <= sz <= max(szs):
            s.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                     % (px(sz), y0 + H + 12, size_label(sz) + ("" if sz == 8 else "iB")
                        if sz > 8 else "8 B"))
    return s


if __name__ == "__main__":
    sys.exit(main())
