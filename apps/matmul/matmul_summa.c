/*
 * matmul_summa.c - SUMMA (matmul.h). Panel k: the process column that owns
 * block column k of A broadcasts it along the process rows, the process row
 * that owns block row k of B broadcasts it down the process columns, and
 * every rank adds their product to its part of C (dgemm). The broadcasts of
 * panel k + 1 (MPI_Ibcast) are posted before the dgemm of panel k and
 * completed after it, so they overlap with the computation; they finish
 * inside panel k, so no request is pending at a checkpoint or a recovery.
 * Three buffer sets (panel k uses set k % 3): with --ft abft, the panel a
 * survivor may have to undo (matmul_abft.c) is still in its set.
 */
#include "matmul.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* pack panel k into buffer set s (owners) and start or do the broadcasts */
static int mm_post(mm_app_t *a, dense_ctx_t *d, int64_t k, int s, MPI_Request req[2])
{
    const dense_grid_t *g = &d->grid;
    int nb = a->A.nb;
    int64_t j = k * nb;
    int kb = (int)(a->n - j < nb ? a->n - j : nb);
    /* the matrices are distributed over the P data rows (g->P is P + 1 with abft) */
    int pcol = dense_g2p(j, nb, g->Q), prow = dense_g2p(j, nb, d->o->P);
    size_t lr = (size_t)a->A.lr, lc = (size_t)a->B.lc;
    if (g->mycol == pcol) /* A(:, j .. j + kb) is contiguous here */
        memcpy(a->pa[s], &DENSE_AT(&a->A, 0, dense_g2l(j, nb, g->Q)),
               sizeof(double) * lr * (size_t)kb);
    if (g->myrow == prow) {
        int64_t li = dense_g2l(j, nb, d->o->P);
        for (size_t c = 0; c < lc; c++)
            memcpy(a->pb[s] + c * (size_t)kb, &DENSE_AT(&a->B, li, c), sizeof(double) * (size_t)kb);
    }
    int rc;
    if (req == NULL) {
        if ((rc = MPI_Bcast(a->pa[s], (int)(lr * (size_t)kb), MPI_DOUBLE, pcol, g->row)) !=
            MPI_SUCCESS)
            return rc;
        return MPI_Bcast(a->pb[s], (int)(lc * (size_t)kb), MPI_DOUBLE, prow, g->col);
    }
    if ((rc = MPI_Ibcast(a->pa[s], (int)(lr * (size_t)kb), MPI_DOUBLE, pcol, g->row, &req[0])) !=
        MPI_SUCCESS)
        return rc;
    return MPI_Ibcast(a->pb[s], (int)(lc * (size_t)kb), MPI_DOUBLE, prow, g->col, &req[1]);
}

int mm_rebuilt(void *app, dense_ctx_t *d)
{
    (void)d;
    ((mm_app_t *)app)->ready = -1; /* the buffers may hold anything after a recovery */
    return MPI_SUCCESS;
}

int mm_panel(void *app, dense_ctx_t *d, int64_t k)
{
    mm_app_t *a = app;
    int nb = a->A.nb, rc;
    int s = (int)(k % 3), s1 = (int)((k + 1) % 3);
    if (a->ready != k && (rc = mm_post(a, d, k, s, NULL)) != MPI_SUCCESS)
        return rc;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int next = k + 1 < d->npanels;
    a->ready = -1;
    if (next && (rc = mm_post(a, d, k + 1, s1, req)) != MPI_SUCCESS) {
        MPI_Request_free(&req[0]);
        return rc;
    }
    int kb = (int)(a->n - k * nb < nb ? a->n - k * nb : nb);
    dense_mat_t *C = &a->C;
    if (C->lr > 0 && C->lc > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)C->lr, (int)C->lc, kb, 1.0,
                    a->pa[s], (int)C->lr, a->pb[s], kb, 1.0, C->a, (int)C->ld);
    d->abft_done = k + 1; /* applied (--ft abft: a failure below must not hide it) */
    if (next) {
        if ((rc = MPI_Waitall(2, req, MPI_STATUSES_IGNORE)) != MPI_SUCCESS)
            return rc;
        a->ready = k + 1;
    }
    return MPI_SUCCESS;
}

/* ||C x - A (B x)||_inf / (||A||_inf ||B||_inf ||x||_inf n eps); checksum of C */
int mm_finish(void *app, dense_ctx_t *d)
{
    mm_app_t *a = app;
    const dense_grid_t *g = &d->dgrid;
    size_t n = (size_t)a->n;
    if (g->comm == MPI_COMM_NULL)
        return MPI_SUCCESS; /* an abft checksum rank: not part of the result */
    double *x = malloc(sizeof(double) * 4 * n);
    if (!x)
        return MPI_ERR_NO_MEM;
    double *bx = x + n, *abx = bx + n, *cx = abx + n, an, bn, xn = 0.0;
    for (size_t i = 0; i < n; i++) {
        x[i] = dense_rand_entry(d->o->seed, MM_STREAM_X, (int64_t)i, 0);
        xn = fabs(x[i]) > xn ? fabs(x[i]) : xn;
    }
    int rc = dense_matvec(&a->B, g, x, bx);
    if (rc == MPI_SUCCESS)
        rc = dense_matvec(&a->A, g, bx, abx);
    if (rc == MPI_SUCCESS)
        rc = dense_matvec(&a->C, g, x, cx);
    if (rc == MPI_SUCCESS)
        rc = dense_norm_inf(&a->A, g, a->n, 0, a->n, &an);
    if (rc == MPI_SUCCESS)
        rc = dense_norm_inf(&a->B, g, a->n, 0, a->n, &bn);
    if (rc == MPI_SUCCESS)
        rc = dense_mat_checksum(&a->C, g, a->n, a->n, &d->checksum);
    if (rc == MPI_SUCCESS) {
        double e = 0.0;
        for (size_t i = 0; i < n; i++) {
            double v = fabs(cx[i] - abx[i]);
            if (!(v <= e))
                e = v;
        }
        d->check = e / (an * bn * xn * (double)n * DBL_EPSILON);
        d->check_passed = isfinite(d->check) && d->check < d->check_limit;
    }
    free(x);
    return rc;
}
