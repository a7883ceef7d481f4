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
 * operation is the synchronization call's. A put to a target already known
 * dead still fails at the call (it is not queued).
 */
#include "rma/rma.h"

#include <stdlib.h>
#include <sys/uio.h>

#define CMAQ_MAX 256 /* iovec pairs per call; the kernel takes up to IOV_MAX (1024) */

struct rma_cmaq {
    int target, write;
    size_t n, bytes;
    struct iovec l[CMAQ_MAX], r[CMAQ_MAX];
};

int rma_cmaq_drain(win_t *w)
{
    rma_cmaq_t *q = w->cmaq;
    if (!q || !q->n)
        return MPI_SUCCESS;
    int rc = rma_cma_vec(w, q->target, q->l, q->r, q->n, q->bytes, q->write);
    q->n = q->bytes = 0;
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
    if (q->n && (q->target != a->target || q->write != put))
        rma_cmaq_drain(w);
    q->target = a->target;
    q->write = put;
    char *local = (char *)(put ? a->obuf : a->rbuf) + ldt->true_lb;
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
