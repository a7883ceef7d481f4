/* File views: the filetype's runs, and data bytes of the view to file bytes. */
#include "io/io.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/err_cause.h"

typedef struct {
    io_run_t *runs;
    size_t n, cap;
    MPI_Offset data;
    int bad;            /* a negative or decreasing displacement */
    int overlap;        /* a block starts before the previous one ends */
} runs_acc_t;

static int add_run(void *arg, MPI_Aint disp, size_t len)
{
    runs_acc_t *a = arg;
    if (len == 0)
        return 0;
    if (disp < 0 || (a->n && disp < a->runs[a->n - 1].disp)) {
        a->bad = 1;
        return 1;
    }
    io_run_t *last = a->n ? &a->runs[a->n - 1] : NULL;
    if (last && disp < last->disp + last->len)
        a->overlap = 1;
    if (last && last->disp + last->len == disp) {
        last->len += (MPI_Offset)len;
    } else {
        if (a->n == a->cap) {
            size_t nc = a->cap ? 2 * a->cap : 8;
            io_run_t *p = realloc(a->runs, nc * sizeof(*p));
            if (!p)
                return 2;
            a->runs = p;
            a->cap = nc;
        }
        a->runs[a->n++] = (io_run_t){.disp = disp, .len = (MPI_Offset)len, .before = a->data};
    }
    a->data += (MPI_Offset)len;
    return 0;
}

void io_view_free(io_file_t *f)
{
    if (f->etype)
        dt_release(f->etype);
    if (f->filetype)
        dt_release(f->filetype);
    free(f->runs);
    f->etype = f->filetype = NULL;
    f->runs = NULL;
    f->nruns = 0;
}

/* Install a view (types retained); no collective step. */
static int install(io_file_t *f, MPI_Offset disp, dt_t *etype, dt_t *ft, io_drep_t *d)
{
    if (etype->size == 0)
        return err_cause(MPI_ERR_TYPE, "the etype holds no data");
    if (ft->size == 0)
        return err_cause(MPI_ERR_TYPE, "the filetype holds no data");
    if (ft->size % etype->size)
        return err_cause(MPI_ERR_TYPE, "the filetype's %zu bytes are not whole etypes of %zu",
                         ft->size, etype->size);
    if (ft->extent <= 0)
        return err_cause(MPI_ERR_TYPE, "the filetype's extent %ld is not positive",
                         (long)ft->extent);
    /* the runs as the file holds them (the representation's sizes) */
    MPI_Offset esize;
    MPI_Aint lb, ext;
    int fn_rc;
    runs_acc_t a = {0};
    int rc = io_drep_bytes(d, etype, 1, &esize);
    if (rc == MPI_SUCCESS)
        rc = io_drep_layout(d, ft, add_run, &a, &lb, &ext, &fn_rc);
    if (rc != MPI_SUCCESS || fn_rc) {
        free(a.runs);
        return rc != MPI_SUCCESS ? rc : fn_rc == 2 ? MPI_ERR_NO_MEM
                       : err_cause(MPI_ERR_TYPE, "the filetype's displacements are negative "
                                                 "or decreasing");
    }
    if (ext <= 0) {
        free(a.runs);
        return err_cause(MPI_ERR_TYPE, "the filetype's extent in the file (%ld) is not "
                                       "positive", (long)ext);
    }
    /* MPI-4.0 14.3: a file opened for writing takes no filetype whose
     * blocks overlap, within a tile or from one tile into the next (a
     * tile spans [lb, lb + extent) of the typemap) */
    if ((f->amode & (MPI_MODE_WRONLY | MPI_MODE_RDWR)) &&
        (a.overlap || (a.n && (a.runs[0].disp < lb ||
                               a.runs[a.n - 1].disp + a.runs[a.n - 1].len > lb + ext)))) {
        free(a.runs);
        return err_cause(MPI_ERR_TYPE, "the filetype's blocks overlap, and the file is open "
                                       "for writing");
    }
    dt_retain(etype);
    dt_retain(ft);
    io_view_free(f);
    f->disp = disp;
    f->etype = etype;
    f->filetype = ft;
    f->drep = d;
    f->runs = a.runs;
    f->nruns = a.n;
    f->tile_data = a.data;
    f->tile_ext = ext;
    f->esize = esize;
    f->pos = 0;
    return MPI_SUCCESS;
}

int io_view_default(io_file_t *f)
{
    dt_t *b = dt_get(MPI_BYTE);
    return install(f, 0, b, b, io_drep_find("native"));
}

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

