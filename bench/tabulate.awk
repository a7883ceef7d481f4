# tabulate.awk: turn benchmark outputs into one table per metric (used by compare.sh).
#
# Input files are named <impl>.<anything>, one per run; their lines
#   <metric> <size> <value>              a measurement
#   # unit <metric> <unit> <lower|higher> how the metric reads
# Everything else is ignored.
# Variables: impls = space-separated implementations, in column order
#            md = 1 for Markdown output
# Each cell is the median over the runs of that implementation. When ftmpi is
# among impls, the ratio columns ftmpi/<other> = ftmpi value / other value follow.
# Portable awk (mawk, gawk, busybox): no asort, no gensub.

function median(key, n,    i, j, t, a) {
    for (i = 1; i <= n; i++) a[i] = val[key, i]
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function fmt(v) {
    if (v >= 100) return sprintf("%.1f", v)
    if (v >= 10) return sprintf("%.2f", v)
    return sprintf("%.3f", v)
}

function human(s) {
    if (s >= 1048576 && s % 1048576 == 0) return (s / 1048576) "M"
    if (s >= 1024 && s % 1024 == 0) return (s / 1024) "K"
    return s ""
}

function row(cells, ncells,    i, line) {
    if (md) {
        line = "|"
        for (i = 1; i <= ncells; i++) line = line " " cells[i] " |"
    } else {
        line = sprintf("%8s", cells[1])
        for (i = 2; i <= ncells; i++) line = line sprintf(" %14s", cells[i])
    }
    print line
}

BEGIN {
    nimp = split(impls, imp, " ")
    label["ftmpi"] = "ftmpi"; label["openmpi"] = "Open MPI"; label["mpich"] = "MPICH"
    short["ftmpi"] = "ftmpi"; short["openmpi"] = "OpenMPI"; short["mpich"] = "MPICH"
    have_ft = 0
    for (i = 1; i <= nimp; i++) if (imp[i] == "ftmpi") have_ft = 1
}

FNR == 1 {
    cur = FILENAME
    sub(/.*\//, "", cur)
    sub(/\..*/, "", cur)
}

/^#[ \t]*unit[ \t]/ {
    unit[$3] = $4
    better[$3] = $5
    next
}

/^#/ { next }

NF == 3 && $1 ~ /^[A-Za-z_][A-Za-z0-9_.\/-]*$/ && $2 ~ /^[0-9]+$/ &&
$3 ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ {
    m = $1; s = $2 + 0
    if (!(m in mseen)) { mseen[m] = 1; mord[++nm] = m }
    if (!((m, s) in sseen)) { sseen[m, s] = 1; nsz[m]++; sord[m, nsz[m]] = s }
    k = m SUBSEP s SUBSEP cur
    cnt[k]++
    val[k, cnt[k]] = $3 + 0
}

END {
    if (nm == 0) {
        print "tabulate: no '<metric> <size> <value>' lines in the outputs" > "/dev/stderr"
        exit 1
    }
    for (mi = 1; mi <= nm; mi++) {
        m = mord[mi]
        # sizes ascending
        n = nsz[m]
        for (i = 1; i <= n; i++) sz[i] = sord[m, i]
        for (i = 2; i <= n; i++) {
            t = sz[i]
            for (j = i - 1; j >= 1 && sz[j] > t; j--) sz[j + 1] = sz[j]
            sz[j + 1] = t
        }

        title = m
        if (m in unit) {
            title = title " (" unit[m]
            if (better[m] == "lower" || better[m] == "higher")
                title = title ", " better[m] " is better"
            title = title ")"
        }
        if (md) print "### " title "\n"
        else print title

        nc = 0
        hdr[++nc] = "size"
        for (i = 1; i <= nimp; i++) hdr[++nc] = label[imp[i]]
        if (have_ft)
            for (i = 1; i <= nimp; i++)
                if (imp[i] != "ftmpi") hdr[++nc] = "ftmpi/" short[imp[i]]
        row(hdr, nc)
        if (md) {
            for (i = 1; i <= nc; i++) sep[i] = "---:"
            row(sep, nc)
        }

        for (si = 1; si <= n; si++) {
            s = sz[si]
            nc = 0
            cell[++nc] = human(s)
            for (i = 1; i <= nimp; i++) {
                k = m SUBSEP s SUBSEP imp[i]
                if (k in cnt) { med[imp[i]] = median(k, cnt[k]); cell[++nc] = fmt(med[imp[i]]) }
                else { med[imp[i]] = ""; cell[++nc] = "-" }
            }
            if (have_ft)
                for (i = 1; i <= nimp; i++) {
                    if (imp[i] == "ftmpi") continue
                    if (med["ftmpi"] != "" && med[imp[i]] != "" && med[imp[i]] + 0 != 0)
                        cell[++nc] = sprintf("%.2f", med["ftmpi"] / med[imp[i]])
                    else
                        cell[++nc] = "-"
                }
            row(cell, nc)
        }
        print ""
    }
}
