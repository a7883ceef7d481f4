/*
 * Walking a datatype in typemap order: runs of basic units (the typed
 * program) for reductions and external32, byte runs (the raw program), and
 * the basic-element counts of MPI_Get_elements / MPI_Status_set_elements.
 */
#include "core/dt_internal.h"

#include <stdint.h>

typedef struct {
    int typed;
    dt_run_fn *run;
    dt_block_fn *block;
    void *arg;
} twalk_t;

static int seq_each(const twalk_t *w, const dt_op_t *ops, size_t nops, MPI_Aint base)
{
    for (size_t i = 0; i < nops; i++) {
        const dt_op_t *o = &ops[i];
        MPI_Aint p = base + o->disp;
        int rc;
        if (o->code == DT_OP_LOOP) {
            for (size_t k = 0; k < o->count; k++, p += o->stride)
                if ((rc = seq_each(w, ops + i + 1, o->body, p)) != 0)
                    return rc;
            i += o->body;
            continue;
        }
        for (size_t k = 0; k < o->count; k++, p += o->stride) {
            rc = w->typed ? w->run(w->arg, p, (dt_kind_t)o->kind, o->n)
                          : w->block(w->arg, p, o->bytes);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

static int each(const twalk_t *w, const dt_t *dt, size_t count)
{
    const dt_prog_t *pg = w->typed ? &dt->typed : &dt->raw;
    if (pg->nops == 0 || count == 0)
        return 0;
    const dt_op_t *o = &pg->ops[0];
    if (pg->nops == 1 && o->code == DT_OP_LEAF && o->count == 1) {
        /* One run per element: one call when the elements touch. */
        MPI_Aint unit = w->typed ? dt_kind_extent((dt_kind_t)o->kind) : 1;
        if (dt->extent == (MPI_Aint)o->n * unit)
            return w->typed ? w->run(w->arg, o->disp, (dt_kind_t)o->kind, o->n * count)
                            : w->block(w->arg, o->disp, o->bytes * count);
    }
    MPI_Aint base = 0;
    for (size_t e = 0; e < count; e++, base += dt->extent) {
        int rc = seq_each(w, pg->ops, pg->nops, base);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int dt_foreach_run(const dt_t *dt, size_t count, dt_run_fn *fn, void *arg)
{
    twalk_t w = {.typed = 1, .run = fn, .arg = arg};
    return each(&w, dt, count);
}

int dt_foreach_block(const dt_t *dt, size_t count, dt_block_fn *fn, void *arg)
{
    twalk_t w = {.typed = 0, .block = fn, .arg = arg};
    return each(&w, dt, count);
}

/* ---- basic elements ---------------------------------------------------- */

/* Bytes of the first member of a two-element unit (pairs). */
static size_t pair_first(dt_kind_t k)
{
    switch (k) {
    case DTK_2FINT: case DTK_2FREAL: case DTK_2FDOUBLE:
        return dt_kind_size(k) / 2;
    default:
        return dt_kind_size(k) - sizeof(int); /* {value, int} */
    }
}

typedef struct {
    size_t left;        /* bytes (elements_in) or elements (bytes_of) to go */
    MPI_Count count;    /* elements (elements_in) or bytes (bytes_of) so far */
    int undefined;
} ecount_t;

enum { EC_STOP = 1 };

static int count_elements(void *arg, MPI_Aint disp, dt_kind_t k, size_t n)
{
    ecount_t *c = arg;
    size_t usz = dt_kind_size(k), el = dt_kind_elems(k);
    if (usz == 0)
        return 0;
    size_t full = c->left / usz;
    if (full >= n) {
        c->left -= n * usz;
        c->count += (MPI_Count)(n * el);
        return c->left ? 0 : EC_STOP;
    }
    c->left -= full * usz;
    c->count += (MPI_Count)(full * el);
    if (el == 2 && c->left == pair_first(k)) {
        c->count += 1; /* the value of a pair, without its index */
        c->left = 0;
    }
    if (c->left)
        c->undefined = 1;
    return EC_STOP;
}

MPI_Count dt_elements_in(const dt_t *dt, size_t bytes)
{
    if (dt->size == 0)
        return 0;
    size_t whole = bytes / dt->size, rest = bytes % dt->size;
    MPI_Count n = (MPI_Count)(whole * dt->elem_count);
    if (rest == 0)
        return n;
    ecount_t c = {.left = rest};
    dt_foreach_run(dt, 1, count_elements, &c);
    if (c.undefined || c.left)
        return MPI_UNDEFINED;
    return n + c.count;
}

static int count_bytes(void *arg, MPI_Aint disp, dt_kind_t k, size_t n)
{
    ecount_t *c = arg;
    size_t usz = dt_kind_size(k), el = dt_kind_elems(k);
    if (usz == 0 || el == 0)
        return 0;
    size_t full = c->left / el;
    if (full >= n) {
        c->left -= n * el;
        c->count += (MPI_Count)(n * usz);
        return c->left ? 0 : EC_STOP;
    }
    c->left -= full * el;
    c->count += (MPI_Count)(full * usz);
    if (c->left) { /* one element of a pair: its value */
        c->count += (MPI_Count)pair_first(k);
        c->left = 0;
    }
    return EC_STOP;
}

size_t dt_bytes_of_elements(const dt_t *dt, MPI_Count elements)
{
    if (elements <= 0)
        return 0;
    if (dt->elem_count == 0)
        return SIZE_MAX;
    size_t whole = (size_t)elements / dt->elem_count;
    size_t rest = (size_t)elements % dt->elem_count;
    size_t bytes = whole * dt->size;
    if (rest == 0)
        return bytes;
    ecount_t c = {.left = rest};
    dt_foreach_run(dt, 1, count_bytes, &c);
    if (c.left)
        return SIZE_MAX;
    return bytes + (size_t)c.count;
}
