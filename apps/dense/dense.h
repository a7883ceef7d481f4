/*
 * dense.h - the common layer of the dense linear-algebra demos (apps/lu,
 * apps/matmul, apps/qr): library `dense`. docs/dense.md describes the apps;
 * this header is the reference for writing one.
 *
 *   dense_opts.c    the shared command line
 *   dense_start.c   after MPI_Init: option errors, default grid, -np check
 *   dense_grid.c    P x Q process grid over the data communicator, its row and
 *                   column communicators; block-cyclic index maps (numroc, ...)
 *   dense_mat.c     local block-cyclic matrices: allocation, fill from a
 *                   generator (the seeded random matrix), Matrix Market input,
 *                   infinity norm, the grid-independent checksum
 *   dense_vec.c     y = A x with replicated vectors (for the checks)
 *   dense_input.c   the input check on world rank 0 (verdict broadcast)
 *   dense_run.c     the driver: one panel = one iteration of the iterative
 *                   skeleton (--ft ckpt, --ft abft), or a plain loop (--ft none)
 *   dense_abft.c    what the apps' abft recoveries share (lost ranks per group)
 *   dense_report.c  the text / JSON report (cg's keys where they apply)
 *
 * WRITING AN APP (see apps/lu/lu_main.c for a complete one):
 *
 *   int main(int argc, char **argv) {
 *       dense_opts_t o;
 *       int prc = dense_opts_parse(&o, "myapp", argc, argv, NULL, NULL);  // no MPI yet
 *       int init_rc = MPI_Init(&argc, &argv);
 *       dense_info_t info = {NULL, 40.0, NULL, 0}; // own usage, bytes per entry, abft
 *       dense_ctx_t d;
 *       int st = dense_start(&d, &o, prc, init_rc, &info); // -np, grid, input checks
 *       if (st >= 0) return st;            // finalized already: exit with it
 *       d.npanels = ...; d.flops = ...;    // what the run does; d.check_* names
 *       dense_run(&d, &my_ops, &my_app);   // panels, checkpoints, recoveries, report
 *       ... free my_app ...
 *       return dense_end(&d);              // frees, MPI_Finalize, exit status
 *   }
 *
 * The app's callbacks (dense_ops_t) run on the computing ranks only, with
 * d->grid describing the P x Q grid (valid until the next recovery: the
 * layer rebuilds it, and the app must not keep its communicators). The
 * matrices are distributed over the P x Q data grid: use d->o->P and
 * d->o->Q in the index maps (with --ft abft d->grid has one more row or
 * column, of checksum ranks), and d->dgrid for work on the data ranks only
 * (the checks):
 *   setup(app, d)      LOCAL, no communication (also in a replacement process):
 *                      allocate; dense_register() every buffer of the state
 *                      (local blocks, pivots ...); the panel counter is the
 *                      skeleton's iteration and is saved with the checkpoint.
 *   init(app, d)       the input: fill the matrices (dense_mat_fill with
 *                      dense_rand_entry, or dense_mat_read_mtx). May communicate.
 *                      Not called in a replacement (its state is decoded).
 *   panel(app, d, k)   panel k (0 <= k < d->npanels): collective over
 *                      d->grid.comm. Return MPI_SUCCESS, the error code of a
 *                      failed MPI call (the layer recovers: the state rolls back
 *                      to the last checkpoint and panels are computed again),
 *                      or FTITER_ERR_APP with d->err set.
 *   finish(app, d)     after the last panel: the checks; set d->check (the
 *                      scaled error), d->check_passed and d->checksum on grid
 *                      rank 0. A failure here rolls back like one in a panel.
 *   rebuilt(app, d)    optional: after the grid was (re)built.
 *   abft_recover(...)  --ft abft only: see dense_ops_t.
 * Determinism: with a fixed grid, panels that sum in a fixed order and
 * reductions whose order depends only on the layout (this MPI's are), a
 * rolled-back run gives the failure-free bits.
 *
 * FAULT POINTS. Before panel k every computing rank calls
 * FTMPI_Fault_point("panel", k) (and the skeleton "iter", k), so
 * `ftmpirun --kill-at panel=K@RANK` kills RANK when K panels are done.
 *
 * RANKS. --ft none: -np P*Q. --ft ckpt: P*Q computing ranks + M checksum
 * ranks (--checksums M, one checkpoint group): the last M world ranks hold
 * the checkpoints. Grid rank r = world rank r for r < P*Q, row-major: grid
 * row r / Q, grid column r % Q (ScaLAPACK's default "Row" order).
 * --ft abft (an app that has it: dense_info_t.abft_extra_ranks): P*Q data
 * ranks, then the app's checksum ranks (grid row P of a (P + 1) x Q grid, or
 * with abft_column grid column Q of a P x (Q + 1) grid: d->grid; d->dgrid is
 * the P x Q part; dense_grid_place), then M (--checksums) ranks for the
 * skeleton's 8-byte checkpoint of the panel count: abft_extra_ranks counts
 * both.
 */
