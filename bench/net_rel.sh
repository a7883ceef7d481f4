#!/usr/bin/env bash
# net_rel.sh [BUILD_DIR] [ROUNDS]: the reliability layer's cost across two
# network namespaces (bench/net_netns.sh): ping-pong with ftmpirun
# --reliability=on and =off, and Open MPI's TCP path, ROUNDS rounds
# (default 3) alternating on/off/Open MPI, one run each per round; prints
# every run's markdown table into OUT_DIR (default a temp dir) and the
# per-size medians of on, off and Open MPI with the ratios. NO_OMPI=1 leaves
# Open MPI out (its runs through the namespace agent are no reference here);
# REL_AB='VAR=VAL ...' adds a kind "ab", the layer on with those variables
# passed to the ranks (e.g. REL_AB=FTMPI_REL_FRAG=131072: the fragment
# sizes before session 9), in the same rounds.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$ROOT/build}
rounds=${2:-3}
out=${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/net_rel.XXXXXX")}
args=(--bench pingpong --runs 1 --markdown -- --max-size 4194304 --reps 5 --batch-ms 10)
for r in $(seq "$rounds"); do
    FTMPIRUN_OPTS=--reliability=on "$ROOT/bench/net_netns.sh" "$build" -- --impl ftmpi \
        "${args[@]}" >"$out/on.$r.md" 2>"$out/on.$r.err"
    FTMPIRUN_OPTS=--reliability=off "$ROOT/bench/net_netns.sh" "$build" -- --impl ftmpi \
        "${args[@]}" >"$out/off.$r.md" 2>"$out/off.$r.err"
    if [ -n "${REL_AB:-}" ]; then
        ab=--reliability=on
        for v in $REL_AB; do ab+=" -x $v"; done
        FTMPIRUN_OPTS=$ab "$ROOT/bench/net_netns.sh" "$build" -- --impl ftmpi \
            "${args[@]}" >"$out/ab.$r.md" 2>"$out/ab.$r.err"
    fi
    [ "${NO_OMPI:-0}" = 1 ] ||
        "$ROOT/bench/net_netns.sh" "$build" -- --impl openmpi "${args[@]}" \
            >"$out/ompi.$r.md" 2>"$out/ompi.$r.err" || true
done
python3 - "$out" "$rounds" <<'PY'
import re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def tables(path):
    """{section: {size: value}} from a compare.sh markdown output."""
    res, sec = {}, None
    try:
        text = open(path).read()
    except OSError:
        return res
    for line in text.splitlines():
        m = re.match(r'#+\s*(latency|bandwidth)', line)
        if m:
            sec = m.group(1); res[sec] = {}; continue
        m = re.match(r'\|\s*([0-9]+[KM]?)\s*\|\s*([0-9.]+)\s*\|', line)
        if sec and m:
            res[sec][m.group(1)] = float(m.group(2))
    return res
runs = {k: [tables(f"{out}/{k}.{r}.md") for r in range(1, rounds + 1)] for k in ("on", "off", "ompi", "ab")}
has_ab = any(runs["ab"])
for sec in ("latency", "bandwidth"):
    print(f"\n{sec} (median of {rounds} runs)\n")
    print("| size | rel on | rel off | on/off | Open MPI | on/Open MPI |" + (" on, REL_AB | its on/off |" if has_ab else ""))
    print("| ---: | ---: | ---: | ---: | ---: | ---: |" + (" ---: | ---: |" if has_ab else ""))
    sizes = [s for s in runs["on"][0].get(sec, {})]
    for s in sizes:
        med = {}
        for k in runs:
            v = [t[sec][s] for t in runs[k] if sec in t and s in t[sec]]
            med[k] = statistics.median(v) if v else None
        f = lambda x: "-" if x is None else f"{x:.4g}"
        rat = lambda a, b: "-" if a is None or not b else f"{a / b:.2f}"
        print(f"| {s} | {f(med['on'])} | {f(med['off'])} | {rat(med['on'], med['off'])} | "
              f"{f(med['ompi'])} | {rat(med['on'], med['ompi'])} |" +
              (f" {f(med['ab'])} | {rat(med['ab'], med['off'])} |" if has_ab else ""))
PY
echo "(runs in $out)"
