/*
 * ftiter_internal.h - the skeleton's state and the helpers its files share.
 * Not installed.
 *
 *   ftiter_core.c     create/free, registration, queries, error strings
 *   ftiter_loop.c     the iteration loop (data ranks and checksum ranks)
 *   ftiter_recover.c  failure handling: the recovery callback, the restore
 *                     shared by survivors and replacements, recovery records
 */
#ifndef FTITER_INTERNAL_H
#define FTITER_INTERNAL_H

#include "ft_iterative.h"

#include <stdint.h>

#define FTITER_META_MAGIC 0x46544954u /* "FTIT" */

/* What a checkpoint's metadata blob holds (the same on every rank). */
typedef struct ftiter_meta {
    uint32_t magic;
    uint32_t reserved;
    int64_t iter;
} ftiter_meta_t;

/* The serialized-state buffer: a header, then what ops->save wrote. */
typedef struct ftiter_blob_hdr {
    uint64_t len;
    uint64_t reserved;
} ftiter_blob_hdr_t;

/* Outcome of one restore attempt (ftiter_restore). */
enum {
    FTITER_RESTORE_OK = 0,      /* state restored, the loop resumes */
    FTITER_RESTORE_AGAIN = 1,   /* another failure interrupted it: recover again */
};

struct ftiter {
    ftiter_params_t par;
    ftiter_ops_t ops;
    void *app;
    int restarted;      /* this process replaces a failed one */
    int replacing;      /* ... and has not completed its first restore yet */
    int world_rank, world_size;

    MPI_Comm ctl;       /* the skeleton's communicator: MPI_COMM_WORLD re-split after each recovery */
    dckpt_ctx_t *ckpt;  /* checkpoint context over ctl */
    dckpt_layout_t lay;
    int is_data;
    int setup_done;     /* ops->setup ran (data ranks) */
    int keyval;         /* the recovery callback's attribute; MPI_KEYVAL_INVALID when none */
    int attached;
    int freeing;        /* ftiter_free is deleting the attribute: do not restore */

    uint8_t *blob;      /* serialized state (ftiter_register_serial), NULL if none */
    size_t blob_cap;    /* bytes after the header */

    /* loop state */
    int64_t iter;       /* iterations complete */
    int64_t ckpt_iter;  /* iteration of the last checkpoint, -1 none */
    int need_init;      /* data ranks: ops->init before the next iteration */
    int need_rebuild;   /* data ranks: ops->comm_rebuilt before the next iteration */
    int ending;         /* this rank completed the DONE step: every rank has the answer */
    double t_run;       /* ftiter_now() when ftiter_run began on this process */
    double run_s_max;   /* the longest ftiter_run of any rank, as of the LEAVE step */
    int done_status;    /* the status the DONE step agreed on */

    /* the recovery episode under way (detection .. resumed loop) */
    int in_episode;
    double t_detect;    /* this rank's failing call returned; 0: not a detector */
    double t_episode;   /* start of the episode on this rank (for recovery_s) */
    int64_t iter_detect;
    int rounds;
    int restore_rc;     /* set by ftiter_restore: FTITER_RESTORE_* or a negative error */
    int cb_ran;         /* the recovery callback ran in the last MPI recovery */
    int bad_group, nlost;

    ftiter_stats_t st;
};

/* ---- ftiter_recover.c */
/* Attach the recovery callback to MPI_COMM_WORLD (local). */
int ftiter_callback_attach(ftiter_t *sk);
void ftiter_callback_detach(ftiter_t *sk);
/*
 * Survivor: a call returned `mpi_rc`, an MPI error. Runs MPI recoveries (the
 * callback restores) until one completes the restore. Returns FTITER_SUCCESS
 * (the loop resumes from sk->iter), or a negative FTITER_ERR_ code.
 */
int ftiter_recover(ftiter_t *sk, int mpi_rc);
/*
 * The restore shared by survivors (from the callback) and replacements
 * (from ftiter_create): rebuild ctl, restore the checkpoint, rebuild the
 * application's communicators, agree on the recovery record. Sets and
 * returns sk->restore_rc.
 */
int ftiter_restore(ftiter_t *sk, double t_mpi_recovered);
/* A replacement, from ftiter_create: join the recovery under way. */
int ftiter_join(ftiter_t *sk);

/* ---- ftiter_core.c */
/* Map a dckpt code to an FTITER_ERR_ code. */
int ftiter_from_dckpt(int rc);
/* Build ctl from MPI_COMM_WORLD (collective): MPI_SUCCESS or an MPI error. */
int ftiter_ctl_build(ftiter_t *sk);
/* Data rank: create the context's registrations via ops->setup (once). */
int ftiter_setup_app(ftiter_t *sk);
/* Fault-injection point (ftmpirun --kill-at NAME=VALUE@RANK); no-op elsewhere. */
void ftiter_fault_point(const char *name, int64_t value);
/* world rank 0 prints (verbose) */
void ftiter_log(const ftiter_t *sk, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print on stderr which MPI call failed and why; returns FTITER_ERR_MPI. */
int ftiter_mpi_failed(const ftiter_t *sk, const char *call, int mpi_rc);

#endif /* FTITER_INTERNAL_H */
