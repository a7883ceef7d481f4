/*
 * Communicators. A communicator owns two context ids: ctx for
 * point-to-point and ctx + 1 for the collectives run on it, so that user
 * messages never match collective traffic.
 *
 * Intercommunicators (is_inter = 1) have a remote group (rgroup); a rank
 * argument names a member of the remote group, and a packet's src is the
 * sender's rank in its own (local) group. Each intercommunicator also
 * holds a hidden intracommunicator over its local group (local_comm, with
 * its own context pair and no user handle) on which the library runs the
 * local half of intercommunicator operations (context agreement, leader
 * broadcasts, and intercommunicator collectives).
 *
 * Context ids are agreed over the members (coll/ctxid.c): the lowest pair
 * free on every member. See docs/communicators.md.
 */
#ifndef FTMPI_CORE_COMM_H
#define FTMPI_CORE_COMM_H

#include <stdint.h>

#include "mpi.h"
#include "group.h"
#include "errhandler.h"
#include "util/list.h"

typedef enum {
    COMM_OK = 0,
    COMM_DETECTED, /* a member failed; not yet recovered */
    COMM_RECOVER,  /* recovery under way */
    COMM_RECOVERED,/* rebuilt by a recovery, usable */
    COMM_FAILED,   /* destroyed by a recovery: only MPI_Comm_free works */
} comm_state_t;

typedef struct comm {
    int handle;
    int refcount;        /* user handle + pending operations */
    int predefined;
    int freed;           /* MPI_Comm_free called; lives while refcount > 0 */
    uint32_t ctx;        /* point-to-point context id (even) */
    int rank, size;      /* in the local group */
    group_t *group;      /* local group */
    group_t *rgroup;     /* remote group (intercommunicators), else NULL */
    int is_inter;
    errh_t *errh;
    void *attrs;         /* attribute list (core/attr.c) */
    void *topo;          /* topology (core/topo.c) */
    void *info;          /* hints kept for Comm_get_info */
    char name[MPI_MAX_OBJECT_NAME];
    /* matching (p2p) */
    /* index 0: point-to-point context, 1: collective context */
    list_node_t posted[2];      /* receives waiting for a message */
    list_node_t unexpected[2];  /* messages waiting for a receive */
    uint32_t coll_seq;       /* sequence number of collective calls */
    /* fault tolerance */
    comm_state_t state;
    uint32_t generation;     /* recovery generation the comm belongs to */
    list_node_t all;         /* every live communicator of this process */
    int registered;          /* visible to matching, context pair claimed here
                              * (0 again once comm_unregister gave it back) */
    int hidden;              /* internal only: never gets a user handle */
    int revoked;             /* ULFM: revoked; point-to-point posts on it fail (p2p) */
    void *ulfm;              /* ULFM state (ft/ulfm_*.c), NULL until needed */
    void *coll_sm;           /* shared-memory collectives (coll/coll_sm.c), NULL until used */
    void *ft_atomic;         /* ATOMIC decision slots (ft/ft_atomic.c), NULL until used */
    void *part;              /* partitioned channels (api/part.c), NULL until used */
    /* intercommunicators */
    struct comm *local_comm; /* hidden intracomm over the local group, else NULL */
} comm_t;

int comm_module_init(void);
void comm_module_fini(void);
comm_t *comm_get(MPI_Comm h);        /* NULL if not a valid handle */
comm_t *comm_world(void);
comm_t *comm_self(void);
/* Release hooks installed by the modules that hang data on comms. */
extern void (*comm_free_hook_attrs)(comm_t *c);
extern void (*comm_free_hook_topo)(comm_t *c);
extern void (*comm_free_hook_p2p)(comm_t *c);  /* messages still queued on c */
extern void (*comm_free_hook_ulfm)(comm_t *c); /* ULFM state (revoked, agreements) */
extern void (*comm_free_hook_coll)(comm_t *c); /* shared-memory collective segment */
extern void (*comm_free_hook_atomic)(comm_t *c); /* ATOMIC decision slots */
extern void (*comm_free_hook_part)(comm_t *c);   /* partitioned channels */
extern void (*comm_register_hook_ulfm)(comm_t *c); /* a user communicator is born */
/* The set of communicators changed (registered, unregistered): the
 * monitor's report (runtime/monrank), NULL when it is off. */
extern void (*comm_change_hook)(void);

/* Iterate over every live communicator: comm_next(NULL) is the first. */
comm_t *comm_next(comm_t *prev);
/* Communicator by context id (matching), NULL if unknown here. */
comm_t *comm_by_ctx(uint32_t ctx);

/* A new communicator object (not yet registered for matching). Takes a
 * reference on the groups. */
comm_t *comm_new(group_t *local, group_t *remote, uint32_t ctx);
/* Make it visible to matching and give it a handle. */
int comm_register(comm_t *c);
/* Give c its user handle now (before comm_register: MPI_Comm_idup). */
int comm_make_handle(comm_t *c);
/* Make c visible to matching without a user handle (local_comm). */
void comm_register_hidden(comm_t *c);
/* Take c out of matching and give its context pair back, leaving the
 * object (and its handle) alive: FT recovery destroys derived
 * communicators this way, so that communicators re-created in the same
 * order get the same ids. comm_next no longer returns c. Idempotent. */
void comm_unregister(comm_t *c);
void comm_retain(comm_t *c);
void comm_release(comm_t *c);

/* World rank of rank r of the peer group (remote group for inter). */
static inline int comm_peer_world(const comm_t *c, int r)
{
    return c->is_inter ? c->rgroup->world[r] : c->group->world[r];
}
/* Size of the group a rank argument refers to. */
static inline int comm_peer_size(const comm_t *c)
{
    return c->is_inter ? c->rgroup->size : c->size;
}

/* Context ids (local bookkeeping; the agreement over a communicator is in
 * coll/ctxid.c). Ids come in pairs (p2p, collective); a pair is named by
 * its even id. The mask has one bit per pair, 1 = free here. */
#define COMM_CTX_PAIRS 8192
#define COMM_CTX_WORDS (COMM_CTX_PAIRS / 32)
void comm_ctx_mask(uint32_t mask[COMM_CTX_WORDS]);
int comm_ctx_claim(uint32_t ctx);  /* 0, or -1 if in use */
void comm_ctx_release(uint32_t ctx);

#endif
