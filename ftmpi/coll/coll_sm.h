/*
 * Shared-memory collectives (docs/collectives.md, "Shared-memory
 * component"): Barrier, Bcast, Reduce and Allreduce of blocking calls on an
 * intracommunicator whose members all run on this host, through a segment
 * of the communicator's own (a memfd made by its rank 0, mapped by every
 * member) with one control line per member and COLL_SM_NBUF data buffers
 * per member (call s uses buffer s % COLL_SM_NBUF, so a root may run that
 * many calls ahead of the slowest member before it waits: loops of Bcast or
 * Reduce do not pay a context switch per call when ranks share cores). No
 * point-to-point message and no schedule.
 *
 * Flags only grow (the call's sequence number): a member waits for
 * "flag >= s" of the ones it needs. Waiting spins a little, then goes
 * through progress_wait (which polls failures, yields and sleeps on the
 * doorbell); a member that sets a flag rings the doorbells of the members
 * that sleep waiting for it (each announces what it waits for in `want`). A member's death (ftg.peer_dead) fails the call with MPI_ERR_OTHER
 * on every member that waits (every waiter watches every member), so no
 * call hangs. The segment belongs to one recovery generation and one group:
 * after a recovery it is dropped and the next call makes a new one; under
 * BLANK gaps, with a dead member, under ULFM or FTMPI_TRANSPORT=tcp the
 * point-to-point algorithms run instead.
 */
#ifndef FTMPI_COLL_SM_H
#define FTMPI_COLL_SM_H

#include "coll/coll.h"
#include "coll/coll_select.h"

typedef struct coll_sm coll_sm_t;

/* The segment of c for a blocking call of kind k moving `bytes` (the
 * block of one rank for gather, scatter, allgather and alltoall), set up on
 * first use (a collective step over point-to-point). NULL: use the
 * point-to-point algorithms (*rc MPI_SUCCESS), or the setup failed with
 * *rc (a member died). */
coll_sm_t *coll_sm_get(comm_t *c, coll_kind_t k, size_t bytes, int *rc);

/* coll_sm_get for a call of an entry point: NULL (with *rc MPI_SUCCESS) for
 * a non-blocking call (req_p set) or one that moves no bytes. */
static inline coll_sm_t *coll_sm_for_call(comm_t *c, coll_kind_t k, size_t bytes,
                                          const void *req_p, int *rc)
{
    *rc = MPI_SUCCESS;
    return req_p || !bytes ? NULL : coll_sm_get(c, k, bytes, rc);
}

/* The calls (coll_sm_ops.c); buffers are contiguous (count, dt). */
int coll_sm_barrier(coll_sm_t *sm);
int coll_sm_bcast(coll_sm_t *sm, void *buf, size_t bytes, int root);
int coll_sm_reduce(coll_sm_t *sm, const void *sbuf, void *rbuf, size_t count, dt_t *dt,
                   op_t *op, int root);
int coll_sm_allreduce(coll_sm_t *sm, const void *sbuf, void *rbuf, size_t count, dt_t *dt,
                      op_t *op);
/* The block calls (coll_sm_blocks.c): one call number each, the whole
 * footprint in one buffer (coll_sm_get returns NULL when it does not fit);
 * blocks are packed with the caller's types, so ranks may use different
 * types of one signature. reduce_scatter: contiguous types, as above. */
int coll_sm_gather(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                   size_t rcount, dt_t *rdt, int root);
int coll_sm_scatter(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                    size_t rcount, dt_t *rdt, int root);
int coll_sm_allgather(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                      size_t rcount, dt_t *rdt);
int coll_sm_alltoall(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                     size_t rcount, dt_t *rdt);
int coll_sm_reduce_scatter(coll_sm_t *sm, const void *sbuf, void *rbuf, const int *rcounts,
                           dt_t *dt, op_t *op);
/* Scatter, allgather or alltoall (kind k; root for scatter) whose data do
 * not fit one buffer, by a single copy from the owner's memory
 * (coll_sm_cma.c); the block calls above hand them over. */
int coll_sm_cma_call(coll_sm_t *sm, coll_kind_t k, const void *sbuf, size_t scount, dt_t *sdt,
                     void *rbuf, size_t rcount, dt_t *rdt, int root);
/* Does a block call of kind k moving `bytes` per member fit one buffer? */
int coll_sm_fits(const coll_sm_t *sm, coll_kind_t k, size_t bytes);

/* ---- internals shared by coll_sm.c and coll_sm_ops.c ---------------------- */
#include <stdatomic.h>
#include <stdint.h>

#include "transport/shm/shm_seg.h"

#define COLL_SM_NBUF 8u
/* Calls whose data fit COLL_SM_SMALL bytes use a deeper ring of small
 * buffers instead: a Bcast or Reduce root runs up to COLL_SM_NSMALL calls
 * ahead of the slowest member. */
#define COLL_SM_NSMALL 64u
#define COLL_SM_SMALL 512u