#ifndef DENSE_H
#define DENSE_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "app_common.h"
#include "ft_iterative.h"

/* ------------------------------------------------------------------ options */

typedef enum { DENSE_FT_NONE = 0, DENSE_FT_CKPT = 1, DENSE_FT_ABFT = 2 } dense_ft_t;

typedef struct dense_opts {
    const char *prog;       /* the app's name: messages, report */
    int64_t n;              /* the matrix is n x n (from the file with --matrix) */
    int nb;                 /* block size NB (rows and columns) */
    int nb_given;           /* --nb was given (else NB = min(64, n) for --matrix) */
    int P, Q;               /* grid; 0 x 0 until dense_start chose it from -np */
    dense_ft_t ft;
    int64_t ckpt_interval;  /* checkpoint every K panels (default 8; 0: never) */
    int ckpt_overlap;       /* --ckpt-overlap: dckpt_params_t.overlap */
    dckpt_code_t code;      /* --encoding */
    int m;                  /* --checksums: checksum ranks (ckpt) */
    uint64_t seed;          /* random matrix */
    const char *matrix;     /* Matrix Market file instead of the random matrix */
    int nrhs;               /* right-hand sides (lu, qr) */
    int json, verbose;
    const char *event_log;  /* ftmpirun --event-log file: detection times */
    long delay_us;          /* sleep per panel (slow runs for timed kills) */
    double mtbf_s;          /* --mtbf: the report's Young/Daly interval (0: none) */
} dense_opts_t;

/*
 * An app's own option: called for every option the layer does not know,
 * with its value (NULL when it is the last argument). Return the number of
 * arguments used after `opt` (0 or 1), -1 for "not mine", -2 for a bad
 * value (the layer prints "bad or missing value for OPT").
 */
typedef int (*dense_opt_fn)(void *ctx, const char *opt, const char *val);

/* Parse (no MPI call, every process the same): 0 ok, 1 help, -1 error.
   The message (dense_opts_error) is printed by dense_start, on rank 0. */
int dense_opts_parse(dense_opts_t *o, const char *prog, int argc, char **argv,
                     dense_opt_fn extra, void *ctx);
/* The message of the last parse error (empty when none). */
const char *dense_opts_error(void);
/* The usage text; `extra_usage` (may be NULL): the app's own options. */
void dense_opts_usage(FILE *out, const char *prog, const char *extra_usage);

/* Exit statuses (docs/dense.md). */
enum {
    DENSE_EXIT_OK = 0,
    DENSE_EXIT_CHECK = 1,          /* the residual check failed */
    DENSE_EXIT_USAGE = APP_EXIT_USAGE,
    DENSE_EXIT_UNRECOVERABLE = APP_EXIT_UNRECOVERABLE,
    DENSE_EXIT_ERROR = APP_EXIT_ERROR,
    DENSE_EXIT_INPUT = 5           /* bad Matrix Market file, or too large */
};

/* ------------------------------------------------------------------ grid */

typedef struct dense_ctx dense_ctx_t;

typedef struct dense_grid {
    int P, Q;
    int rank, myrow, mycol; /* rank in comm = myrow * Q + mycol */
    MPI_Comm comm;          /* the computing ranks (the skeleton's data communicator) */
    MPI_Comm row;           /* my grid row: Q ranks, rank = grid column */
    MPI_Comm col;           /* my grid column: P ranks, rank = grid row */
} dense_grid_t;

/* Local: coordinates of `rank` in a P x Q grid (no communicators). */
void dense_grid_coords(dense_grid_t *g, int P, int Q, int rank);
/* Collective over comm (size P*Q): coordinates and the row and column
   communicators (MPI_Comm_split). Returns an MPI error code. */
int dense_grid_build(dense_grid_t *g, MPI_Comm comm, int P, int Q);
/* The same with given coordinates (any rank order in comm). */
int dense_grid_build_at(dense_grid_t *g, MPI_Comm comm, int P, int Q, int myrow, int mycol);
/* The coordinates of data rank r (the skeleton's data communicator) in the
   grid of the options: row-major over P x Q; with --ft abft the ranks from
   P*Q on are the checksum row (P, r - P*Q) or column (r - P*Q, Q). */
