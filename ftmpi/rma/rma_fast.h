/*
 * The short path of MPI_Put, MPI_Get and MPI_Accumulate on a mapped window
 * (RMA_VIA_SHM): one predefined contiguous type as origin and target type,
 * a target in an open access epoch, the range inside its part. Then a put
 * or get is one memmove and an accumulate one reduction under the
 * segment's mutex, and nothing else (docs/rma.md, "Performance").
 *
 * The checks that need a lookup are made once per window: the general
 * path, after it did such an operation, remembers the type handle (and for
 * an accumulate the op handle) with what it checked (rma_fast_learn).
 * Predefined handles name the same object until MPI_Finalize, so what is
 * remembered never goes stale. Anything else (another type or op, a count
 * mismatch, a bad rank or displacement, no epoch) is left to the general
 * path, which makes every check and raises the error on the window's
 * handler.
 */
#ifndef FTMPI_RMA_RMA_FAST_H
#define FTMPI_RMA_RMA_FAST_H

#include <string.h>

#include "rma/rma.h"
#include "rma/rma_hwatom.h"
#include "util/handle.h"

extern handle_table_t rma_win_table; /* win.c */

/* The window behind h or NULL (win_get without the call). */
static inline win_t *rma_win_lookup(MPI_Win h)
{
    return handle_get(&rma_win_table, h);
}

/* After the general path did a contiguous put or get (op NULL) or an
 * accumulate with op, with type dt (handle h) as origin and target type. */
static inline void rma_fast_learn(win_t *w, MPI_Datatype h, dt_t *dt, MPI_Op oph, op_t *op)
{
    if (w->via != RMA_VIA_SHM || !dt->predefined || !dt->committed || !dt->contig ||
        dt->true_lb != 0 || dt->size <= 0 || h == MPI_LB || h == MPI_UB)
        return;
    if (op && (!op->predefined || oph == MPI_REPLACE || oph == MPI_NO_OP))
        return;
    rma_fast_t *f = &w->fast[op != NULL];
    f->dt_h = h;
    f->dt = dt;
    f->size = (size_t)dt->size;
    f->op_h = oph;
    f->op = op;
    f->hw = rma_hw_size(dt->kind);
}

/* After the general path did a fetch-and-op (slot 2, op oph) or a
 * compare-and-swap (slot 3, MPI_OP_NULL) with type dt (handle h) that a
 * hardware atomic serves (rma_hwatom.h). */
static inline void rma_fast_learn_hw(win_t *w, int slot, MPI_Datatype h, dt_t *dt, MPI_Op oph)
{
    if (w->via != RMA_VIA_SHM || !dt->predefined || !rma_hw_size(dt->kind) ||
        !rma_hw_op(slot == 3 ? RMA_CAS : RMA_GACC, oph))
        return;
    rma_fast_t *f = &w->fast[slot];
    f->dt_h = h;
    f->dt = dt;
    f->size = f->hw = rma_hw_size(dt->kind);
    f->op_h = oph;
    f->op = NULL;
}

/* Where in the segment the operation goes, with f's type; NULL: the
 * general path must take it. */
static inline char *rma_fast_at(win_t *w, const rma_fast_t *f, int ocount, MPI_Datatype otype,
                                int target, MPI_Aint tdisp, int tcount, MPI_Datatype ttype,
                                size_t *bytes)
{
    if (otype != f->dt_h || ttype != otype || ocount != tcount || tcount <= 0 ||
        (unsigned)target >= (unsigned)w->size || tdisp < 0 || w->wrank)
        return NULL;
    if (!w->fence && !w->lock_all && w->access[target] == EP_NONE)
        return NULL;
    size_t n = (size_t)tcount * f->size; /* 0: nothing learnt yet */
    size_t room = (size_t)w->sizes[target], at;
    /* at + n <= room, without overflow (no division: it is slow) */
    if (!n || n > room ||
        __builtin_mul_overflow((size_t)tdisp, (size_t)w->disp_units[target], &at) ||
        at > room - n)
        return NULL;
    *bytes = n;
    w->fence_ops |= w->fence;
    return (char *)w->seg + w->offs[target] + at;
}

/* A put (put 1) or get between lbuf and the target; 1: done, 0: the
 * general path must take it. The caller checked that w is mapped and its
 * communicator usable (api_win_fast). */
static inline int rma_fast_copy(win_t *w, int put, void *lbuf, int ocount, MPI_Datatype otype,
                                int target, MPI_Aint tdisp, int tcount, MPI_Datatype ttype)
{
    size_t bytes;
    char *remote = rma_fast_at(w, &w->fast[0], ocount, otype, target, tdisp, tcount, ttype, &bytes);
    if (!remote)
        return 0;
    if (put)
        memmove(remote, lbuf, bytes);
    else
        memmove(lbuf, remote, bytes);
    return 1;
}

/* An accumulate of the learnt op: the reduction under the mutex, which
 * keeps it atomic with respect to every other accumulate on the window. */
static inline int rma_fast_acc(win_t *w, const void *obuf, int ocount, MPI_Datatype otype,
                               int target, MPI_Aint tdisp, int tcount, MPI_Datatype ttype,
                               MPI_Op oph)
{
    const rma_fast_t *f = &w->fast[1];
    size_t bytes;
    char *remote;
    if (oph != f->op_h ||
        !(remote = rma_fast_at(w, f, ocount, otype, target, tdisp, tcount, ttype, &bytes)))
        return 0;
    if (tcount == 1 && f->hw && rma_hw_op(RMA_ACC, oph)) /* one instruction (0: unaligned) */
        return rma_hw_try(w, RMA_ACC, oph, f->dt->kind, obuf, NULL, NULL, remote);
    rma_shm_lock(w);
    int rc = f->hw && rma_hw_on(w) ? rma_hw_apply_run(remote, (size_t)tcount, f->dt->kind, obuf,
                                                      f->op, NULL)
                                   : op_apply(f->op, obuf, remote, tcount, f->dt);
    rma_shm_unlock(w);
    return rc == MPI_SUCCESS;  /* not learnt unless it applies: never fails */
}

/* MPI_Fetch_and_op (cmp NULL; learnt op oph) or MPI_Compare_and_swap of
 * the learnt type by a hardware atomic; 1: done, 0: the general path. */
static inline int rma_fast_hw(win_t *w, const void *obuf, const void *cmp, void *rbuf,
                              MPI_Datatype dt, int target, MPI_Aint tdisp, MPI_Op oph)
{
    const rma_fast_t *f = &w->fast[cmp ? 3 : 2];
    size_t bytes;
    char *remote;
    if (oph != f->op_h || !(remote = rma_fast_at(w, f, 1, dt, target, tdisp, 1, dt, &bytes)))
        return 0;
    return rma_hw_try(w, cmp ? RMA_CAS : RMA_GACC, oph, f->dt->kind, obuf, cmp, rbuf, remote);
}

#endif