typedef struct {
    _Atomic uint32_t arrive; /* my input for call s is in my buffer */
    _Atomic uint32_t slice;  /* my slice of allreduce s is reduced */
    _Atomic uint32_t rel;    /* bcast s from me is in my buffer */
    _Atomic uint32_t done;   /* I read everything of call s */
    /* What I wait for while I may sleep (coll_sm.c, want_word; 0: nothing):
     * a member that posts a flag wakes me only when its post can end my
     * wait, not on every post. */
    _Atomic uint64_t want;
    _Atomic uint64_t addr;   /* where my data of a single-copy call lie */
    _Atomic int32_t pid;     /* my process (single-copy calls read from it) */
    char pad[28];
} coll_sm_ctl_t;

struct coll_sm {
    comm_t *c;
    group_t *group;      /* the group the segment was made for */
    uint32_t gen;        /* recovery generation it belongs to */
    int state;           /* SM_* (coll_sm.c) */
    int p, me;
    char *base;
    size_t len;
    size_t chunk;        /* bytes of one data buffer */
    coll_sm_ctl_t *ctl;  /* [p] */
    char *data;          /* [p][NBUF] buffers, then the [NBUF] result buffers */
    char *small;         /* [p][NSMALL] buffers of COLL_SM_SMALL bytes */
    shmseg_slot_t **slot;/* [p] doorbells of the members (NULL: no host segment) */
    int *world;          /* [p] world ranks (failure checks) */
    uint32_t *seen;      /* [p][4] flag values last read (flags only grow): a
                          * member that runs ahead is read once per many
                          * calls, not once per call */
    uint32_t seq;
    int cma;             /* every member can read the others' memory */
    unsigned long intr;  /* coll_sm_interrupt count when it was made */
};

/* Member rank's buffer of call s, which moves n bytes per buffer. */
static inline char *coll_sm_buf(const coll_sm_t *sm, int rank, uint32_t s, size_t n)
{
    if (n <= COLL_SM_SMALL)
        return sm->small + ((size_t)rank * COLL_SM_NSMALL + s % COLL_SM_NSMALL) * COLL_SM_SMALL;
    return sm->data + ((size_t)rank * COLL_SM_NBUF + s % COLL_SM_NBUF) * sm->chunk;
}

/* How many calls of n bytes apart use the same buffers. */
static inline uint32_t coll_sm_depth(size_t n)
{
    return n <= COLL_SM_SMALL ? COLL_SM_NSMALL : COLL_SM_NBUF;
}

static inline char *coll_sm_res(const coll_sm_t *sm, uint32_t s)
{
    return sm->data + ((size_t)sm->p * COLL_SM_NBUF + s % COLL_SM_NBUF) * sm->chunk;
}

/* Offsets of the flags in coll_sm_ctl_t, for coll_sm_wait. */
enum { SMF_ARRIVE = 0, SMF_SLICE = 1, SMF_REL = 2, SMF_DONE = 3 };

static inline _Atomic uint32_t *coll_sm_flag(const coll_sm_t *sm, int rank, int f)
{
    return &(&sm->ctl[rank].arrive)[f];
}

/* Start call number s (also a collective call for the ATOMIC key). */
uint32_t coll_sm_begin(coll_sm_t *sm);
/* Wait until flag f of member `who` (-1: of every member) is >= s.
 * MPI_SUCCESS, or MPI_ERR_OTHER when a member died meanwhile. */
int coll_sm_wait(coll_sm_t *sm, int f, int who, uint32_t s);
/* Wait until flag f of every member is >= s; when it is not already,
 * wait further, until every member is >= s + more (a writer that found
 * its ring full sleeps once per `more` calls, not once per call). */
int coll_sm_wait_ahead(coll_sm_t *sm, int f, uint32_t s, uint32_t more);
/* Publish flag f = s and wake the members that sleep waiting for it (who
 * -1: any member; else only that one). */
void coll_sm_post(coll_sm_t *sm, int f, uint32_t s, int who);

/* Set my flag f = s for my own waits only (nobody else waits on it). */
static inline void coll_sm_mark(coll_sm_t *sm, int f, uint32_t s)
{
    atomic_store_explicit(coll_sm_flag(sm, sm->me, f), s, memory_order_release);
}

/* Post flag f = s of a member that reads nothing in call s, with its
 * "done" (which wakes any member waiting for it, whoever `who` is). */
void coll_sm_post_done(coll_sm_t *sm, int f, uint32_t s, int who);

/* For coll_sm_decide.c: rank 0 makes a memfd of sm->len bytes and maps it
 * (info = {pid, fd, made}); the others map it from info (1: mapped). */
void coll_sm_make_shared(coll_sm_t *sm, int info[3]);
int coll_sm_map_shared(coll_sm_t *sm, const int info[3]);

/* coll_sm_ops.c, for the block calls: wait until my buffer of call s (n
 * bytes) is free again; out = x0 op (x1 op ... x(p-1)) over elements
 * [lo, lo + cnt) of the n-byte inputs of call s (mine, when not NULL:
 * my input, read there instead of from my buffer). */
int coll_sm_buffers_free(coll_sm_t *sm, uint32_t s, size_t n);
int coll_sm_combine(coll_sm_t *sm, uint32_t s, size_t n, const char *mine, void *out, size_t lo,
                    size_t cnt, dt_t *dt, op_t *op);

#endif
