/*
 * cg_solver.c - preconditioned conjugate gradients as skeleton callbacks.
 *
 * State (registered, restored after a failure): x, r, p and the scalars
 * rho = r.z, rr = r.r, bb = b.b. Everything else (the matrix, b, the
 * preconditioner, the temporaries q and z) is rebuilt by setup or
 * recomputed. One iteration:
 *
 *   halo(p); q = A p; alpha = rho / (p.q)               one allreduce
 *   x += alpha p; r -= alpha q; z = M^-1 r
 *   rho' = r.z, rr = r.r                                one allreduce (2 values)
 *   p = z + (rho'/rho) p
 *
 * Dot products sum in index order and the allreduce has a fixed reduction
 * order for a given layout, so a rolled-back run repeats the failure-free
 * run bit for bit.
 */
#include "cg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CG_TAG_HASH 7103

static int cg_setup(void *arg, ftiter_t *sk, MPI_Comm data)
{
    cg_app_t *a = arg;
    a->sk = sk;
    MPI_Comm_rank(data, &a->drank);
    MPI_Comm_size(data, &a->dsize);
    int rc = a->o->matrix
                 ? cg_matrix_mtx(&a->A, a->o->matrix, a->dsize, a->drank, a->err, sizeof a->err)
                 : cg_matrix_poisson(&a->A, a->o->n, a->dsize, a->drank);
    if (rc == 0 && cg_matrix_finish(&a->A, a->dsize) != 0)
        rc = -1;
    if (rc != 0) {
        if (!a->err[0])
            snprintf(a->err, sizeof a->err, "out of memory building the matrix");
        return FTITER_ERR_APP;
    }
    size_t n = (size_t)a->A.nloc, ng = (size_t)a->A.nghost;
    a->b = calloc(n + 1, sizeof(double));
    a->dinv = calloc(n + 1, sizeof(double));
    a->x = calloc(n + ng + 1, sizeof(double));
    a->r = calloc(n + 1, sizeof(double));
    a->p = calloc(n + ng + 1, sizeof(double));
    a->q = calloc(n + 1, sizeof(double));
    a->z = calloc(n + 1, sizeof(double));
    if (!a->b || !a->dinv || !a->x || !a->r || !a->p || !a->q || !a->z) {
        snprintf(a->err, sizeof a->err, "out of memory for the vectors");
        return FTITER_ERR_APP;
    }
    /* b: ones for Poisson; A * ones (row sums) for a file, so that x = 1 */
    for (int i = 0; i < a->A.nloc; i++) {
        double s = 1.0;
        if (a->o->matrix) {
            s = 0.0;
            for (int64_t k = a->A.rowptr[i]; k < a->A.rowptr[i + 1]; k++)
                s += a->A.val[k];
        }
        a->b[i] = s;
        double d = a->A.diag[i];
        a->dinv[i] = a->o->jacobi && d != 0.0 ? 1.0 / d : 1.0;
    }
    /* the state: three vectors (without ghosts) and the scalars */
    if (ftiter_register(sk, a->x, n * sizeof(double)) ||
        ftiter_register(sk, a->r, n * sizeof(double)) ||
        ftiter_register(sk, a->p, n * sizeof(double)) ||
        ftiter_register(sk, &a->s, sizeof(a->s))) {
        snprintf(a->err, sizeof a->err, "cannot register the state");
        return FTITER_ERR_APP;
    }
    return MPI_SUCCESS;
}

/* the halo plan depends on the communicator: rebuilt after every recovery */
static int cg_comm_rebuilt(void *arg, MPI_Comm data)
{
    cg_app_t *a = arg;
    return cg_matrix_plan(&a->A, data);
}

static int cg_init(void *arg, MPI_Comm data)
{
    cg_app_t *a = arg;
    int n = a->A.nloc;
    double loc[3] = {0, 0, 0}, glob[3];
    for (int i = 0; i < n; i++) {
        a->x[i] = 0.0;
        a->r[i] = a->b[i];
        a->z[i] = a->dinv[i] * a->r[i];
        a->p[i] = a->z[i];
        loc[0] += a->r[i] * a->z[i];
        loc[1] += a->r[i] * a->r[i];
        loc[2] += a->b[i] * a->b[i];
    }
    int rc = MPI_Allreduce(loc, glob, 3, MPI_DOUBLE, MPI_SUM, data);
    if (rc != MPI_SUCCESS)
        return rc;
    a->s.rho = glob[0];
    a->s.rr = glob[1];
    a->s.bb = glob[2];
    return MPI_SUCCESS;
}

