/*
 * ft_iterative.h - a fault-tolerant skeleton for iterative solvers.
 *
 * The application describes its solver with a few callbacks (allocate and
 * register the state, initialise it, do one iteration, test convergence);
 * the skeleton runs the loop, takes an in-memory checkpoint of the state
 * every `ckpt_interval` iterations (diskless_ckpt: XOR or Reed-Solomon onto
 * checksum ranks), and when a process fails it recovers: its recovery
 * callback - the delete function of an attribute on MPI_COMM_WORLD, which
 * FT-MPI calls as the last step of every recovery (docs/ft.md, contract section 6) -
 * rebuilds the skeleton's communicators, restores the state of every data
 * rank (decoding the lost ranks' state onto their replacements) and the loop
 * resumes from the last checkpoint. Run the program with
 * `ftmpirun --comm-mode=rebuild`. See docs/skeleton.md.
 *
 * ROLES. With m checksum ranks per group, the last m ranks of each group of
 * MPI_COMM_WORLD are checksum ranks: they do not compute, they only hold
 * checkpoints. The callbacks run on the data ranks only, and they get the
 * data communicator (the data ranks, in world order) to compute on.
 *
 * SOLVER STATE. Either register buffers (ftiter_register, zero-copy for
 * the solver: the library copies them at each checkpoint and overwrites
 * them at a restore), or hand the skeleton the solver's own checkpoint and
 * restart routines (save/load callbacks with ftiter_register_serial): they
 * write the state into, and read it from, a byte buffer that the skeleton
 * checkpoints in memory. Both may be combined.
 *
 * DETERMINISM. A rolled-back run repeats exactly the same operations on the
 * same data, so a solver whose iteration is deterministic (same rank layout,
 * fixed reduction order) ends with the same bits as a failure-free run.
 *
 * RULES FOR THE PROGRAM.
 *  - Between MPI_Init and ftiter_create, make no communicating MPI call:
 *    a replacement process (MPI_Init returned MPI_INIT_RESTARTED_NODE) runs
 *    the same code, and its first calls must pair with the survivors'
 *    recovery. Pass MPI_Init's return code to ftiter_create.
 *  - Callbacks return MPI_SUCCESS or the error code of the MPI call that
 *    failed (MPI_ERR_OTHER reports a process failure); the skeleton
 *    recovers and calls them again. A non-MPI error: return FTITER_ERR_APP.
 *  - Communicators the application derives from the data communicator are
 *    destroyed by a recovery: re-create them in the comm_rebuilt callback.
 *  - A recovery callback must not call MPI_Comm_dup(MPI_COMM_WORLD, ...)
 *    (docs/skeleton.md, "Pitfalls").
 */
#ifndef FT_ITERATIVE_H
#define FT_ITERATIVE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "diskless_ckpt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Skeleton return codes: FTITER_SUCCESS, or a negative code. */
enum {
    FTITER_SUCCESS = 0,
    FTITER_ERR_ARG = -101,           /* a bad argument */
    FTITER_ERR_NOMEM = -102,         /* out of memory */
    FTITER_ERR_APP = -103,           /* a callback failed with a non-MPI error */
    FTITER_ERR_MPI = -104,           /* an MPI call failed and was not a recoverable failure */
    FTITER_ERR_UNRECOVERABLE = -105, /* more failures in a group than checksum ranks */
    FTITER_ERR_CKPT = -106           /* the checkpoint library failed (see message) */
};

/* The most recoveries whose details are kept (ftiter_stats_t). */
#define FTITER_MAX_RECOVERIES 32
/* The most failed ranks listed per recovery. */
#define FTITER_MAX_FAILED_LIST 16

typedef struct ftiter ftiter_t;

/*
 * The solver. `app` is the pointer given to ftiter_create; `data` is the
 * data communicator (valid until the next recovery). Every callback is
 * collective over `data` (all data ranks call it together), except setup,
 * save and load, which are local.
 */
typedef struct ftiter_ops {
    /* Every data rank of every process (fresh or replacement), once, before
       anything else: allocate the state and register it (ftiter_register,
       ftiter_register_serial). Values need not be set. LOCAL: no
       communication (on a replacement, the survivors do not call it). The
       rank and size of `data` may be queried. Required. */
    int (*setup)(void *app, ftiter_t *sk, MPI_Comm data);
    /* Set the initial state (iteration 0). Not called on a replacement,
       which gets its state from the checkpoint. Required. */
    int (*init)(void *app, MPI_Comm data);
    /* One iteration: `iter` iterations are complete; compute the next one.
       Required. */
    int (*iterate)(void *app, MPI_Comm data, int64_t iter);
    /* Convergence test after `iter` iterations: set *done to 1 to stop.
       Must give the same answer on every data rank. Required. */
    int (*converged)(void *app, MPI_Comm data, int64_t iter, int *done);
    /* Optional: called with the new data communicator after setup/init and
       after every restore, on every data rank: re-create the application's
       own communicators and anything else derived from the communicator
       (e.g. a halo exchange pattern). */
    int (*comm_rebuilt)(void *app, MPI_Comm data);
    /* Optional: after convergence (or max_iter), e.g. gather a result. A
       failure here rolls back and the solve resumes from the last
       checkpoint, like a failure in an iteration. */
    int (*finish)(void *app, MPI_Comm data, int64_t iter, int converged);
    /* Optional, with ftiter_register_serial: the solver's own checkpoint
       routine writes its state into buf[0, cap) and sets *len (<= cap) ... */
    int (*save)(void *app, void *buf, size_t cap, size_t *len);
    /* ... and its restart routine reads it back from buf[0, len). */
    int (*load)(void *app, const void *buf, size_t len);
} ftiter_ops_t;

