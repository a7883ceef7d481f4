/*
 * Block calls by one copy between the members' own buffers (coll_sm.h):
 * Scatter, Allgather and Alltoall whose data do not fit one buffer of the
 * segment, when every member can read the others' memory
 * (process_vm_readv; agreed at the segment's setup). A member publishes
 * the address of its data (of a packed copy when its layout is not
 * contiguous) in its control line before its flag; the others copy what
 * they need straight out of its memory into theirs and post "done"; the
 * owner leaves only when every member is done with its memory.
 *
 * Scatter:   the root publishes its send buffer and posts rel; each member
 *            reads its block, posts done; the root waits for every done.
 * Allgather: everyone publishes its block and posts arrive, reads every
 *            other block as it arrives, posts done, waits for every done.
 * Alltoall:  the same with the p blocks of the send buffer (in place: a
 *            copy of it, since the receive buffer is overwritten while the
 *            others still read).
 * One copy per block where the segment path makes two, and no limit on
 * the size; a member that dies fails the waits as everywhere else.
 */
#include "coll/coll_sm.h"

#include <stdlib.h>
#include <string.h>

#include "coll/algs.h"
#include "transport/shm/shm.h"

/* (count, dt) at buf as contiguous bytes: in place, or a packed copy in
 * *tmp (freed by the caller). NULL: no memory. */
static const char *as_bytes(const void *buf, size_t count, dt_t *dt, char **tmp)
{
    *tmp = NULL;
    if (dt_is_contig(dt, count))
        return (const char *)buf + dt->true_lb;
    size_t n = count * dt->size;
    if (!(*tmp = malloc(n ? n : 1)))
        return NULL;
    if (coll_local_copy2(buf, count, dt, *tmp, n, dt_get(MPI_BYTE)) != MPI_SUCCESS) {
        free(*tmp);
        return *tmp = NULL;
    }
    return *tmp;
}

/* Publish where my data of this call are (before the flag that says so). */
static void publish(coll_sm_t *sm, const char *at)
{
    atomic_store_explicit(&sm->ctl[sm->me].addr, (uint64_t)(uintptr_t)at,
                          memory_order_release);
}

/* Copy n bytes at offset off of member k's published data (its flag for
 * this call already seen) into (count, dt) at buf. */
static int fetch(coll_sm_t *sm, int k, size_t off, size_t n, void *buf, size_t count, dt_t *dt)
{
    const char *from = (const char *)(uintptr_t)atomic_load_explicit(&sm->ctl[k].addr,
                                                                       memory_order_acquire) +
                       off;
    pid_t pid = (pid_t)atomic_load_explicit(&sm->ctl[k].pid, memory_order_relaxed);
    if (dt_is_contig(dt, count))
        return shm_cma_read(pid, (char *)buf + dt->true_lb, from, n) == (ssize_t)n
                   ? MPI_SUCCESS
                   : MPI_ERR_OTHER;
    char *t = malloc(n ? n : 1);
    if (!t)
        return MPI_ERR_NO_MEM;
    int rc = shm_cma_read(pid, t, from, n) == (ssize_t)n
                 ? coll_local_copy2(t, n, dt_get(MPI_BYTE), buf, count, dt)
                 : MPI_ERR_OTHER;
    free(t);
    return rc;
}

/* The end of a call of an owner of published data: done, and wait until
 * every member is done with it. "Done" is posted after an error too (a
 * copy the kernel refused): the others must not wait for a live member
 * that stopped reading. */
static int finish(coll_sm_t *sm, uint32_t s, char *tmp, int rc)
{
    coll_sm_post(sm, SMF_DONE, s, -1);
    if (rc == MPI_SUCCESS)
        rc = coll_sm_wait(sm, SMF_DONE, -1, s);
    free(tmp);
    return rc;
}

