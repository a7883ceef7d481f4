/*
 * One-sided communication (MPI-3 RMA), docs/rma.md. A layer at the level
 * of the collectives: it uses p2p, coll and core, never ft or api.
 *
 * A window owns a hidden duplicate of its communicator. Every operation on
 * a window that is not reached directly (shared memory, CMA) is a request
 * on that communicator. Requests to one target are gathered into one
 * message until a synchronization call, a request that wants a reply, or
 * RMA_BATCH_MAX bytes (rma_wire.h):
 *
 *   origin -> target  RMA_TAG_REQ   requests: header, target runs, data
 *   target -> origin  reply tag     the request's own tag: the data of a
 *                                   get / the old values of a get-accumulate,
 *                                   received straight into the origin's
 *                                   result buffer; a status for a lock,
 *                                   unlock or flush request
 *   target -> origin  RMA_TAG_POST  MPI_Win_post
 *   origin -> target  RMA_TAG_DONE  MPI_Win_complete
 *
 * Puts and accumulates get no reply: the target applies the requests of one
 * origin in order, so a flush request (or an unlock) after them is answered
 * once they are done, with the first error they met. The origin posts the
 * receive of a reply before it sends the request, so completing is
 * completing receives, and a dead target fails them (p2p_peer_failed):
 * flush, unlock, complete and fence then return
 * the failure instead of waiting. The target takes requests from the
 * progress engine (a progress hook): weak progress, as the standard allows.
 *
 * Windows from MPI_Win_allocate_shared (and MPI_Win_allocate on one host)
 * live in one memfd segment mapped by every member; their puts, gets and
 * accumulates are loads and stores, accumulates under a robust
 * process-shared mutex in the segment. Puts and gets on MPI_Win_create
 * windows on one host are process_vm_writev/readv (CMA). Locks and PSCW
 * use messages in every kind of window.
 */
#ifndef FTMPI_RMA_RMA_H
#define FTMPI_RMA_RMA_H

#include <pthread.h>
#include <stdint.h>
#include <stddef.h>

#include "mpi.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/errhandler.h"
#include "core/group.h"
#include "core/info.h"
#include "core/op.h"
#include "core/request.h"
#include "util/list.h"

enum { RMA_TAG_REQ = 1, RMA_TAG_POST = 2, RMA_TAG_DONE = 3, RMA_TAG_WATCH = 4,
       RMA_TAG_FIRST_REPLY = 16 };

/* How a window's puts, gets and accumulates reach the target: messages;
 * loads and stores in a segment every member maps; process_vm_readv/writev
 * into the target's own memory (all members on one host). */
enum { RMA_VIA_MSG = 0, RMA_VIA_SHM = 1, RMA_VIA_CMA = 2 };

/* Where an access epoch to a target comes from. */
enum { EP_NONE = 0, EP_FENCE = 1, EP_PSCW = 2, EP_LOCK_SHARED = 3, EP_LOCK_EXCL = 4 };

typedef struct rma_region {  /* MPI_Win_attach */
    list_node_t link;
    uintptr_t base;
    size_t size;
} rma_region_t;

typedef struct rma_lockreq { /* a lock request waiting at the target */
    list_node_t link;
    int origin, type;
    int tag;
} rma_lockreq_t;

/* What the short path (rma_fast.h) checked once: a predefined contiguous
 * type and, for accumulates, a predefined op valid on it. */
typedef struct rma_fast {
    MPI_Datatype dt_h;
    dt_t *dt;
    size_t size;            /* 0: nothing learnt */
    MPI_Op op_h;
    op_t *op;
    size_t hw;              /* rma_hw_size of the type: hardware atomics may serve it */
} rma_fast_t;