void dense_grid_place(const dense_ctx_t *d, int r, int *myrow, int *mycol);
/* Frees row and col (not comm). Safe to call twice. */
void dense_grid_free(dense_grid_t *g);

/* Block-cyclic index maps, 0-based, first block on process 0 (ScaLAPACK's
   NUMROC, INDXG2P, INDXG2L, INDXL2G with ISRCPROC = 0). */
int64_t dense_numroc(int64_t n, int nb, int iproc, int nprocs); /* my share of 0..n-1 */
int dense_g2p(int64_t g, int nb, int nprocs);                   /* owner of global g */
int64_t dense_g2l(int64_t g, int nb, int nprocs);               /* its local index there */
int64_t dense_l2g(int64_t l, int nb, int iproc, int nprocs);    /* global index of local l */

/* ------------------------------------------------------------------ local matrices */

/* An M x N matrix distributed block-cyclically (NB x NB blocks) over a grid:
   this rank's lr x lc part, column-major, leading dimension ld. */
typedef struct dense_mat {
    int64_t M, N;
    int nb;
    int64_t lr, lc, ld;
    double *a;
} dense_mat_t;

#define DENSE_AT(A, i, j) ((A)->a[(size_t)(j) * (size_t)(A)->ld + (size_t)(i)])

/* Local: allocate my part (zeroed). 0, or -1 when out of memory. */
int dense_mat_alloc(dense_mat_t *A, const dense_grid_t *g, int64_t M, int64_t N, int nb);
void dense_mat_free(dense_mat_t *A);
size_t dense_mat_bytes(const dense_mat_t *A); /* lr * lc doubles (what a checkpoint copies) */

/* Local: entry (i, j) of global columns [j0, j0 + n) := f(ctx, i, j - j0),
   rows [0, m); the other entries are left alone. */
typedef double (*dense_entry_fn)(void *ctx, int64_t i, int64_t j);
void dense_mat_fill(dense_mat_t *A, const dense_grid_t *g, int64_t m, int64_t j0, int64_t n,
                    dense_entry_fn f, void *ctx);

/* The seeded random matrix: entry (i, j) of matrix `stream` (A = 0, B = 1, b
   = 2 ...) is a hash of (seed, stream, i, j), uniform in [-0.5, 0.5): the
   same matrix on every grid and block size, and a replacement rebuilds any
   block alone. */
double dense_rand_entry(uint64_t seed, uint64_t stream, int64_t i, int64_t j);
/* dense_entry_fn for it: ctx points to {seed, stream}. */
typedef struct dense_rand_ctx {
    uint64_t seed, stream;
} dense_rand_ctx_t;
double dense_rand_fn(void *ctx, int64_t i, int64_t j);

/* Local: add the entries of a Matrix Market file (n x n, symmetric ones
   mirrored, duplicates summed in file order) into global columns
   [j0, j0 + n) of A. 0, or -1 with a message. */
int dense_mat_read_mtx(dense_mat_t *A, const dense_grid_t *g, const char *path, int64_t j0,
                       char *err, size_t errlen);

/* Collective over the grid: max over rows i < m of sum_{j0 <= j < j0+n} |A(i,j)|,
   on every rank. MPI error code. */
int dense_norm_inf(const dense_mat_t *A, const dense_grid_t *g, int64_t m, int64_t j0,
                   int64_t n, double *out);

/* Collective over the grid: y = A x (M entries) from x (N entries), both
   replicated on every computing rank. MPI error code. */
int dense_matvec(const dense_mat_t *A, const dense_grid_t *g, const double *x, double *y);

/* Collective over the grid: the checksum of rows [0, m), columns [0, n):
   FNV-1a over each NB x NB block's bytes (column-major), then FNV-1a over
   those hashes in global block order (block columns, then block rows).
   Independent of the grid for a given NB. Result on grid rank 0. */
int dense_mat_checksum(const dense_mat_t *A, const dense_grid_t *g, int64_t m, int64_t n,
                       uint64_t *out);

/* ------------------------------------------------------------------ input */

/* World rank 0 checks the input (the Matrix Market file, the memory the run
   needs: `bytes_per_entry` bytes per matrix entry, all ranks together) and
   broadcasts the verdict; 0 or DENSE_EXIT_INPUT on every rank. Fresh start
   only. */
int dense_input_verdict(const dense_opts_t *o, double bytes_per_entry, int rank, int nprocs);

/* ------------------------------------------------------------------ driver */

