/* Point-to-point helpers for collectives (collective context). */
#include "coll/coll.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "p2p/p2p.h"
#include "p2p/progress.h"

static req_t *mk(req_kind_t kind, comm_t *c, const void *buf, size_t count, dt_t *dt, int peer,
                 int tag)
{
    /* a count beyond int: one element of a contiguous type (the request
     * holds its own reference) */
    dt_t *w = count > INT_MAX ? dt_count_wrap_new(count, dt) : NULL;
    if (count > INT_MAX && !w)
        return NULL;
    req_t *r = req_new_p2p(kind, c, buf, w ? 1 : (int)count, w ? w : dt, peer, tag,
                           SEND_STANDARD, 1);
    if (w)
        dt_release(w);
    return r;
}

int coll_isend(comm_t *c, const void *buf, size_t count, dt_t *dt, int dst, int tag, req_t **rp)
{
    req_t *r = mk(REQ_SEND, c, buf, count, dt, dst, tag);
    if (!r)
        return MPI_ERR_NO_MEM;
    int rc = p2p_start_send(r);
    if (rc != MPI_SUCCESS) {
        req_free(r);
        return rc;
    }
    *rp = r;
    return MPI_SUCCESS;
}

int coll_irecv(comm_t *c, void *buf, size_t count, dt_t *dt, int src, int tag, req_t **rp)
{
    req_t *r = mk(REQ_RECV, c, buf, count, dt, src, tag);
    if (!r)
        return MPI_ERR_NO_MEM;
    int rc = p2p_start_recv(r);
    if (rc != MPI_SUCCESS) {
        req_free(r);
        return rc;
    }
    *rp = r;
    return MPI_SUCCESS;
}

int coll_waitall(req_t **rs, int n)
{
    int err = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        if (!rs[i])
            continue;
        progress_wait_req(rs[i]);
        if (rs[i]->status.MPI_ERROR != MPI_SUCCESS && err == MPI_SUCCESS)
            err = rs[i]->status.MPI_ERROR;
        req_free(rs[i]);
        rs[i] = NULL;
    }
    return err;
}

int coll_sendrecv(comm_t *c, const void *sbuf, size_t scount, dt_t *sdt, int dst,
                  void *rbuf, size_t rcount, dt_t *rdt, int src, int tag)
{
    req_t *rs[2] = {NULL, NULL};
    int rc = coll_irecv(c, rbuf, rcount, rdt, src, tag, &rs[0]);
    if (rc == MPI_SUCCESS)
        rc = coll_isend(c, sbuf, scount, sdt, dst, tag, &rs[1]);
    int rc2 = coll_waitall(rs, 2);
    return rc != MPI_SUCCESS ? rc : rc2;
}

void *coll_tmpbuf(dt_t *dt, size_t count, void **base_p)
{
    size_t span = count ? (size_t)(dt->true_ub - dt->true_lb) + (count - 1) * (size_t)dt->extent : 0;
    char *p = malloc(span ? span : 1);
    *base_p = p ? p - dt->true_lb : NULL;
    return p;
}

void coll_local_copy(const void *src, void *dst, size_t count, dt_t *dt)
{
    coll_local_copy2(src, count, dt, dst, count, dt);
}

int coll_local_copy2(const void *sbuf, size_t scount, dt_t *sdt, void *rbuf, size_t rcount,
                     dt_t *rdt)
{
    size_t sbytes = scount * sdt->size, rbytes = rcount * rdt->size;
    size_t n = sbytes < rbytes ? sbytes : rbytes;
    if (n == 0)
        return sbytes > rbytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    if (dt_is_contig(sdt, scount) && dt_is_contig(rdt, rcount)) {
        memcpy((char *)rbuf + rdt->true_lb, (const char *)sbuf + sdt->true_lb, n);
    } else if (dt_is_contig(sdt, scount)) {
        dt_unpack(rdt, rcount, rbuf, 0, (const char *)sbuf + sdt->true_lb, n);
    } else if (dt_is_contig(rdt, rcount)) {
        dt_pack(sdt, scount, sbuf, 0, (char *)rbuf + rdt->true_lb, n);
    } else {
        char tmp[4096];
        for (size_t off = 0; off < n; off += sizeof(tmp)) {
            size_t k = n - off < sizeof(tmp) ? n - off : sizeof(tmp);
            dt_pack(sdt, scount, sbuf, off, tmp, k);
            dt_unpack(rdt, rcount, rbuf, off, tmp, k);
        }
    }
    return sbytes > rbytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}
