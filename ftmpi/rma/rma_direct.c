/* Origin side of operations the origin does itself: loads and stores on a
 * window every member maps (RMA_VIA_SHM), or puts, gets and accumulates by
 * process_vm_readv/writev into the target's memory (RMA_VIA_CMA; the
 * accumulates in rma_cmacc.c). Accumulates, get-accumulates and
 * compare-and-swap run under the window's process-shared mutex, so each is
 * atomic with respect to every other on the window (MPI-3.1 11.7.1). */
#include "rma/rma.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "rma/rma_hwatom.h"

/* Put and get over CMA: one vectored call from the origin's (packed or
 * contiguous) data to the target's runs. */
static int cma_put_get(win_t *w, const rma_args_t *a, const rma_run_t *runs, size_t nruns,
                       uintptr_t rbase, size_t bytes)
{
    int put = a->kind == RMA_PUT;
    dt_t *ldt = put ? a->odt : a->rdt;
    size_t lcount = (size_t)(put ? a->ocount : a->rcount);
    char *lbuf = put ? (char *)a->obuf : (char *)a->rbuf;
    int contig = dt_is_contig(ldt, lcount);
    char *packed = contig ? lbuf + ldt->true_lb : malloc(bytes ? bytes : 1);
    if (!packed)
        return MPI_ERR_NO_MEM;
    if (put && !contig)
        dt_pack(ldt, lcount, lbuf, 0, packed, bytes);
    int rc = rma_cma_xfer(w, a->target, packed, rbase, runs, nruns, put);
    if (!put && !contig && rc == MPI_SUCCESS)
        dt_unpack(ldt, lcount, lbuf, 0, packed, bytes);
    if (!contig)
        free(packed);
    return rc;
}

int rma_atomic_apply(const rma_args_t *a, const rma_run_t *runs, size_t nruns, char *tbase,
                     const char *src, char *old, size_t bytes, int hw)
{
    if (a->kind == RMA_CAS) {
        rma_copy_out(tbase, runs, nruns, old);
        if (memcmp(old, a->cbuf, bytes) == 0)
            rma_apply(tbase, runs, nruns, a->obuf, NULL, NULL);
        return MPI_SUCCESS;
    }
    if (a->op->handle == MPI_NO_OP) {
        if (old && hw)
            return rma_hw_apply(tbase, runs, nruns, NULL, a->op, old);
        if (old)
            rma_copy_out(tbase, runs, nruns, old);
        return MPI_SUCCESS;
    }
    op_t *op = a->op->predefined && a->op->handle == MPI_REPLACE ? NULL : a->op;
    return hw ? rma_hw_apply(tbase, runs, nruns, src, op, old)
              : rma_apply(tbase, runs, nruns, src, op, old);
}

/* Accumulate, get-accumulate, compare-and-swap at tbase, in the segment. */
static int atomic_op(win_t *w, const rma_args_t *a, const rma_run_t *runs, size_t nruns,
                     char *tbase, const char *src, char *old, size_t bytes)
{
    rma_shm_lock_fp(w);
    int rc = rma_atomic_apply(a, runs, nruns, tbase, src, old, bytes, rma_hw_on(w));
    rma_shm_unlock(w);
    return rc;
}

/* One element of one predefined type at every side: a hardware atomic
 * where (type, op) has one (rma_hwatom.h). 0 when it does not apply. */
static int shm_hw_one(win_t *w, const rma_args_t *a, char *tbase)
{
    dt_t *t = a->tdt;
    if (a->tcount != 1 || !t->predefined)
        return 0;
    MPI_Op oph = a->kind == RMA_CAS ? MPI_OP_NULL : a->op->handle;
    int noop = a->kind != RMA_CAS && oph == MPI_NO_OP;
    if (!noop && (a->ocount != 1 || !a->odt || !a->odt->predefined || a->odt->kind != t->kind))
        return 0;
    if (a->kind != RMA_ACC && (a->rcount != 1 || !a->rdt->predefined || a->rdt->kind != t->kind))
        return 0;
    return rma_hw_try(w, a->kind, oph, t->kind, noop ? NULL : a->obuf, a->cbuf,
                      a->kind == RMA_ACC ? NULL : a->rbuf, tbase + t->true_lb);
}