static int scatter_cma(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                       size_t rcount, dt_t *rdt, int root)
{
    uint32_t s = coll_sm_begin(sm);
    int me = sm->me, rc = MPI_SUCCESS;
    if (me != root) {
        size_t n = rcount * rdt->size;
        if ((rc = coll_sm_wait(sm, SMF_REL, root, s)) == MPI_SUCCESS)
            rc = fetch(sm, root, (size_t)me * n, n, rbuf, rcount, rdt);
        coll_sm_post(sm, SMF_DONE, s, -1);
        return rc;
    }
    char *tmp;
    const char *src = as_bytes(sbuf, scount * (size_t)sm->p, sdt, &tmp);
    if (!src)
        return MPI_ERR_NO_MEM;
    publish(sm, src);
    coll_sm_post(sm, SMF_REL, s, -1);
    if (rbuf != MPI_IN_PLACE)
        rc = coll_local_copy2(coll_at(sbuf, sdt, (size_t)me * scount), scount, sdt, rbuf, rcount,
                              rdt);
    return finish(sm, s, tmp, rc);
}

static int allgather_cma(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt,
                         void *rbuf, size_t rcount, dt_t *rdt)
{
    uint32_t s = coll_sm_begin(sm);
    int me = sm->me, rc = MPI_SUCCESS;
    size_t n = rcount * rdt->size;
    char *mine = coll_at(rbuf, rdt, (size_t)me * rcount), *tmp;
    const char *src = sbuf == MPI_IN_PLACE ? as_bytes(mine, rcount, rdt, &tmp)
                                           : as_bytes(sbuf, scount, sdt, &tmp);
    if (!src)
        return MPI_ERR_NO_MEM;
    publish(sm, src);
    coll_sm_post(sm, SMF_ARRIVE, s, -1);
    if (sbuf != MPI_IN_PLACE)
        rc = coll_local_copy2(sbuf, scount, sdt, mine, rcount, rdt);
    for (int i = 1; i < sm->p && rc == MPI_SUCCESS; i++) {
        int k = (me + i) % sm->p;
        if ((rc = coll_sm_wait(sm, SMF_ARRIVE, k, s)) == MPI_SUCCESS)
            rc = fetch(sm, k, 0, n, coll_at(rbuf, rdt, (size_t)k * rcount), rcount, rdt);
    }
    return finish(sm, s, tmp, rc);
}

static int alltoall_cma(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                        size_t rcount, dt_t *rdt)
{
    uint32_t s = coll_sm_begin(sm);
    int me = sm->me, p = sm->p, rc = MPI_SUCCESS;
    size_t n = rcount * rdt->size;
    char *tmp = NULL;
    const char *src;
    if (sbuf == MPI_IN_PLACE) { /* a copy: rbuf is written while the others read */
        size_t all = n * (size_t)p;
        if ((src = tmp = malloc(all ? all : 1)) &&
            coll_local_copy2(rbuf, rcount * (size_t)p, rdt, tmp, all, dt_get(MPI_BYTE)) !=
                MPI_SUCCESS)
            rc = MPI_ERR_OTHER;
    } else {
        src = as_bytes(sbuf, scount * (size_t)p, sdt, &tmp);
    }
    if (!src || rc != MPI_SUCCESS) {
        free(tmp);
        return src ? rc : MPI_ERR_NO_MEM;
    }
    publish(sm, src);
    coll_sm_post(sm, SMF_ARRIVE, s, -1);
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++) {
        int k = (me + i) % p;
        void *to = coll_at(rbuf, rdt, (size_t)k * rcount);
        if (k == me)
            rc = coll_local_copy2(src + (size_t)me * n, n, dt_get(MPI_BYTE), to, rcount, rdt);
        else if ((rc = coll_sm_wait(sm, SMF_ARRIVE, k, s)) == MPI_SUCCESS)
            rc = fetch(sm, k, (size_t)me * n, n, to, rcount, rdt);
    }
    return finish(sm, s, tmp, rc);
}

int coll_sm_cma_call(coll_sm_t *sm, coll_kind_t k, const void *sbuf, size_t scount, dt_t *sdt,
                     void *rbuf, size_t rcount, dt_t *rdt, int root)
{
    switch (k) {
    case COLL_SCATTER: return scatter_cma(sm, sbuf, scount, sdt, rbuf, rcount, rdt, root);
    case COLL_ALLGATHER: return allgather_cma(sm, sbuf, scount, sdt, rbuf, rcount, rdt);
    case COLL_ALLTOALL: return alltoall_cma(sm, sbuf, scount, sdt, rbuf, rcount, rdt);
    default: return MPI_ERR_INTERN;
    }
}
