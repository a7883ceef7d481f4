/*
 * Collective schedules: every collective algorithm is written once, as a
 * builder that appends operations (send, receive, local reduce, local copy,
 * callback) to a schedule, and the schedule is then run either to
 * completion (blocking collectives) or step by step from the progress
 * engine (non-blocking collectives, coll_nb.c).
 *
 * Dependencies. An operation may start when
 *   - every operation created before the last sched_fence() is done, and
 *   - its explicit dependencies (sched_dep(), up to SCHED_MAX_DEPS) are done.
 * Operations between two fences with no explicit dependency run
 * concurrently: a round of a tree or ring algorithm is "post all its sends
 * and receives, fence". Pipelines use explicit dependencies instead of
 * fences, so that segment k+1 travels while segment k is being forwarded.
 *
 * Ordering. Messages of one collective share one tag, so two messages
 * between the same pair must be posted in the same order on both sides. The
 * engine guarantees that sends to one peer (and receives from one peer)
 * are started in the order they were created; a builder only has to create
 * them in matching orders on the two sides.
 *
 * Errors. The first failing operation (an error from point-to-point, e.g.
 * MPI_ERR_OTHER when a peer died) ends the schedule at once: nothing more
 * is started, posted receives are cancelled, and the error is returned.
 * A schedule never waits for anything after an error.
 */
#ifndef FTMPI_COLL_SCHED_H
#define FTMPI_COLL_SCHED_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"
#include "core/request.h"
#include "util/list.h"

#define SCHED_MAX_DEPS 3
/* Tag bit of messages on an intercommunicator's local intracommunicator. */
#define SCHED_TAG_LOCAL (1 << 30)

typedef struct sched sched_t;

typedef enum { SOP_NOP, SOP_SEND, SOP_RECV, SOP_REDUCE, SOP_COPY } sop_kind_t;
typedef enum { SOP_WAIT, SOP_ISSUED, SOP_DONE } sop_state_t;

typedef struct {
    unsigned char kind, state, local;
    int peer;
    int after;                 /* ops with index < after must be done first */
    int prev;                  /* send/recv: previous one to/from the same peer */
    int dep[SCHED_MAX_DEPS];   /* explicit dependencies, -1 = none */
    size_t count, count2;
    dt_t *dt, *dt2;
    const void *src;           /* send, reduce (in), copy (from) */
    void *dst;                 /* recv, reduce (inout), copy (to) */
    op_t *op;
    req_t *req;
} sop_t;

struct sched {
    comm_t *comm;        /* the communicator of the collective */
    comm_t *lcomm;       /* intercommunicators: the local intracommunicator */
    int tag;
    int local_mode;      /* sched_send/recv go over lcomm (intercomm builders) */
    sop_t *ops;
    int nops, cap;
    int after;           /* current fence */
    int lo;              /* first op not done */
    int err;
    int finished;
    int in_user;         /* a user op runs, without the library lock: no other
                            thread (nor the op itself) may advance s */
    int leak;            /* buffers may still be read/written by p2p: keep them */
    int *last;           /* [4 * npeer]: last send/recv per peer, remote and local */
    int npeer;
    void **mem;
    int nmem, capmem;
    void **keep;         /* datatypes / ops retained while the schedule lives */
    unsigned char *keep_op;
    int nkeep, capkeep;
    /* non-blocking collectives (coll_nb.c) */
    req_t *req;
    list_node_t link;
    /* ATOMIC collective mode (coll_atomic.c) */
    void *atomic;
};

/* A new empty schedule on c with a fresh collective tag. NULL: no memory. */
sched_t *sched_new(comm_t *c);
void sched_free(sched_t *s);
/* Temporary memory released with the schedule (NULL: no memory). */
void *sched_alloc(sched_t *s, size_t bytes);
/* Room for count elements of dt; returns the pointer to pass as a buffer
 * (already shifted by -true_lb). NULL: no memory (s->err is set). */
void *sched_tmpbuf(sched_t *s, dt_t *dt, size_t count);

/* Keep a user datatype / op alive while the schedule runs (the user may
 * free its handle right after starting a non-blocking collective). */
void sched_keep_dt(sched_t *s, dt_t *dt);
void sched_keep_op(sched_t *s, op_t *op);

/* Builders: return the op's index (>= 0) or -1 when out of memory (the
 * error is kept in s->err and reported when the schedule runs). */
int sched_send(sched_t *s, const void *buf, size_t count, dt_t *dt, int peer);
int sched_recv(sched_t *s, void *buf, size_t count, dt_t *dt, int peer);
/* inout = in op inout (op_apply's order). */
int sched_reduce(sched_t *s, const void *in, void *inout, size_t count, dt_t *dt, op_t *op);
/* (src, scount, sdt) -> (dst, dcount, ddt), local. */
int sched_copy(sched_t *s, const void *src, size_t scount, dt_t *sdt, void *dst, size_t dcount,
               dt_t *ddt);
/* Make op depend on op `on` (both indices; -1 is ignored). */
void sched_dep(sched_t *s, int op, int on);
/* Everything created after this waits for everything created before. */
void sched_fence(sched_t *s);

/* Run: start what can start, collect what completed. 1 when finished
 * (s->err holds the result), 0 otherwise. */
int sched_progress(sched_t *s);
/* Block until finished; returns s->err. Does not free s. */
int sched_wait(sched_t *s);
/* End a schedule early with err (failure notification): nothing more is
 * started, pending receives are cancelled. */
void sched_abort(sched_t *s, int err);

#endif
