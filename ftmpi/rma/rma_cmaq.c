/*
 * Puts and gets by CMA (RMA_VIA_CMA), gathered: a contiguous put or get
 * without a request is not done at the call but queued, and the queue goes
 * to the kernel as one process_vm_writev/readv (up to CMAQ_MAX pairs of
 * iovecs) when the next operation cannot join it (another target, the
 * other direction, a full queue, any operation that is not queued) and at
 * every synchronization call (rma_wait_pending, and before a lock, unlock
 * or flush request leaves: the target must not grant the lock to another
 * origin while our puts are still to come). A system call costs as much as
 * a small transfer, so 64 small puts and a flush are one call where they
 * were 64.
 *
 * The standard allows it: the origin buffer of a put or get may not be
 * touched until the operation completes (a flush, unlock, fence or
 * complete), which is when the queue is sent, and the error of a queued
 * operation is the synchronization call's. Programs that reuse a small
 * put's buffer at once anyway (erroneous, but it worked when each put was
 * its own call) still work: a put up to CMAQ_COPY bytes is copied into the
 * queue at the call. A put to a target already known
 * dead still fails at the call (it is not queued).
 */
#include "rma/rma.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#define CMAQ_MAX 256        /* iovec pairs per call; the kernel takes up to IOV_MAX (1024) */
#define CMAQ_COPY 512       /* a put up to this size is copied at the call */
#define CMAQ_STAGE 16384    /* room for those copies */

struct rma_cmaq {
    int target, write;
    size_t n, bytes, staged;
    struct iovec l[CMAQ_MAX], r[CMAQ_MAX];
    char stage[CMAQ_STAGE];
};

int rma_cmaq_drain(win_t *w)
{
    rma_cmaq_t *q = w->cmaq;
    if (!q || !q->n)
        return MPI_SUCCESS;
    int rc = rma_cma_vec(w, q->target, q->l, q->r, q->n, q->bytes, q->write);
    q->n = q->bytes = q->staged = 0;
    if (rc != MPI_SUCCESS && w->err[q->target] == MPI_SUCCESS)
        w->err[q->target] = rc; /* the synchronization call reports it */
    return rc;
}

int rma_cmaq_add(win_t *w, const rma_args_t *a)
{
    int put = a->kind == RMA_PUT;
    dt_t *ldt = put ? a->odt : a->rdt;
    size_t lcount = (size_t)(put ? a->ocount : a->rcount);
    size_t bytes = (size_t)a->tcount * (size_t)a->tdt->size;
    if ((a->kind != RMA_PUT && a->kind != RMA_GET) || !bytes ||
        !dt_is_contig(ldt, lcount) || !dt_is_contig(a->tdt, (size_t)a->tcount) ||
        rma_peer_dead(w, a->target))
        return 0;
    if (!w->cmaq && !(w->cmaq = calloc(1, sizeof(*w->cmaq))))
        return 0;
    rma_cmaq_t *q = w->cmaq;
    int copy = put && bytes <= CMAQ_COPY;
    if (q->n && (q->target != a->target || q->write != put ||
                 (copy && q->staged + bytes > CMAQ_STAGE)))
        rma_cmaq_drain(w);
    q->target = a->target;
    q->write = put;
    char *local = (char *)(put ? a->obuf : a->rbuf) + ldt->true_lb;
    if (copy) { /* a small put's buffer is free at once, as when it was done at the call */
        memcpy(q->stage + q->staged, local, bytes);
        local = q->stage + q->staged;
        q->staged += bytes;
    }
    MPI_Aint at = a->tdisp * w->disp_units[a->target] + a->tdt->true_lb;
    q->l[q->n].iov_base = local;
    q->l[q->n].iov_len = bytes;
    q->r[q->n].iov_base = (char *)w->bases[a->target] + at;
    q->r[q->n].iov_len = bytes;
    q->bytes += bytes;
    if (++q->n == CMAQ_MAX)
        rma_cmaq_drain(w);
    return 1;
}

void rma_cmaq_free(win_t *w)
{
    free(w->cmaq);
    w->cmaq = NULL;
}