int io_set_view(io_file_t *f, MPI_Offset disp, dt_t *etype, dt_t *filetype,
                const char *datarep, info_t *info)
{
    io_drep_t *d = io_drep_find(datarep);
    /* the datarep and the etype's size must agree across the group */
    int rc = io_same(f, (int64_t)(name_hash(datarep) >> 1), "data representations");
    if (rc == MPI_SUCCESS)
        rc = io_same(f, (int64_t)etype->size, "etype sizes");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!d)
        return err_cause(MPI_ERR_UNSUPPORTED_DATAREP, "no data representation \"%s\"", datarep);
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        MPI_Offset sp = 0;
        if (!(f->amode & MPI_MODE_SEQUENTIAL))
            rc = err_cause(MPI_ERR_ARG, "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL");
        else
            rc = io_shared_fetch_add(f, 0, &sp);
        disp = io_view_byte(f, sp * f->esize);
    } else if (disp < 0) {
        rc = err_cause(MPI_ERR_ARG, "displacement %lld is negative", (long long)disp);
    }
    /* filetypes differ between members: all learn whether each took its view */
    if (rc == MPI_SUCCESS)
        rc = install(f, disp, etype, filetype, d);
    int bad = rc != MPI_SUCCESS, any = 0;
    int rc2 = io_healthy(f) ? coll_allreduce(f->comm, &bad, &any, 1, dt_get(MPI_INT),
                                             op_get(MPI_MAX))
                            : MPI_ERR_OTHER;
    if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS)
        return rc != MPI_SUCCESS ? rc : rc2;
    if (any)
        return err_cause(MPI_ERR_OTHER, "another process's view was refused");
    if (info) {
        info_t *n = info_dup(info);
        if (!n)
            return MPI_ERR_NO_MEM;
        if (f->info)
            info_release(f->info);
        f->info = n;
    }
    /* the shared pointer goes to 0 too: once (everyone is past the
     * agreement above), before anyone uses it again */
    if (f->comm->rank == 0 && f->sfp_fd >= 0)
        rc = io_shared_set(f, 0);
    rc2 = io_barrier(f);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* The run of tile data offset w (binary search on `before`). */
static size_t run_of(const io_file_t *f, MPI_Offset w)
{
    size_t lo = 0, hi = f->nruns - 1;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (f->runs[mid].before <= w)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

MPI_Offset io_view_byte(const io_file_t *f, MPI_Offset b)
{
    MPI_Offset tile = b / f->tile_data, w = b % f->tile_data;
    const io_run_t *r = &f->runs[run_of(f, w)];
    return f->disp + tile * f->tile_ext + r->disp + (w - r->before);
}

MPI_Offset io_view_data_before(const io_file_t *f, MPI_Offset abs)
{
    if (abs <= f->disp)
        return 0;
    MPI_Offset rel = abs - f->disp;
    MPI_Offset tiles = rel / f->tile_ext, rem = rel % f->tile_ext;
    MPI_Offset data = tiles * f->tile_data;
    for (size_t i = 0; i < f->nruns && f->runs[i].disp < rem; i++) {
        MPI_Offset in = rem - f->runs[i].disp;
        data += in < f->runs[i].len ? in : f->runs[i].len;
    }
    return data;
}

int io_view_pieces(const io_file_t *f, MPI_Offset b, MPI_Offset len, io_piece_fn *fn, void *arg)
{
    MPI_Offset done = 0, p_off = 0, p_len = 0, p_data = 0;
    MPI_Offset tile = b / f->tile_data, w = b % f->tile_data;
    size_t k = run_of(f, w);
    while (done < len) {
        const io_run_t *r = &f->runs[k];
        MPI_Offset in = w - r->before, n = r->len - in;
        if (n > len - done)
            n = len - done;
        MPI_Offset at = f->disp + tile * f->tile_ext + r->disp + in;
        if (p_len && p_off + p_len == at) {
            p_len += n; /* adjacent in the file: one piece */
        } else {
            if (p_len) {
                int rc = fn(arg, p_off, p_len, p_data);
                if (rc)
                    return rc;
            }
            p_off = at;
            p_len = n;
            p_data = done;
        }
        done += n;
        w += n;
        if (w >= f->tile_data) {
            tile++;
            w = 0;
            k = 0;
        } else if (w >= r->before + r->len) {
            k++;
        }
    }
    return p_len ? fn(arg, p_off, p_len, p_data) : 0;
}

int io_seek(io_file_t *f, MPI_Offset cur, MPI_Offset offset, int whence, MPI_Offset *out)
{
    MPI_Offset base;
    switch (whence) {
    case MPI_SEEK_SET: base = 0; break;
    case MPI_SEEK_CUR: base = cur; break;
    case MPI_SEEK_END: {
        MPI_Offset size;
        int rc = io_get_size(f, &size);
        if (rc != MPI_SUCCESS)
            return rc;
        base = (io_view_data_before(f, size) + f->esize - 1) / f->esize;
        break;
    }
    default:
        return err_cause(MPI_ERR_ARG, "whence %d is not MPI_SEEK_SET, _CUR or _END", whence);
    }
    if (base + offset < 0)
        return err_cause(MPI_ERR_ARG, "the position %lld would be before the view's start",
                         (long long)(base + offset));
    *out = base + offset;
    return MPI_SUCCESS;
}
