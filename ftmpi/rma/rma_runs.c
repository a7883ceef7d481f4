/* Target layouts as runs of basic elements, and applying an operation
 * over them (rma.h). */
#include "rma/rma.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    rma_run_t *v;
    size_t n, cap;
} runs_acc_t;

static int add_run(void *arg, MPI_Aint disp, dt_kind_t kind, size_t n)
{
    runs_acc_t *a = arg;
    if (a->n && a->v[a->n - 1].kind == (uint32_t)kind && dt_kind_size(kind) == (size_t)dt_kind_extent(kind) &&
        a->v[a->n - 1].disp + (int64_t)(a->v[a->n - 1].n * dt_kind_size(kind)) == disp) {
        a->v[a->n - 1].n += n; /* continues the previous run */
        return 0;
    }
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 8;
        rma_run_t *v = realloc(a->v, cap * sizeof(*v));
        if (!v)
            return MPI_ERR_NO_MEM;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = (rma_run_t){disp, (uint32_t)kind, 0, n};
    return 0;
}

int rma_runs_of(dt_t *dt, int count, rma_run_t **runs, size_t *nruns)
{
    runs_acc_t a = {NULL, 0, 0};
    dt_kind_t k = dt->elem_kind;
    if (dt_is_contig(dt, (size_t)count) && k != DTK_NONE &&
        (MPI_Aint)dt_kind_size(k) == dt_kind_extent(k) && dt->size) {
        /* one run, without walking the type element by element */
        *runs = malloc(sizeof(rma_run_t));
        if (!*runs)
            return MPI_ERR_NO_MEM;
        (*runs)[0] = (rma_run_t){dt->true_lb, (uint32_t)k, 0,
                                 (uint64_t)count * (dt->size / dt_kind_size(k))};
        *nruns = 1;
        return MPI_SUCCESS;
    }
    int rc = dt_foreach_run(dt, (size_t)count, add_run, &a);
    if (rc != 0) {
        free(a.v);
        return rc;
    }
    *runs = a.v;
    *nruns = a.n;
    return MPI_SUCCESS;
}

size_t rma_runs_bytes(const rma_run_t *runs, size_t n)
{
    size_t b = 0;
    for (size_t i = 0; i < n; i++)
        b += runs[i].n * dt_kind_size((dt_kind_t)runs[i].kind);
    return b;
}

void rma_copy_out(const char *base, const rma_run_t *runs, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        size_t sz = dt_kind_size((dt_kind_t)runs[i].kind);
        MPI_Aint ext = dt_kind_extent((dt_kind_t)runs[i].kind);
        if ((MPI_Aint)sz == ext) {
            memcpy(out, base + runs[i].disp, runs[i].n * sz);
            out += runs[i].n * sz;
            continue;
        }
        for (size_t u = 0; u < runs[i].n; u++, out += sz)
            memcpy(out, base + runs[i].disp + (MPI_Aint)u * ext, sz);
    }
}

/* The predefined type of one basic kind (to hand op_apply). */
dt_t *rma_kind_type(dt_kind_t k)
{
    static dt_t *cache[DTK_COUNT_];
    if (!cache[k]) {
        for (int i = 1; i < 256; i++) {
            dt_t *d = dt_get(FTMPI_HANDLE(FTMPI_KIND_DATATYPE, i));
            if (d && d->predefined && d->kind == k) {
                cache[k] = d;
                break;
            }
        }
    }
    return cache[k];
}

int rma_apply(char *base, const rma_run_t *runs, size_t n, const char *in, op_t *op, char *old)
{
    if (old)
        rma_copy_out(base, runs, n, old);
    for (size_t i = 0; i < n; i++) {
        dt_kind_t k = (dt_kind_t)runs[i].kind;
        size_t sz = dt_kind_size(k), bytes = runs[i].n * sz;
        MPI_Aint ext = dt_kind_extent(k);
        char *at = base + runs[i].disp;
        if (!op) { /* MPI_REPLACE */
            if ((MPI_Aint)sz == ext)
                memcpy(at, in, bytes);
            else
                for (size_t u = 0; u < runs[i].n; u++)
                    memcpy(at + (MPI_Aint)u * ext, in + u * sz, sz);
        } else if ((MPI_Aint)sz == ext) {
            dt_t *kt = rma_kind_type(k);
            if (!kt || op_apply(op, in, at, (int)runs[i].n, kt) != MPI_SUCCESS)
                return MPI_ERR_OP;
        } else { /* padded pairs: one unit at a time */
            dt_t *kt = rma_kind_type(k);
            char unit[64];
            for (size_t u = 0; u < runs[i].n; u++) {
                memcpy(unit, in + u * sz, sz);
                if (!kt || op_apply(op, unit, at + (MPI_Aint)u * ext, 1, kt) != MPI_SUCCESS)
                    return MPI_ERR_OP;
            }
        }
        in += bytes;
    }
    return MPI_SUCCESS;
}