/* A put or get whose origin and target data are both contiguous: one
 * memmove (the common case, kept short: it is the whole cost of a small
 * operation). 0 when it does not apply. */
static inline int shm_contig_copy(const rma_args_t *a, char *tbase)
{
    if (a->kind != RMA_PUT && a->kind != RMA_GET)
        return 0;
    dt_t *ldt = a->kind == RMA_PUT ? a->odt : a->rdt;
    size_t lcount = (size_t)(a->kind == RMA_PUT ? a->ocount : a->rcount);
    if (!dt_is_contig(ldt, lcount) || !dt_is_contig(a->tdt, (size_t)a->tcount))
        return 0;
    char *local = (char *)(a->kind == RMA_PUT ? a->obuf : a->rbuf) + ldt->true_lb;
    char *remote = tbase + a->tdt->true_lb;
    size_t bytes = (size_t)a->tcount * a->tdt->size;
    if (a->kind == RMA_PUT)
        memmove(remote, local, bytes);
    else
        memmove(local, remote, bytes);
    return 1;
}

int rma_start_direct(win_t *w, const rma_args_t *a)
{
    MPI_Aint at = a->tdisp * w->disp_units[a->target];
    char *tbase = NULL;
    uintptr_t rbase = 0;
    if (w->via == RMA_VIA_SHM) {
        tbase = (char *)w->seg + w->offs[a->target] + at;
        if (shm_contig_copy(a, tbase))
            return MPI_SUCCESS;
        if (a->kind == RMA_PUT)
            return coll_local_copy2(a->obuf, (size_t)a->ocount, a->odt, tbase,
                                    (size_t)a->tcount, a->tdt);
        if (a->kind == RMA_GET)
            return coll_local_copy2(tbase, (size_t)a->tcount, a->tdt, a->rbuf,
                                    (size_t)a->rcount, a->rdt);
        if (shm_hw_one(w, a, tbase))
            return MPI_SUCCESS;
    } else {
        rbase = (uintptr_t)w->bases[a->target] + (uintptr_t)at;
    }
    rma_run_t *runs;
    size_t nruns;
    int rc = rma_runs_of(a->tdt, a->tcount, &runs, &nruns);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t bytes = rma_runs_bytes(runs, nruns);
    if (a->kind == RMA_PUT || a->kind == RMA_GET) {
        rc = cma_put_get(w, a, runs, nruns, rbase, bytes);
        free(runs);
        return rc;
    }
    /* A contiguous origin is its own packed form: no copy. */
    int direct = a->kind != RMA_CAS && a->odt && dt_is_contig(a->odt, (size_t)a->ocount);
    char *in = direct ? NULL : malloc(bytes ? bytes : 1), *old = NULL;
    const char *src = direct ? (const char *)a->obuf + a->odt->true_lb : in;
    if (a->kind != RMA_ACC)
        old = malloc(bytes ? bytes : 1);
    if ((!direct && !in) || (a->kind != RMA_ACC && !old)) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    if (a->kind != RMA_CAS && a->odt && !direct)
        dt_pack(a->odt, (size_t)a->ocount, a->obuf, 0, in, bytes);
    rc = w->via == RMA_VIA_SHM ? atomic_op(w, a, runs, nruns, tbase, src, old, bytes)
                               : rma_cma_atomic(w, a, runs, nruns, rbase, src, old, bytes);
    if (rc == MPI_SUCCESS && a->kind == RMA_CAS)
        memcpy(a->rbuf, old, bytes);
    else if (rc == MPI_SUCCESS && old)
        dt_unpack(a->rdt, (size_t)a->rcount, a->rbuf, 0, old, bytes);
out:
    free(runs);
    free(in);
    free(old);
    return rc;
}
