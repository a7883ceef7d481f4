/*
 * Storage of unexpected messages. An eager message that arrives before its
 * receive is posted is copied out of the ring (the ring slot must be given
 * back at once). Each such message is one allocation holding the record and
 * its payload; those of up to UMSG_INLINE payload bytes come from a pool
 * kept for reuse (at most UMSG_POOL_MAX records, so a burst of unexpected
 * messages does not keep its memory for ever). Before, each one cost a
 * malloc/free pair, two with a payload: at 0 B, 290 of its 1009
 * receive-side instructions (callgrind, bench/pp_count.c queued mode;
 * docs/progress.md).
 */
#include "p2p/p2p_int.h"
#include "core/mpit_stats.h"

#include <stdlib.h>
#include <string.h>

enum { UMSG_INLINE = 256, UMSG_POOL_MAX = 1024 };

static umsg_t *pool; /* linked through link.next */
static int npool;

/* Inlined into umsg_new: the record of every unexpected eager message. */
static inline __attribute__((always_inline)) umsg_t *alloc_rec(const pkt_t *p, size_t dlen)
{
    umsg_t *m;
    if (dlen <= UMSG_INLINE && pool) {
        m = pool;
        pool = (umsg_t *)m->link.next;
        npool--;
    } else {
        int small = dlen <= UMSG_INLINE;
        m = malloc(sizeof(*m) + (small ? UMSG_INLINE : dlen));
        if (!m)
            return NULL;
        m->pooled = small;
    }
    m->pkt = *p;
    m->data = dlen ? m->inl : NULL;
    m->handle = MPI_MESSAGE_NULL;
    m->comm = NULL;
    mpit_count_unexp(1); /* MPI_T (core/mpit_stats.h) */
    return m;
}

umsg_t *umsg_alloc(const pkt_t *p, size_t dlen)
{
    return alloc_rec(p, dlen);
}

umsg_t *umsg_new(const pkt_t *p, const void *data, size_t len)
{
    /* an eager payload, or the head a network RTS carries (PKT_F_HEAD) */
    size_t dlen = p->type == PKT_EAGER || (p->flags & PKT_F_HEAD) ? len : 0;
    umsg_t *m = alloc_rec(p, dlen);
    if (m && dlen)
        memcpy(m->inl, data, dlen);
    return m;
}

void umsg_free(umsg_t *m)
{
    mpit_count_unexp(-1);
    if (m->pooled && npool < UMSG_POOL_MAX) {
        m->link.next = (list_node_t *)pool;
        pool = m;
        npool++;
        return;
    }
    free(m);
}

void umsg_pool_fini(void)
{
    while (pool) {
        umsg_t *m = pool;
        pool = (umsg_t *)m->link.next;
        free(m);
    }
    npool = 0;
}