typedef struct dense_ops {
    int (*setup)(void *app, dense_ctx_t *d);
    int (*init)(void *app, dense_ctx_t *d);
    int (*panel)(void *app, dense_ctx_t *d, int64_t k);
    int (*finish)(void *app, dense_ctx_t *d);
    int (*rebuilt)(void *app, dense_ctx_t *d); /* optional */
    /* --ft abft only: after a recovery, collective over d->grid (data and
       checksum ranks). `panel`: the panel count to resume from (the same
       everywhere); `done`: panels this rank had applied (panel or panel + 1
       on a survivor, -1 on a replacement). Bring the state to `panel`
       panels on every rank: undo an extra panel, rebuild a replacement's
       blocks from the checksums. More losses than the checksums cover: set
       d->err, d->abft_lost = 1 and return FTITER_ERR_APP (exit 3). */
    int (*abft_recover)(void *app, dense_ctx_t *d, int64_t panel, int64_t done);
} dense_ops_t;

struct dense_ctx {
    const dense_opts_t *o;
    int world_rank, world_size;
    int init_rc;            /* MPI_Init's return code */
    dense_grid_t grid;      /* computing ranks; rebuilt after every recovery. With
                               --ft abft: (P + 1) x Q, grid row P holds checksums */
    dense_grid_t dgrid;     /* the P x Q data ranks (= grid without abft); its comm
                               is MPI_COMM_NULL on an abft checksum rank */
    int dgrid_own;
    int abft_column;        /* abft checksum ranks: a process column (1) or row (0) */
    int is_compute;         /* 0 on a checksum rank */
    ftiter_t *sk;           /* the skeleton (--ft ckpt), else NULL */
    /* set by the app before dense_run */
    int64_t npanels;        /* iterations of the run */
    double flops;           /* nominal flop count (GFLOP/s in the report) */
    double panel_flops;     /* that of the panels alone (the factorization, as the
                               ScaLAPACK routine the benchmark times); 0: flops */
    const char *check_name; /* JSON key of the check, e.g. "scaled_residual" */
    const char *check_text; /* its text, e.g. "||Ax-b||_inf / (||A||_inf ||x||_inf n eps)" */
    double check_limit;     /* the check passes below this */
    int64_t rows;           /* rows of the matrix when not n (qr --m), else 0 */
    /* set by the app's finish, on grid rank 0 */
    double check;
    int check_passed;       /* the check and every extra one passed */
    uint64_t checksum;
    /* optional further checks (qr: orthogonality, least squares), reported
       after the main one with the same limit; a negative value was not
       computed (JSON null, text "not checked") */
    int nextra;
    struct dense_extra_check {
        const char *name, *text;
        double value;
    } extra[3];
    /* the layer's bookkeeping */
    ftiter_stats_t plain;   /* --ft none: the stats the skeleton would keep */
    double max_ckpt_s, max_panel_s; /* slowest computing rank */
    double max_prefault_s;          /* the checkpoint halves' first touch, before the loop */
    int64_t max_panels_run;
    double check_s;                  /* time in the app's finish (the checks) */
    /* --ft abft: panels applied by this rank (-1: none yet, a replacement),
       and the checkpointed copy (the only state the skeleton keeps) */
    int64_t abft_done, abft_mark;
    int abft_lost;          /* set by abft_recover: unrecoverable (exit 3) */
    char err[256];
};

/* From the app's setup: `bytes` at `ptr` are state (checkpointed with
   --ft ckpt; nothing with --ft none). FTITER_SUCCESS or an ftiter error. */
int dense_register(dense_ctx_t *d, void *ptr, size_t bytes);

/* From the app's panel: the columns of A left of global column j and the
   rows of A above global row j will not change again (the finished panels
   of a factorization: L and U, or V and R), so the checkpoints after it
   encode only the trailing block from (j, j) on and what follows A
   (incremental checkpoints, --ft ckpt; nothing otherwise). A must be the
   first buffer registered. Call it after every panel: a restore forgets it. */
int dense_freeze_cols(dense_ctx_t *d, const dense_mat_t *A, int64_t j);

/* What the layer needs to know about an app before it starts. */
typedef struct dense_info {
    const char *extra_usage;  /* usage lines of the app's own options (or NULL) */
    double bytes_per_entry;   /* memory per matrix entry, all ranks (input size check) */
    /* --ft abft: the checksum ranks the app needs beyond the P x Q grid (NULL:
       the app has no --ft abft, which is then refused with exit 2) */
    int (*abft_extra_ranks)(const dense_opts_t *o);
    int abft_column;          /* 1: the checksum ranks are a process column (P ranks),
                                 0: a process row (Q ranks) */
} dense_info_t;

