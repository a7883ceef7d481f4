/*
 * Accumulates by CMA (MPI_Win_create on one host, RMA_VIA_CMA): the origin
 * applies an accumulate, get-accumulate or compare-and-swap itself, as a
 * read-modify-write of the target's memory by process_vm_readv/writev
 * under the window's accumulate mutex (a process-shared robust mutex on a
 * page every member maps, win.c). The target takes the same mutex when it
 * applies a request that came as a message, so every accumulate on the
 * window is atomic with respect to every other, element by element
 * (MPI-3.1 11.7.1), whichever way it went. Nothing of the target runs: an
 * accumulate no longer waits for the target to be scheduled and to call
 * MPI, and no data is packed into a message and unpacked again.
 *
 * Ordering (accumulate_ordering rar,raw,war,waw, the default): an
 * accumulate done here is complete at the call, so one that follows it
 * over messages comes later anyway; one that precedes it over messages to
 * the same target may still be on its way, so those are completed first
 * (a flush to that target; its error is kept for the synchronization call).
 *
 * Small plain accumulates stay messages: gathered into one message they
 * cost less than two system calls each (RMA_CMA_ACC_MIN, measured:
 * docs/rma.md). Kinds with padding (MPI_FLOAT_INT ...) stay messages too.
 */
#include "rma/rma.h"

#include <stdlib.h>
#include <string.h>

/* A plain accumulate (no result) of fewer bytes goes as a message. */
#define RMA_CMA_ACC_MIN 16384
#define STACK_BYTES 256

int rma_cma_atomic_ready(win_t *w, const rma_args_t *a)
{
    if (w->via != RMA_VIA_CMA || !w->seg ||
        (a->kind != RMA_ACC && a->kind != RMA_GACC && a->kind != RMA_CAS))
        return 0;
    dt_kind_t k = a->tdt->elem_kind;
    if (k == DTK_NONE || dt_kind_size(k) != (size_t)dt_kind_extent(k))
        return 0;
    if (a->kind == RMA_ACC && (size_t)a->tcount * (size_t)a->tdt->size < RMA_CMA_ACC_MIN)
        return 0;
    int t = a->target;
    if (w->pending[t] || w->batch[t].len || w->unflushed[t]) {
        int rc = rma_wait_pending(w, t); /* what went before is applied first */
        if (rc != MPI_SUCCESS && w->err[t] == MPI_SUCCESS)
            w->err[t] = rc;
    }
    return 1;
}

int rma_cma_atomic(win_t *w, const rma_args_t *a, const rma_run_t *runs, size_t nruns,
                   uintptr_t rbase, const char *src, char *old, size_t bytes)
{
    int t = a->target;
    int replace = a->kind == RMA_ACC && a->op->predefined && a->op->handle == MPI_REPLACE;
    if (replace) { /* nothing to read: the write under the mutex */
        rma_shm_lock(w);
        int rc = rma_cma_xfer(w, t, (char *)src, rbase, runs, nruns, 1);
        rma_shm_unlock(w);
        return rc;
    }
    /* The target's values, packed: the same runs laid end to end. */
    rma_run_t one, *packed_runs = nruns == 1 ? &one : malloc(nruns * sizeof(rma_run_t));
    char small[STACK_BYTES], *cur = bytes <= sizeof(small) ? small : malloc(bytes);
    int rc = MPI_ERR_NO_MEM;
    if (!packed_runs || !cur)
        goto out;
    size_t off = 0;
    for (size_t i = 0; i < nruns; i++) {
        packed_runs[i] = runs[i];
        packed_runs[i].disp = (int64_t)off;
        off += runs[i].n * dt_kind_size((dt_kind_t)runs[i].kind);
    }
    int changes = a->kind == RMA_CAS || a->op->handle != MPI_NO_OP;
    rma_shm_lock_fp(w);
    rc = rma_cma_xfer(w, t, cur, rbase, runs, nruns, 0);
    if (rc == MPI_SUCCESS)
        rc = rma_atomic_apply(a, packed_runs, nruns, cur, src, old, bytes, 0);
    if (rc == MPI_SUCCESS && a->kind == RMA_CAS)
        changes = memcmp(old, a->cbuf, bytes) == 0;
    if (rc == MPI_SUCCESS && changes)
        rc = rma_cma_xfer(w, t, cur, rbase, runs, nruns, 1);
    rma_shm_unlock(w);
out:
    if (packed_runs != &one)
        free(packed_runs);
    if (cur != small)
        free(cur);
    return rc;
}
