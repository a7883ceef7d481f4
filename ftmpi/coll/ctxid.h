/*
 * Context-id agreement (docs/communicators.md, "Context ids").
 *
 * Every member contributes its mask of context pairs that are free here;
 * the bitwise AND over the members (a binomial-tree reduce to a root and a
 * broadcast back; for two groups, the two roots exchange their partial
 * results in between) gives the pairs free everywhere, and the lowest
 * npairs of them are taken. Only the members of the new communicator's
 * parent take part: there is no global allocator.
 *
 * Reproducible: in a program that creates communicators one at a time
 * (blocking calls, no MPI_Comm_idup in flight) every round sees masks
 * that nothing else changes, the members say so in the round's flag word,
 * and the lowest common free pairs are taken at once. The same sequence
 * of creations therefore gives the same ids, after an FT-MPI recovery too.
 * When another agreement may run at the same time on some member (an
 * MPI_Comm_idup, or MPI_THREAD_MULTIPLE), the picked pairs are held and a
 * second, one-word round confirms that they were still free on every
 * member; otherwise every member lets them go and a new round starts.
 * No two live communicators of a process ever share a context pair.
 */
#ifndef FTMPI_COLL_CTXID_H
#define FTMPI_COLL_CTXID_H

#include <stdint.h>

#include "core/comm.h"

#define CTX_MAX_PAIRS 2

/* Who takes part: p members numbered 0..p-1, member v being rank map[v]
 * of the carrier communicator cc (map NULL: rank v), messages on cc's
 * collective context with `tag`; this process is member me; the tree is
 * rooted at member root. With a bridge, the root also exchanges with the
 * root of a second group of members running the same agreement: on bc
 * (collective context if bcoll, else point-to-point) with rank bpeer and
 * tag btag. */
typedef struct {
    comm_t *cc;
    const int *map;
    int p, me, root, tag;
    comm_t *bc;
    int bpeer, btag, bcoll;
} ctx_party_t;

typedef void ctx_done_fn(void *arg, int rc, const uint32_t *ctx);

/* Blocking: agree on npairs (1..CTX_MAX_PAIRS) context pairs; ctx[i] are
 * their even ids, claimed here. Collective over the party. */
int ctx_agree(const ctx_party_t *party, int npairs, uint32_t *ctx);
/* Non-blocking: returns at once; done(arg, rc, ctx) runs from progress
 * when the agreement is over (the ids are claimed when rc is
 * MPI_SUCCESS). */
int ctx_agree_start(const ctx_party_t *party, int npairs, ctx_done_fn *done, void *arg);

/* The party of communicator c: its members, or for an intercommunicator
 * the members of both groups (local_comm + the two leaders over c). Takes
 * the tags (collective sequence numbers) the agreement will use. */
void ctx_party_of(comm_t *c, ctx_party_t *party);

#endif