typedef struct win {
    int handle;
    comm_t *comm;           /* hidden duplicate of the creating communicator */
    int rank, size;
    void *base;
    MPI_Aint bytes;
    int disp_unit;
    int flavor;             /* MPI_WIN_FLAVOR_* */
    int model;              /* MPI_WIN_SEPARATE or MPI_WIN_UNIFIED */
    MPI_Aint *sizes;        /* [size] every member's window size */
    int *disp_units;        /* [size] */
    errh_t *errh;
    void *attrs;
    info_t *info;
    char name[MPI_MAX_OBJECT_NAME];
    list_node_t all;
    int via;                /* RMA_VIA_*: how origin operations reach the target */
    rma_fast_t fast[4];     /* rma_fast.h: [0] put and get, [1] accumulate,
                             [2] fetch-and-op, [3] compare-and-swap */
    /* shared memory (MPI_Win_allocate_shared, MPI_Win_allocate on one host) */
    void *seg;              /* the mapping: lock page, then the members' parts */
    size_t seg_len;
    MPI_Aint *offs;         /* [size] offset of each member's part in seg */
    /* CMA (MPI_Win_create on one host): every member's pid and base */
    int *pids;              /* [size] */
    int *pidfds;            /* [size] pidfd of each member's process (rma_cma.c) */
    uint64_t *polled;       /* [size] when that pidfd said "alive" last (timer_ns) */
    struct rma_cmaq *cmaq;  /* puts and gets not sent to the kernel yet (rma_cmaq.c) */
    MPI_Aint *bases;        /* [size] */
    /* dynamic windows */
    list_node_t regions;
    /* origin side */
    list_node_t ops;        /* rma_op_t not swept yet */
    int nops;
    int *pending;           /* [size] operations to each target not completed */
    int *err;               /* [size] first error of an operation to a target */
    struct rma_batch *batch; /* [size] requests to each target not sent yet */
    int *unflushed;         /* [size] requests without a reply sent since the last flush */
    uint32_t next_tag;
    int fence;              /* a fence epoch is open (a fence without NOSUCCEED) */
    int fence_ops;          /* an RMA call came since that fence: only then is it an
                               epoch that a lock, lock_all, start or post may not
                               follow (MPI-3.1 11.5.1: a fence starts an access epoch
                               only if RMA calls follow it) */
    int *access;            /* [size] EP_* of the epoch on each target */
    int lock_all;
    group_t *start_group;   /* MPI_Win_start, until complete */
    /* target side */
    group_t *post_group;    /* MPI_Win_post, until wait/test say done */
    req_t **done_reqs;      /* [post_group->size] receives of RMA_TAG_DONE */
    list_node_t inq;        /* rma_in_t taken, in arrival order */
    list_node_t tsends;     /* rma_out_t replies still being sent */
    int excl_holder;        /* rank with the exclusive lock, -1 */
    int nshared;
    int *shared_by;         /* [size] shared locks held by each origin */
    list_node_t lockq;      /* rma_lockreq_t */
    int *terr;              /* [size] first error of an origin's unanswered requests */
    req_t *watch;           /* rma_watch.c: ends when the communicator is cut off */
    /* BLANK: made over a communicator with gaps, the window is its live
     * members; users name targets by their ranks in the communicator. */
    int usize;              /* the communicator's size, gaps included */
    int *wrank;             /* [usize] window rank of each, -1: a gap; NULL: the same */
    group_t *ugroup;        /* the communicator's group (MPI_Win_get_group); NULL: comm's */
} win_t;

/* The first page of a shared segment (and of a CMA window's lock page):
 * the accumulate mutex; hw: hardware atomics have run on the window
 * (rma_hwatom.h), set once, under the mutex. */
typedef struct rma_seg_head {
    pthread_mutex_t mu;
    int hw;
} rma_seg_head_t;

/* Requests to one target gathered into one message (rma_wire.h). */
typedef struct rma_batch {
    char *buf;
    size_t len, cap;
} rma_batch_t;

/* ---- windows (win.c) ---- */
win_t *win_get(MPI_Win h);
/* flavor: MPI_WIN_FLAVOR_CREATE (base given), ALLOCATE, SHARED, DYNAMIC.
 * Collective over c. *basep gets the memory of ALLOCATE and SHARED. */
int rma_win_create(comm_t *c, int flavor, void *base, MPI_Aint size, int disp_unit, info_t *info,
                   void *basep, win_t **out);
/* usable 0: the communicator is revoked (MPIX_Win_revoke): nobody waits
 * for anyone. */
int rma_win_free(win_t *w, int usable);
/* The window was made over the live members of full (a BLANK
 * communicator with gaps): remember how its ranks map. */
int rma_set_gaps(win_t *w, group_t *full);
/* Base, size and disp_unit of member r of a shared window. */
int rma_shared_query(win_t *w, int r, MPI_Aint *size, int *disp_unit, void *baseptr);
int rma_attach(win_t *w, void *base, MPI_Aint size);
int rma_detach(win_t *w, const void *base);

/* ---- operations (rma_ops.c) ---- */
enum { RMA_PUT = 1, RMA_GET, RMA_ACC, RMA_GACC, RMA_CAS, RMA_LOCK, RMA_UNLOCK, RMA_FLUSH };
typedef struct {
    int kind;               /* RMA_PUT ... RMA_CAS */
    const void *obuf; int ocount; dt_t *odt;      /* origin (put, acc) */
    const void *cbuf;                             /* compare (cas) */
    void *rbuf; int rcount; dt_t *rdt;            /* result (get, gacc, cas) */
    int target; MPI_Aint tdisp; int tcount; dt_t *tdt;
    op_t *op;
    int locktype;                                 /* RMA_LOCK: MPI_LOCK_* */
} rma_args_t;
/* Start one operation; with ureq, also a request that completes with it. */
int rma_start(win_t *w, const rma_args_t *a, req_t **ureq);
/* Free the operations a failure cut off once p2p no longer holds their
 * requests (a window's sweep, MPI_Finalize). */
void rma_reap(void);

