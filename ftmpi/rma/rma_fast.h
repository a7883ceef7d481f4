/*
 * The short path of MPI_Put and MPI_Get on a mapped window (RMA_VIA_SHM):
 * predefined contiguous types, a target in an open access epoch, the range
 * inside its part. Then the operation is one memmove and nothing else; a
 * stream of small puts costs the copy plus a few compares (docs/rma.md,
 * "Performance").
 *
 * The datatype is looked up once per window: the general path, after it
 * did a put or get whose origin and target type are one predefined
 * contiguous type, remembers that handle and its size (rma_fast_learn).
 * Predefined handles name the same object until MPI_Finalize, so the
 * memory is never stale. Anything else (another type, a count mismatch, a
 * bad rank or displacement, no epoch) is left to the general path, which
 * makes every check and raises the error on the window's handler.
 */
#ifndef FTMPI_RMA_RMA_FAST_H
#define FTMPI_RMA_RMA_FAST_H

#include <string.h>

#include "rma/rma.h"
#include "util/handle.h"

extern handle_table_t rma_win_table; /* win.c */

/* The window behind h or NULL (win_get without the call). */
static inline win_t *rma_win_lookup(MPI_Win h)
{
    return handle_get(&rma_win_table, h);
}

/* After the general path did a contiguous put or get with type dt as
 * origin and target type on w. */
static inline void rma_fast_learn(win_t *w, MPI_Datatype h, const dt_t *dt)
{
    if (w->via == RMA_VIA_SHM && dt->predefined && dt->committed && dt->contig &&
        dt->true_lb == 0 && dt->size > 0 && h != MPI_LB && h != MPI_UB) {
        w->fast_dt = h;
        w->fast_size = dt->size;
    }
}

/* A put (put 1) or get of count elements of the remembered type between
 * lbuf and target's part at tdisp; 1: done, 0: the general path must
 * take it. The caller checked that w is mapped and its communicator
 * usable. */
static inline int rma_fast_copy(win_t *w, int put, void *lbuf, int ocount, MPI_Datatype otype,
                                int target, MPI_Aint tdisp, int tcount, MPI_Datatype ttype)
{
    if (otype != w->fast_dt || ttype != otype || ocount != tcount || tcount <= 0 ||
        (unsigned)target >= (unsigned)w->size || tdisp < 0 || w->wrank)
        return 0;
    if (!w->fence && !w->lock_all && w->access[target] == EP_NONE)
        return 0;
    size_t bytes = (size_t)tcount * w->fast_size; /* 0: nothing learnt yet */
    size_t room = (size_t)w->sizes[target], at;
    /* at + bytes <= room, without overflow (no division: it is slow) */
    if (!bytes || bytes > room ||
        __builtin_mul_overflow((size_t)tdisp, (size_t)w->disp_units[target], &at) ||
        at > room - bytes)
        return 0;
    char *remote = (char *)w->seg + w->offs[target] + at;
    if (put)
        memmove(remote, lbuf, bytes);
    else
        memmove(lbuf, remote, bytes);
    return 1;
}

#endif