/*
 * After MPI_Init (no communication before it in a replacement): reports a
 * parse error (prc from dense_opts_parse), chooses the grid when --grid was
 * not given, checks -np against the options ("--grid 2x2 --ft ckpt
 * --checksums 1 needs -np 5 ..."), checks the input on a fresh start.
 * Returns -1 to go on, or the exit status after MPI_Finalize (every rank
 * the same: 0 for --help, 2 bad options, 5 bad input).
 */
int dense_start(dense_ctx_t *d, dense_opts_t *o, int prc, int init_rc,
                const dense_info_t *info);

/* --ft abft, in an app's abft_recover: `group` is a checksum group (a
   process row or column, the checksum rank in it at position cpos), `pos`
   my position in it, `lost` whether my part must be rebuilt. Counts the
   lost ranks of every group: more than one in a group sets d->err ("... of
   one WHAT lost at once") and d->abft_lost and returns FTITER_ERR_APP on
   every rank; else *root is the lost rank's position in my group, or -1. */
int dense_abft_lost(dense_ctx_t *d, MPI_Comm group, int lost, int pos, const char *what,
                    int *root);
/* The sign of my part (position pos) in the sum onto the lost rank `root`
   that rebuilds its part: +1 for the checksum, -1 for the others, or +1 for
   everyone when the checksum rank itself is rebuilt. */
double dense_abft_sign(int root, int cpos, int pos);
/* The first local column that panel [j, j + jb) updates (lu, qr): on a
   data rank its first column right of the panel; on a checksum rank (grid
   column mycol == Q) the first one not finished before the panel on some
   data rank of its row (the panel's own columns included: the checksum of
   their U or R rows and of the zeros below is made by the panel's swaps,
   dtrsm and update). The checksum's columns left of that hold, below the
   finished rows, sums of L (or V) entries whose true values are 0: the
   updates leave them at 0, so they are skipped as the data ranks skip
   theirs (docs/dense.md, "The abft overhead model"). */
int64_t dense_abft_first_col(int64_t j, int jb, int nb, int mycol, int Q);
/* The factorizations with a checksum process column (lu, qr; grid column
   Q, A of the data grid's shape). dense_abft_copy: back 0 copies into bk
   (local rows x NB doubles are enough) the part of A that panel k changes
   before its trailing update, on the process column that owns it: the
   panel's block column, rows from its first (elsewhere: nothing); back 1
   copies it back. The app undoes the rest itself (the trailing update, lu's
   row swaps) before dense_abft_recover_row, in abft_recover: *state
   is the panels done in A (-1: in the middle of one), *bk_panel the panel
   bk was copied for. Brings A back to the start of `panel` from bk where it
   can; *lost: it could not (a replacement); then, collective over the grid,
   dense_abft_lost over my process row (*root), and if my row lost a rank,
   it gets its A as the checksum minus the others' true values (or their
   sum, the checksum rank lost), where the entries below the diagonal of the
   columns of panels before `panel` count as zero and are set to zero on
   the rebuilt rank. MPI error code (MPI_ERR_NO_MEM), or FTITER_ERR_APP. */
void dense_abft_copy(const dense_ctx_t *d, dense_mat_t *A, double *bk, int64_t k, int back);
/* The input of grid position (myrow, gq->mycol) of the P x Q data grid into
   t (zeroed, of A's shape on that position): an app's callback. */
typedef int (*dense_part_fn)(void *app, dense_ctx_t *d, dense_mat_t *t, const dense_grid_t *gq);
/* A = the input of my position (a data rank; any --ft) or, on a checksum
   column rank, the sum of its process row's (fill called once per part).
   MPI error code or FTITER_ERR_APP with d->err. */
int dense_abft_input(dense_ctx_t *d, dense_mat_t *A, dense_part_fn fill, void *app);
int dense_abft_recover_row(dense_ctx_t *d, dense_mat_t *A, const double *bk, int64_t *bk_panel,
                           int64_t *state, int64_t panel, int *root, int *lost);

/* Runs the app: 0, or ends the process (unrecoverable: exit 3; other fatal
   errors: 4, through MPI_Abort). Prints the report on world rank 0. */
int dense_run(dense_ctx_t *d, const dense_ops_t *ops, void *app);

/* Frees the layer, MPI_Finalize; returns the exit status for main
   (DENSE_EXIT_CHECK on every computing rank when the check failed). */
int dense_end(dense_ctx_t *d);

/* World rank 0: the report (text, or JSON with --json). */
void dense_report(FILE *out, const dense_ctx_t *d);

#endif /* DENSE_H */
