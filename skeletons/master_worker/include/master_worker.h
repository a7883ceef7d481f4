/*
 * master_worker.h - a fault-tolerant master-worker skeleton on FT-MPI.
 *
 * The program supplies three functions and the skeleton does the rest:
 *
 *   generate(arg, index, task)   master: write the input of task `index`
 *                                (0, 1, 2, ...) into `task`; return 1, or 0
 *                                when there is no task with that index (the
 *                                end of the sweep), or a negative number on
 *                                error.
 *   work(arg, index, in, len, result)
 *                                worker: compute the result of one task and
 *                                write it into `result`; return 0, or a
 *                                negative number on error.
 *   consume(arg, index, result, len)
 *                                master: take the result of task `index`;
 *                                called EXACTLY ONCE per task, whatever
 *                                fails, in completion order (not index
 *                                order); return 0, or negative on error.
 *
 * Tasks and results are byte buffers of any size (0 bytes included). All
 * processes run the same executable, so plain C structs may be copied in.
 *
 * Rank 0 of MPI_COMM_WORLD is the master; every other process is a worker
 * (a master alone, e.g. `-np 1` or after every worker failed under SHRINK
 * or BLANK, runs the tasks itself). The master hands out tasks with at most
 * `depth` tasks in flight per worker and keeps a ledger of which task every
 * worker holds. When a process fails, every process recovers through
 * MPI_Comm_dup(MPI_COMM_WORLD) inside the skeleton; tasks that were not
 * finished are handed out again:
 *   REBUILD  the replacement process becomes a worker again;
 *   SHRINK   the survivors carry on (ranks are renumbered: the skeleton
 *            identifies workers by their launch rank, not their rank);
 *   BLANK    the survivors carry on around the gaps.
 * Message modes RESET and CONT both work. The user's program contains no
 * code about failures.
 *
 * THE MASTER is a single point of failure: when it fails, mw_run returns
 * MW_ERR_MASTER_LOST on every surviving process (and on its REBUILD
 * replacement), with one clear message on stderr. See docs/master_worker.md.
 *
 * Usage:
 *   int main(int argc, char **argv) {
 *       mw_init(&argc, &argv);              // MPI_Init, remembers restarts
 *       mw_ops_t ops = { my_generate, my_work, my_consume, &my_state };
 *       mw_config_t cfg;
 *       mw_config_init(&cfg);
 *       int rc = mw_run(&ops, &cfg, NULL);
 *       MPI_Finalize();
 *       return rc == MW_OK ? 0 : 1;
 *   }
 * Every process must call mw_run right after MPI_Init (a REBUILD
 * replacement starts from main and must reach mw_run without any other
 * communication on the way).
 */
#ifndef MASTER_WORKER_H
#define MASTER_WORKER_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ return codes */

enum {
    MW_OK = 0,
    MW_ERR_ARG = -1,         /* bad argument (NULL ops, depth < 1, ...) */
    MW_ERR_NOMEM = -2,       /* out of memory */
    MW_ERR_MPI = -3,         /* an MPI call failed in a way that is not a process failure */
    MW_ERR_MASTER_LOST = -4, /* the master process failed: it is the single point of failure */
    MW_ERR_USER = -5,        /* generate, work or consume returned an error */
    MW_ERR_RECOVERY = -6     /* the MPI recovery itself failed */
};

/* --------------------------------------------------------- byte buffers */

/* A growable byte buffer owned by the skeleton: the user's generate and
 * work functions write their output into one. */
typedef struct mw_buf {
    void *data;
    size_t len; /* bytes of the task or result */
    size_t cap; /* bytes allocated */
} mw_buf_t;

/* Make the buffer `len` bytes long (contents undefined) and return its
 * data, or NULL when out of memory. */
void *mw_buf_resize(mw_buf_t *b, size_t len);

/* Copy `len` bytes into the buffer. 0 or MW_ERR_NOMEM. */
int mw_buf_set(mw_buf_t *b, const void *data, size_t len);

/* ------------------------------------------------------------ the program */

typedef struct mw_ops {
    int (*generate)(void *arg, int64_t index, mw_buf_t *task);
    int (*work)(void *arg, int64_t index, const void *task, size_t task_len, mw_buf_t *result);
    int (*consume)(void *arg, int64_t index, const void *result, size_t result_len);
    void *arg; /* passed to all three */
} mw_ops_t;

enum {
    MW_PROGRESS_AUTO = 0, /* a live line when stderr is a terminal, else a plain line every
                             `progress_interval` seconds once the run has lasted that long */
    MW_PROGRESS_OFF = 1,  /* nothing (failures are still reported) */
    MW_PROGRESS_TTY = 2,  /* a live line (carriage return), even into a pipe */
    MW_PROGRESS_LINES = 3 /* plain lines */
};

typedef struct mw_config {
    int64_t ntasks;           /* number of tasks when known (progress, ETA), else -1 */
    int depth;                /* tasks in flight per worker (>= 1, default 2) */
    int progress;             /* MW_PROGRESS_*; environment MW_PROGRESS=auto|off|tty|lines wins */
    double progress_interval; /* seconds between plain progress lines (default 5) */
    int verbose;              /* 1 (default): report failures and recoveries on stderr */
    double linger_s;          /* after a recovery, how long the master and the workers wait
                                 to hear from each other before concluding that a failure was
                                 missed or that the master has finished (default 5 s;
                                 environment MW_LINGER_S). The master's generate and consume
                                 calls must each return well within it. See docs. */
} mw_config_t;

/* Run statistics, filled on the master (zero elsewhere, except `role`). */
typedef struct mw_stats {
    int role;              /* 0 master, 1 worker */
    int64_t tasks;         /* tasks completed */
    int64_t reissued;      /* tasks handed out again after a failure */
    int64_t duplicates;    /* results that arrived twice and were dropped */
    int64_t local;         /* tasks the master ran itself (no worker left) */
    int recoveries;        /* recoveries this process took part in */
    int failed_procs;      /* processes whose failure those recoveries handled */
    double seconds;        /* wall time of mw_run */
} mw_stats_t;

/* Defaults: ntasks -1, depth 2, progress AUTO, interval 5 s, verbose 1, linger 5 s. */
void mw_config_init(mw_config_t *cfg);

/*
 * MPI_Init, remembering whether this process is a REBUILD replacement
 * (MPI_Init returned MPI_INIT_RESTARTED_NODE). Returns MPI_SUCCESS for
 * replacements too. A program that calls MPI_Init itself passes its return
 * code to mw_note_init() instead.
 */
int mw_init(int *argc, char ***argv);
void mw_note_init(int mpi_init_rc);

/*
 * Run the sweep: collective over MPI_COMM_WORLD. Returns on every process
 * when every task's result has been consumed (MW_OK), or with the same
 * error code everywhere when a user function failed (MW_ERR_USER), or with
 * MW_ERR_MASTER_LOST when the master failed. MW_ERR_ARG comes back at
 * once. Internal errors (MW_ERR_MPI, MW_ERR_RECOVERY, MW_ERR_NOMEM), which
 * the other processes could not get past, end the job with MPI_Abort.
 * `stats` may be NULL.
 */
int mw_run(const mw_ops_t *ops, const mw_config_t *cfg, mw_stats_t *stats);

const char *mw_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
