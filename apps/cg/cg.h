/*
 * cg.h - the parallel preconditioned conjugate-gradient demo (docs/cg.md).
 *
 *   cg_opts.c     command line
 *   cg_matrix.c   distributed CSR matrix: row blocks, 3-D Poisson generator,
 *                 halo plan and exchange, SpMV
 *   cg_mtx.c      a rank's rows of a Matrix Market file (reader: apps/common)
 *   cg_input.c    input check on world rank 0, verdict broadcast (fresh start)
 *   cg_solver.c   the solver as skeleton callbacks; solution checksum
 *   cg_report.c   text and JSON report; kill times from ftmpirun's event log
 *   cg_main.c     main
 */
#ifndef CG_H
#define CG_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "app_common.h"
#include "ft_iterative.h"

/* ------------------------------------------------------------------ options */

typedef struct cg_opts {
    int n;                 /* grid points per dimension (Poisson) */
    const char *matrix;    /* Matrix Market file, or NULL for Poisson */
    double tol;            /* relative residual */
    int64_t max_iter;
    int64_t ckpt_interval; /* 0: no checkpoints */
    dckpt_code_t code;
    int m;                 /* checksum ranks per group */
    int k;                 /* data ranks per group (0: one group) */
    size_t chunk;          /* checkpoint streaming chunk, bytes (0: default) */
    int jacobi;            /* 1: Jacobi preconditioner, 0: none */
    int json;
    int verbose;
    const char *event_log; /* ftmpirun --event-log file, for kill times */
    long delay_us;         /* sleep per iteration (to watch a run, or time kills) */
} cg_opts_t;

/* 0 ok, 1 help printed, -1 error (message printed when `loud`) */
int cg_opts_parse(int argc, char **argv, cg_opts_t *o, int loud);

/* Exit statuses (docs/cg.md, "Exit status"). */
enum {
    CG_EXIT_OK = 0,             /* converged */
    CG_EXIT_NOT_CONVERGED = 1,  /* --max-iter reached */
    CG_EXIT_USAGE = 2,          /* bad options */
    CG_EXIT_UNRECOVERABLE = 3,  /* more failures in a group than checksum ranks */
    CG_EXIT_ERROR = 4,          /* any other fatal error */
    CG_EXIT_INPUT = 5,          /* bad input: matrix file, NaN/Inf, too large */
    CG_EXIT_BREAKDOWN = 6       /* NaN/Inf arose during the solve */
};

/* ------------------------------------------------------------------ input */

/* The largest matrix cg accepts: local row and column indices are `int`,
   and with one computing rank all n rows are local. */
#define CG_MAX_ROWS APP_MTX_MAX_ROWS
/* Memory the job needs per row and per stored entry, all ranks together
   (vectors, CSR arrays, checkpoint copies, the reader's buffers): used to
   reject a problem that cannot fit into the host (cg_input.c). */
#define CG_BYTES_PER_ROW 128.0
#define CG_BYTES_PER_ENTRY 48.0

/* World rank 0 checks the whole input (cg_input.c) and broadcasts the
   verdict over MPI_COMM_WORLD; rank 0 prints the message. Returns 0 (go
   on) or CG_EXIT_INPUT on every rank. Fresh start only: a replacement
   process must not call it (its first MPI calls belong to the recovery). */
int cg_input_verdict(const cg_opts_t *o, int rank, int nprocs);
/* The check itself, local: 0 or -1 with a message. */
int cg_input_check(const cg_opts_t *o, char *err, size_t errlen);

/* ------------------------------------------------------------------ matrix */

typedef struct cg_matrix {
    int64_t n;          /* global rows */
    int64_t row0;       /* my first global row */
    int nloc;           /* my rows */
    int64_t *rowptr;    /* nloc + 1 */
    int64_t *gcol;      /* global column of each entry */
    int *col;           /* local column: < nloc mine, >= nloc a ghost */
    double *val;
    double *diag;       /* diagonal of my rows */
    int nghost;
    int64_t *ghost;     /* global indices of the ghosts, ascending */
    /* halo plan: built from the communicator (cg_matrix_plan) */
    int nrecv;          /* peers I receive ghosts from */
    int *recv_peer, *recv_off;      /* ghost range [recv_off[i], recv_off[i+1]) */
    int nsend;          /* peers I send rows to */
    int *send_peer, *send_off, *send_idx; /* local rows to pack, by peer */
    double *send_buf;
    MPI_Request *req;
} cg_matrix_t;

/* rows of rank r among p for n rows (balanced blocks) */
void cg_rows_of(int64_t n, int p, int r, int64_t *row0, int *nloc);
int cg_owner_of(int64_t n, int p, int64_t g);

/* Local: the rows of rank r of p of the 7-point Laplacian on an n^3 grid. */
int cg_matrix_poisson(cg_matrix_t *A, int n, int p, int r);
/* Local: rank r's rows of a Matrix Market file (coordinate; general or
   symmetric). Message on error. */
int cg_matrix_mtx(cg_matrix_t *A, const char *path, int p, int r, char *err, size_t errlen);
/* Local: ghosts and local columns (after the entries are in). */
int cg_matrix_finish(cg_matrix_t *A, int p);
/* Collective over comm: who sends which rows to whom. MPI error code. */
int cg_matrix_plan(cg_matrix_t *A, MPI_Comm comm);
/* Collective: fill x[nloc .. nloc + nghost) from the owners. MPI error code. */
int cg_matrix_halo(cg_matrix_t *A, double *x, MPI_Comm comm);
/* Local: y = A x (x has nloc + nghost entries, ghosts filled). */
void cg_matrix_spmv(const cg_matrix_t *A, const double *x, double *y);
void cg_matrix_free(cg_matrix_t *A);

/* ------------------------------------------------------------------ solver */

typedef struct cg_scalars {
    double rho;   /* r . z */
    double rr;    /* r . r */
    double bb;    /* b . b */
    double pad;
} cg_scalars_t;

typedef struct cg_app {
    const cg_opts_t *o;
    ftiter_t *sk;
    int drank, dsize;
    cg_matrix_t A;
    double *b, *dinv;      /* right-hand side, inverse diagonal */
    double *x, *r, *p;     /* the state (x and p with ghost room) */
    double *q, *z;         /* temporaries */
    cg_scalars_t s;        /* the state's scalars */
    /* results (finish) */
    double true_resid;
    uint64_t checksum;     /* FNV-1a of x in global order (data rank 0) */
    double max_ckpt_s, max_iterate_s;
    int64_t max_iter_run;
    /* the last convergence test found a NaN or Inf (the solve stops; exit
       CG_EXIT_BREAKDOWN): which value, at which iteration */
    int breakdown;
    int64_t breakdown_iter;
    char breakdown_what[64];
    char err[256];
} cg_app_t;

extern const ftiter_ops_t cg_ops;

/* ------------------------------------------------------------------ report */

/* World rank 0, after the run: text (or JSON with o->json) on `out`. */
void cg_report(FILE *out, const cg_opts_t *o, const cg_app_t *a, const ftiter_t *sk,
               int nprocs);

#endif /* CG_H */