/* ---- synchronization (rma_sync.c) ---- */
int rma_fence(win_t *w, int assert_);
int rma_start_epoch(win_t *w, group_t *g);
int rma_complete(win_t *w);
int rma_post(win_t *w, group_t *g);
int rma_wait(win_t *w, int *flag);   /* flag NULL: wait; else test */
int rma_lock(win_t *w, int type, int target);
int rma_unlock(win_t *w, int target);
int rma_lock_all(win_t *w);
int rma_unlock_all(win_t *w);
int rma_flush(win_t *w, int target); /* -1: every target */
int rma_can_access(const win_t *w, int target); /* may origin ops go to target now? */

/* ---- internals shared by the files of this layer ---- */
/* A run of n basic units of one kind at byte disp of the target. */
typedef struct {
    int64_t disp;
    uint32_t kind;
    uint32_t pad;
    uint64_t n;
} rma_run_t;
int rma_runs_of(dt_t *dt, int count, rma_run_t **runs, size_t *nruns);
size_t rma_runs_bytes(const rma_run_t *runs, size_t n);
/* Apply (kind, op) at base over the runs with packed input `in`; with old,
 * first copy the current values out (packed). op NULL: replace. */
int rma_apply(char *base, const rma_run_t *runs, size_t n, const char *in, op_t *op, char *old);
void rma_copy_out(const char *base, const rma_run_t *runs, size_t n, char *out);
dt_t *rma_kind_type(dt_kind_t k);    /* the predefined type of one basic kind */
int rma_progress(void);              /* the progress hook */
void rma_sweep(win_t *w, int all);   /* free finished operation records */
int rma_wait_pending(win_t *w, int target);
/* Loads and stores (RMA_VIA_SHM; accumulates under the window's lock) or
 * a put or get by CMA (RMA_VIA_CMA): the origin does it itself. */
int rma_start_direct(win_t *w, const rma_args_t *a);
/* CMA: can every member reach every other's memory? Collective. */
int rma_cma_setup(win_t *w);
void rma_cma_close(win_t *w);        /* the pidfds */
/* Copy between packed local data and target t's memory laid out like
 * runs at rbase; write: to t. */
int rma_cma_xfer(win_t *w, int t, char *packed, uintptr_t rbase, const rma_run_t *runs, size_t n,
                 int write);
/* The same for k iovec pairs of `bytes` in all, contiguous on both sides
 * (the target's liveness checked first, as above). */
struct iovec;
int rma_cma_vec(win_t *w, int t, struct iovec *l, struct iovec *r, size_t k, size_t bytes,
                int write);
/* Accumulate, get-accumulate or compare-and-swap at tbase (laid out like
 * runs) from packed src; old gets the previous values. No lock taken.
 * hw: hardware atomics run on the window (rma_hwatom.h): element by
 * element with compare-and-swap. */
int rma_atomic_apply(const rma_args_t *a, const rma_run_t *runs, size_t nruns, char *tbase,
                     const char *src, char *old, size_t bytes, int hw);
/* Accumulates by CMA (rma_cmacc.c): does the origin apply this one itself?
 * Then what went to that target as messages before is completed first. */
int rma_cma_atomic_ready(win_t *w, const rma_args_t *a);
/* The read-modify-write of target a->target's runs at rbase, under the
 * window's mutex. */
int rma_cma_atomic(win_t *w, const rma_args_t *a, const rma_run_t *runs, size_t nruns,
                   uintptr_t rbase, const char *src, char *old, size_t bytes);
/* The CMA queue (rma_cmaq.c): add a put or get (1: queued, 0: do it now);
 * drain: the queued ones to the kernel, their error also kept in w->err. */
typedef struct rma_cmaq rma_cmaq_t;
int rma_cmaq_add(win_t *w, const rma_args_t *a);
int rma_cmaq_drain(win_t *w);
void rma_cmaq_free(win_t *w);
void rma_shm_lock(win_t *w);
/* The same, then the fault point rma_acc_lock (a test may have the daemon
 * SIGKILL us here, holding the lock: --kill-at rma_acc_lock=N@R,
 * tests/rma/rma_acclock.c); the general accumulate paths, not the short one. */
void rma_shm_lock_fp(win_t *w);
void rma_shm_unlock(win_t *w);
/* Target side: handle one request from origin (rma_target.c). */
void rma_target_poll(win_t *w);
void rma_lock_release_dead(win_t *w);
void rma_target_drain(win_t *w);  /* before the window goes */
/* The watch (rma_watch.c): posted at creation, stopped at free; rma_cut
 * is MPI_SUCCESS while the communicator is whole, else the error that cut
 * it off (MPIX_ERR_REVOKED, MPI_ERR_OTHER). */
int rma_watch_start(win_t *w);
/* A posted zero-byte receive from `from` (complete with the error when it
 * could not be posted; NULL and *rc set when out of memory). */
req_t *rma_recv_empty(win_t *w, int from, int tag, int *rc);
int rma_cut(const win_t *w);
void rma_watch_stop(win_t *w);
/* Is target's process dead (no reply will come)? */
int rma_peer_dead(win_t *w, int r);
/* No member dead and the communicator not touched by a recovery. */
int rma_healthy(win_t *w);
list_node_t *rma_windows(void);

#endif