static int cg_iterate(void *arg, MPI_Comm data, int64_t iter)
{
    cg_app_t *a = arg;
    int n = a->A.nloc, rc;
    double *x = a->x, *r = a->r, *p = a->p, *q = a->q, *z = a->z;
    if ((rc = cg_matrix_halo(&a->A, p, data)) != MPI_SUCCESS)
        return rc;
    cg_matrix_spmv(&a->A, p, q);
    double pq_loc = 0.0, pq;
    for (int i = 0; i < n; i++)
        pq_loc += p[i] * q[i];
    if ((rc = MPI_Allreduce(&pq_loc, &pq, 1, MPI_DOUBLE, MPI_SUM, data)) != MPI_SUCCESS)
        return rc;
    double alpha = a->s.rho / pq;
    double loc[2] = {0, 0}, glob[2];
    for (int i = 0; i < n; i++) {
        x[i] += alpha * p[i];
        r[i] -= alpha * q[i];
        z[i] = a->dinv[i] * r[i];
        loc[0] += r[i] * z[i];
        loc[1] += r[i] * r[i];
    }
    if ((rc = MPI_Allreduce(loc, glob, 2, MPI_DOUBLE, MPI_SUM, data)) != MPI_SUCCESS)
        return rc;
    if (a->o->delay_us > 0) {
        struct timespec ts = {a->o->delay_us / 1000000, (a->o->delay_us % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
    double beta = glob[0] / a->s.rho;
    for (int i = 0; i < n; i++)
        p[i] = z[i] + beta * p[i];
    a->s.rho = glob[0];
    a->s.rr = glob[1];
    return MPI_SUCCESS;
}

/*
 * A NaN or Inf in the scalars (all allreduced: the same on every computing
 * rank) stops the solve as a breakdown, never as convergence: the skeleton
 * finishes normally and main exits CG_EXIT_BREAKDOWN. Recomputed on every
 * call, so a rolled-back run decides again from its own values.
 */
static int cg_converged(void *arg, MPI_Comm data, int64_t iter, int *done)
{
    cg_app_t *a = arg;
    const char *bad = !isfinite(a->s.bb)    ? "b.b"
                      : !isfinite(a->s.rr)  ? "r.r"
                      : !isfinite(a->s.rho) ? "r.z"
                                            : NULL;
    a->breakdown = bad != NULL;
    if (bad) {
        a->breakdown_iter = iter;
        snprintf(a->breakdown_what, sizeof a->breakdown_what, "%s", bad);
        *done = 1;
        return MPI_SUCCESS;
    }
    /* b = 0: x = 0 is the answer; r = 0 exactly: solved (also with --tol 0) */
    double rel = a->s.bb > 0 ? sqrt(a->s.rr / a->s.bb) : 0.0;
    *done = rel < a->o->tol || a->s.rr == 0.0;
    return MPI_SUCCESS;
}

/* The hash of x in global order: passed along the data ranks, 0 -> P-1 -> 0. */
static int cg_checksum(cg_app_t *a, MPI_Comm data)
{
    uint64_t h = APP_FNV1A_INIT;
    int rc;
    if (a->drank > 0 &&
        (rc = MPI_Recv(&h, 1, MPI_UINT64_T, a->drank - 1, CG_TAG_HASH, data,
                       MPI_STATUS_IGNORE)) != MPI_SUCCESS)
        return rc;
    h = app_fnv1a(h, a->x, (size_t)a->A.nloc * sizeof(double));
    if (a->dsize > 1) {
        int to = (a->drank + 1) % a->dsize;
        if ((rc = MPI_Send(&h, 1, MPI_UINT64_T, to, CG_TAG_HASH, data)) != MPI_SUCCESS)
            return rc;
        if (a->drank == 0 &&
            (rc = MPI_Recv(&h, 1, MPI_UINT64_T, a->dsize - 1, CG_TAG_HASH, data,
                           MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            return rc;
    }
    a->checksum = h;
    return MPI_SUCCESS;
}

/* After the last iteration: true residual, solution hash, slowest rank's times. */
static int cg_finish(void *arg, MPI_Comm data, int64_t iter, int converged)
{
    cg_app_t *a = arg;
    int n = a->A.nloc, rc;
    if ((rc = cg_matrix_halo(&a->A, a->x, data)) != MPI_SUCCESS)
        return rc;
    cg_matrix_spmv(&a->A, a->x, a->q);
    double loc = 0.0, glob;
    for (int i = 0; i < n; i++) {
        double d = a->b[i] - a->q[i];
        loc += d * d;
    }
    if ((rc = MPI_Allreduce(&loc, &glob, 1, MPI_DOUBLE, MPI_SUM, data)) != MPI_SUCCESS)
        return rc;
    a->true_resid = !isfinite(a->s.bb) || !isfinite(glob) ? NAN
                    : a->s.bb > 0                         ? sqrt(glob / a->s.bb)
                                                          : 0.0;
    if ((rc = cg_checksum(a, data)) != MPI_SUCCESS)
        return rc;
    const ftiter_stats_t *st = ftiter_stats(a->sk);
    double t[3] = {st->ckpt_s, st->iterate_s, (double)st->iterations_run}, tm[3];
    if ((rc = MPI_Allreduce(t, tm, 3, MPI_DOUBLE, MPI_MAX, data)) != MPI_SUCCESS)
        return rc;
    a->max_ckpt_s = tm[0];
    a->max_iterate_s = tm[1];
    a->max_iter_run = (int64_t)tm[2];
    return MPI_SUCCESS;
}

const ftiter_ops_t cg_ops = {
    .setup = cg_setup,
    .init = cg_init,
    .iterate = cg_iterate,
    .converged = cg_converged,
    .comm_rebuilt = cg_comm_rebuilt,
    .finish = cg_finish,
};