typedef struct ftiter_params {
    int64_t ckpt_interval;  /* checkpoint every this many iterations (>= 1; 0: never) */
    int64_t max_iter;       /* stop after this many iterations (0: no limit) */
    dckpt_params_t ckpt;    /* encoding: code, m checksum ranks, k (group size), chunk */
    int verbose;            /* 1: world rank 0 prints one line per checkpoint and recovery */
    int skip_initial;       /* 1: no checkpoint at iteration 0, the first at ckpt_interval
                               (init rebuilds that state: a failure before the first
                               checkpoint restarts from init on every data rank) */
} ftiter_params_t;

/* One recovery, as seen by every rank (the same values everywhere). Times
   are CLOCK_MONOTONIC seconds (comparable between processes of one host). */
typedef struct ftiter_recovery {
    int nfailed;                              /* ranks whose state was lost (replaced) */
    int failed[FTITER_MAX_FAILED_LIST];       /* their world ranks, ascending (first ones) */
    int rounds;                               /* MPI recoveries it took (> 1: a failure during recovery) */
    double t_detect_first;                    /* first survivor's failing call returned */
    double t_detect_last;                     /* last survivor's failing call returned */
    double t_mpi_recovered;                   /* last survivor's MPI recovery completed */
    double t_restored;                        /* last rank finished the data restore */
    double restore_call_s;                    /* longest dckpt_restore call */
    int64_t iter_detect;                      /* most iterations done when a failure was seen */
    int64_t iter_resume;                      /* iteration the loop resumed from */
    int64_t epoch;                            /* checkpoint epoch restored (0: restarted from init) */
} ftiter_recovery_t;

typedef struct ftiter_stats {
    int64_t iterations;        /* iterations of the final answer */
    int converged;             /* 1 if the convergence test stopped the loop */
    int64_t iterations_run;    /* iterate() calls on this rank, recomputed ones included */
    double iterate_s;          /* time in iterate() + converged() on this rank */
    double ckpt_s;             /* time in checkpoints on this rank (control step + encode) */
    int64_t checkpoints;       /* checkpoints committed by the job (after ftiter_run: also
                                  those before a replacement started) */
    size_t ckpt_bytes;         /* bytes registered on this rank (0 on a checksum rank) */
    size_t ckpt_memory;        /* memory the checkpoint library holds on this rank */
    double recovery_s;         /* time from detection to resumed loop, on this rank */
    double solve_s;            /* ftiter_run wall time: this rank's, or on a replacement
                                  the longest of any rank (the job's) */
    int nrecoveries;
    ftiter_recovery_t rec[FTITER_MAX_RECOVERIES]; /* the first FTITER_MAX_RECOVERIES */
    int failed_after_end;      /* 1: a process failed after every rank had the final answer
                                  (past the DONE step), too late to recover: the answer
                                  stands, the job will end with a "not recovered" status */
    double prefault_s;         /* dckpt_prefault before the loop (first touch of the
                                  checkpoint halves), not in ckpt_s */
} ftiter_stats_t;

/*
 * Create the skeleton over MPI_COMM_WORLD (collective): builds the
 * checkpoint context, calls ops->setup on the data ranks, attaches the
 * recovery callback to MPI_COMM_WORLD. `init_rc` is what MPI_Init returned:
 * on a replacement (MPI_INIT_RESTARTED_NODE) this call joins the recovery
 * under way and restores the state; ftiter_run then resumes the loop.
 */
int ftiter_create(const ftiter_params_t *params, const ftiter_ops_t *ops, void *app,
                  int init_rc, ftiter_t **sk_p);

/* From ops->setup on a data rank: `bytes` at `ptr` are part of the state. */
int ftiter_register(ftiter_t *sk, void *ptr, size_t bytes);

/* From ops->setup on a data rank: the state also includes what ops->save
   writes (at most max_bytes, the same on every call of setup for this rank). */
int ftiter_register_serial(ftiter_t *sk, size_t max_bytes);

/* From ops->iterate on a data rank: the first `bytes` of the registered
   state (buffers in registration order) will not change again; later
   checkpoints encode only what follows (dckpt_freeze). Set it again in every
   iteration: a restore resets it. */
int ftiter_freeze(ftiter_t *sk, size_t bytes);
/* The same, and also the first `head` bytes of each of `count` columns of
   `stride` bytes from byte `base` on (dckpt_freeze_strided). */
int ftiter_freeze_strided(ftiter_t *sk, size_t bytes, size_t base, size_t stride, size_t count,
                          size_t head);

/* Run the loop until convergence or max_iter, surviving failures
   (collective over MPI_COMM_WORLD, every rank). */
int ftiter_run(ftiter_t *sk);

/* Detach the callback and free everything (collective). *sk_p = NULL. */
int ftiter_free(ftiter_t **sk_p);

/* Queries. */
int ftiter_is_data_rank(const ftiter_t *sk);
MPI_Comm ftiter_data_comm(const ftiter_t *sk); /* MPI_COMM_NULL on checksum ranks */
int ftiter_layout(const ftiter_t *sk, dckpt_layout_t *lay);
const ftiter_stats_t *ftiter_stats(const ftiter_t *sk);
int ftiter_restarted(const ftiter_t *sk); /* 1 in a replacement process */
const char *ftiter_strerror(int code);    /* also names DCKPT_ERR_ codes */

/* CLOCK_MONOTONIC seconds, the clock of ftiter_recovery_t. */
double ftiter_now(void);

#ifdef __cplusplus
}
#endif

#endif /* FT_ITERATIVE_H */
