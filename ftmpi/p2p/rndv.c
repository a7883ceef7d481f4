/*
 * Rendezvous single copy: the receiver reads the sender's memory with
 * process_vm_readv, straight from where the data lies into where it goes.
 *
 * The sender's side is one run (a contiguous buffer: the RTS carries its
 * address) or a list of runs (a non-contiguous datatype whose runs are
 * long, dt_iov_worthwhile: the sender writes the list into its own memory
 * and the RTS carries the list's address and length, PKT_F_IOV). The
 * receiver reads the list first (one small read), then the data, run list
 * against run list, up to IOV_MAX entries a side per call. The receiver's
 * side is its contiguous buffer or the long runs of its datatype (a receive
 * datatype of short runs streams instead: deliver_into in p2p.c).
 */
#include "p2p/p2p_int.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>

/* Entries per side of one process_vm_readv (the kernel's UIO_MAXIOV). */
#define RNDV_IOV 1024

int rndv_send_iov(req_t *r, pkt_t *p)
{
    size_t count = (size_t)r->count, max = (size_t)r->dt->nruns * count + 1;
    struct iovec *iov = malloc(max * sizeof(*iov));
    if (!iov)
        return MPI_ERR_NO_MEM;
    size_t n = 0;
    for (size_t off = 0; off < r->bytes;) {
        size_t bytes = 0;
        size_t room = max - n < RNDV_IOV ? max - n : RNDV_IOV;
        int k = dt_iov(r->dt, count, r->buf, off, r->bytes - off, iov + n, (int)room, &bytes);
        if (k <= 0 || bytes == 0) {
            free(iov);
            return MPI_ERR_INTERN;
        }
        n += (size_t)k;
        off += bytes;
    }
    free(r->pack_tmp);
    r->pack_tmp = iov; /* freed with the request, or when the receiver asks for a stream */
    p->flags |= PKT_F_IOV;
    p->addr = (uint64_t)(uintptr_t)iov;
    p->rreq = n;
    return MPI_SUCCESS;
}

/* Read `want` bytes described by the remote runs rem[0..nrem) into the
 * local runs loc[0..nloc); both lists are consumed from their fronts
 * (partly consumed entries are adjusted); the local runs hold at least
 * `want` bytes. 0 or -errno. */
static int read_runs(pid_t pid, struct iovec *loc, int nloc, struct iovec **rem, size_t *nrem,
                     size_t want)
{
    while (want > 0 && nloc > 0) {
        /* The remote entries covering min(want, local bytes, RNDV_IOV entries). */
        size_t lbytes = 0;
        for (int i = 0; i < nloc; i++)
            lbytes += loc[i].iov_len;
        size_t take = want < lbytes ? want : lbytes, covered = 0;
        size_t nr = 0;
        while (nr < *nrem && nr < RNDV_IOV && covered < take)
            covered += (*rem)[nr++].iov_len;
        if (nr == 0)
            return -EFAULT; /* the sender's list ends before its message */
        struct iovec last = (*rem)[nr - 1];
        if (covered > take) /* read only the front of the last remote run */
            (*rem)[nr - 1].iov_len -= covered - take;
        ssize_t got = process_vm_readv(pid, loc, (unsigned long)nloc, *rem, nr, 0);
        if (got < 0)
            return -errno;
        if (got == 0)
            return -EFAULT;
        /* Advance both lists by got bytes. */
        (*rem)[nr - 1] = last;
        size_t g = (size_t)got;
        want -= g;
        while (g > 0) {
            size_t k = (*rem)->iov_len < g ? (*rem)->iov_len : g;
            (*rem)->iov_base = (char *)(*rem)->iov_base + k;
            (*rem)->iov_len -= k;
            g -= k;
            if ((*rem)->iov_len == 0) {
                (*rem)++;
                (*nrem)--;
            }
        }
        g = (size_t)got;
        while (nloc > 0 && g > 0) {
            size_t k = loc->iov_len < g ? loc->iov_len : g;
            loc->iov_base = (char *)loc->iov_base + k;
            loc->iov_len -= k;
            g -= k;
            if (loc->iov_len == 0) {
                loc++;
                nloc--;
            }
        }
    }
    return want ? -EFAULT : 0;
}

/* The sender's run list of an RTS with PKT_F_IOV, read from its memory;
 * freed by the caller. */
static int fetch_list(pid_t pid, const pkt_t *p, struct iovec **list)
{
    size_t n = (size_t)p->rreq;
    if (n == 0 || n > SIZE_MAX / sizeof(struct iovec))
        return -EFAULT;
    *list = malloc(n * sizeof(struct iovec));
    if (!*list)
        return -ENOMEM;
    ssize_t got = shm_cma_read(pid, *list, (const void *)(uintptr_t)p->addr, n * sizeof(struct iovec));
    if (got < 0 || (size_t)got != n * sizeof(struct iovec)) {
        free(*list);
        return got < 0 ? (int)got : -EFAULT;
    }
    return 0;
}

int rndv_read(req_t *r, const pkt_t *p)
{
    size_t n = (size_t)r->status.ftmpi_count;
    size_t count = (size_t)r->count;
    pid_t pid = ftg.pid_of_world[p->src_world];
    if (n == 0)
        return 0;
    if (p->src_world == ftg.world_rank) {
        dt_unpack(r->dt, count, r->buf, 0, (const void *)(uintptr_t)p->addr, n);
        return 0;
    }
    if (!route_can_cma(p->src_world))
        return -EAGAIN; /* another host, or no single copy here: stream */
    struct iovec one = {(void *)(uintptr_t)p->addr, n}, *list = NULL, *rem = &one;
    size_t nrem = 1;
    if (p->flags & PKT_F_IOV) {
        int rc = fetch_list(pid, p, &list);
        if (rc < 0)
            return rc;
        rem = list;
        nrem = (size_t)p->rreq;
    }
    int rc = 0;
    if (dt_is_contig(r->dt, count)) {
        struct iovec loc = {(char *)r->buf + r->dt->true_lb, n};
        rc = read_runs(pid, &loc, 1, &rem, &nrem, n);
    } else {
        struct iovec loc[64];
        for (size_t off = 0; rc == 0 && off < n;) {
            size_t bytes = 0;
            int k = dt_iov(r->dt, count, r->buf, off, n - off, loc, 64, &bytes);
            rc = read_runs(pid, loc, k, &rem, &nrem, bytes);
            off += bytes;
        }
    }
    free(list);
    return rc;
}
