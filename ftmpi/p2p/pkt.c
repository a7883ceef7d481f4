/*
 * The one packet constructor. Every packet this process sends is built by
 * pkt_init, which fills the whole header: the fields that say who sent it
 * and when (sender's world rank, incarnation, generation) can then not be
 * forgotten at one building site, as they were once in streamed fragments
 * and cancel requests (a replacement's packets were taken for packets of
 * the process it replaced and dropped). A per-peer sequence number, when
 * there is one, belongs here too.
 */
#include "p2p/p2p_int.h"

#include <string.h>

void pkt_init(pkt_t *p, pkt_type_t type, const comm_t *c, int coll)
{
    memset(p, 0, sizeof(*p));
    p->type = (uint8_t)type;
    p->src_inc = ftstate_my_incarnation();
    p->gen = ftstate_generation();
    p->src_world = ftg.world_rank;
    if (c) {
        p->ctx = c->ctx + (coll ? 1u : 0u);
        p->src = c->rank;
    } else {
        p->src = MPI_PROC_NULL; /* control packet: no communicator */
    }
}

void pkt_short_init(pkt_short_t *h, const comm_t *c)
{
    *h = (pkt_short_t){.type = PKT_EAGER_SHORT, .src_inc = ftstate_my_incarnation(),
                       .ctx = c->ctx, .src = c->rank, .gen = ftstate_generation(),
                       .src_world = ftg.world_rank};
}
