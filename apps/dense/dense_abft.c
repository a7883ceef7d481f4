/*
 * dense_abft.c - what the apps' --ft abft recoveries share (dense.h): who
 * was lost in each checksum group, and the sign of each part in the sum
 * that rebuilds it; for the factorizations with a checksum process column
 * (lu, qr), the copy of what a panel changes and the rebuild of a process
 * row's lost part.
 */
#include "dense.h"

#include <stdlib.h>
#include <string.h>

int dense_abft_lost(dense_ctx_t *d, MPI_Comm group, int lost, int pos, const char *what,
                    int *root)
{
    int in[2] = {lost, lost ? pos : -1}, out[2], worst, rc;
    if ((rc = MPI_Allreduce(&in[0], &out[0], 1, MPI_INT, MPI_SUM, group)) != MPI_SUCCESS ||
        (rc = MPI_Allreduce(&in[1], &out[1], 1, MPI_INT, MPI_MAX, group)) != MPI_SUCCESS ||
        (rc = MPI_Allreduce(&out[0], &worst, 1, MPI_INT, MPI_MAX, d->grid.comm)) != MPI_SUCCESS)
        return rc;
    if (worst > 1) {
        snprintf(d->err, sizeof d->err,
                 "unrecoverable: %d ranks of one %s lost at once; --ft abft rebuilds one per "
                 "%s (one checksum rank)", worst, what, what);
        d->abft_lost = 1;
        return FTITER_ERR_APP;
    }
    *root = out[0] == 1 ? out[1] : -1;
    return MPI_SUCCESS;
}

double dense_abft_sign(int root, int cpos, int pos)
{
    /* the checksum rank lost: the sum of the others; else the checksum minus them */
    return root == cpos || pos == cpos ? 1.0 : -1.0;
}

int64_t dense_abft_first_col(int64_t j, int jb, int nb, int mycol, int Q)
{
    if (mycol < Q)
        return dense_numroc(j + jb, nb, mycol, Q);
    /* rank Q - 1 owns the fewest columns left of j: its first one from j
       on is the smallest over the row */
    return dense_numroc(j, nb, Q - 1, Q);
}

/* what panel k changes before its trailing update (lu, qr): its own
   columns, rows from its first row on, on the process column that owns it
   (the trailing update and lu's row swaps are undone by the apps) */
void dense_abft_copy(const dense_ctx_t *d, dense_mat_t *A, double *bk, int64_t k, int back)
{
    const dense_grid_t *g = &d->grid;
    int64_t j = k * A->nb;
    if (g->mycol >= d->o->Q || j >= A->N || dense_g2p(j, A->nb, d->o->Q) != g->mycol)
        return;
    int64_t r0 = dense_numroc(j, A->nb, g->myrow, d->o->P);
    int64_t c0 = dense_g2l(j, A->nb, d->o->Q);
    int64_t jb = A->N - j < A->nb ? A->N - j : A->nb;
    size_t h = (size_t)(A->lr - r0);
    for (int64_t c = c0; c < c0 + jb; c++) {
        double *a = &DENSE_AT(A, r0, c), *b = bk + (size_t)(c - c0) * h;
        memcpy(back ? a : b, back ? b : a, sizeof(double) * h);
    }
}

/* below the diagonal in a column of a finished panel (global column j < k
   NB, row i > j): the factorizations keep their multipliers or reflectors
   there, which stand for the zeros the elimination made (a checksum rank
   holds sums of the true values: never) */
static int abft_is_lower(const dense_ctx_t *d, const dense_mat_t *A, int64_t li, int64_t lj,
                         int64_t k)
{
    const dense_grid_t *g = &d->grid;
    if (g->mycol >= d->o->Q)
        return 0;
    int64_t gi = dense_l2g(li, A->nb, g->myrow, d->o->P);
    int64_t gj = dense_l2g(lj, A->nb, g->mycol, d->o->Q);
    return gj < k * A->nb && gi > gj;
}

static int abft_rebuild_row(const dense_ctx_t *d, dense_mat_t *A, int64_t panel, int lost,
                            int root)
{
    const dense_grid_t *g = &d->grid;
    int Q = d->o->Q;
    int64_t lr = A->lr, lcmax = dense_numroc(A->N, A->nb, 0, Q);
    size_t n = (size_t)(lr > 0 ? lr : 1) * (size_t)(lcmax > 0 ? lcmax : 1);
    double *w = calloc(n + 1, sizeof(double)), *r = calloc(n + 1, sizeof(double));
    if (!w || !r) {
        free(w);
        free(r);
        return MPI_ERR_NO_MEM;
    }
    double sign = dense_abft_sign(root, Q, g->mycol);
    if (!lost)
        for (int64_t j = 0; j < A->lc; j++)
            for (int64_t i = 0; i < lr; i++)
                if (!abft_is_lower(d, A, i, j, panel))
                    w[(size_t)j * (size_t)lr + (size_t)i] = sign * DENSE_AT(A, i, j);
    int rc = MPI_Reduce(w, r, (int)n, MPI_DOUBLE, MPI_SUM, root, g->row);
    if (rc == MPI_SUCCESS && lost)
        for (int64_t j = 0; j < A->lc; j++)
            for (int64_t i = 0; i < lr; i++)
                DENSE_AT(A, i, j) =
                    abft_is_lower(d, A, i, j, panel) ? 0.0 : r[(size_t)j * (size_t)lr + (size_t)i];
    free(w);
    free(r);
    return rc;
}

int dense_abft_recover_row(dense_ctx_t *d, dense_mat_t *A, const double *bk, int64_t *bk_panel,
                           int64_t *state, int64_t panel, int *root, int *lost)
{
    /* 1. back to the start of `panel`, where possible */
    if (*state != panel && *bk_panel == panel) {
        dense_abft_copy(d, A, (double *)bk, panel, 1);
        *state = panel;
    }
    *lost = *state != panel;
    /* 2. who was lost in my process row (two in one: exit 3) */
    int rc = dense_abft_lost(d, d->grid.row, *lost, d->grid.mycol, "process row", root);
    if (rc != MPI_SUCCESS || *root < 0)
        return rc;
    /* 3. rebuild: the checksum minus the others' true values, or their sum */
    rc = abft_rebuild_row(d, A, panel, *lost, *root);
    if (rc == MPI_SUCCESS && *lost) {
        *state = panel;
        *bk_panel = -1;
    }
    return rc;
}

int dense_abft_input(dense_ctx_t *d, dense_mat_t *A, dense_part_fn fill, void *app)
{
    const dense_opts_t *o = d->o;
    memset(A->a, 0, dense_mat_bytes(A));
    int q0 = d->grid.mycol < o->Q ? d->grid.mycol : 0;
    int q1 = d->grid.mycol < o->Q ? q0 + 1 : o->Q;
    int rc = MPI_SUCCESS;
    for (int q = q0; q < q1 && rc == MPI_SUCCESS; q++) {
        dense_grid_t gq = d->grid;
        gq.P = o->P;
        gq.Q = o->Q;
        gq.mycol = q;
        dense_mat_t t;
        if (dense_mat_alloc(&t, &gq, A->M, A->N, A->nb)) {
            snprintf(d->err, sizeof d->err, "out of memory building the matrix");
            return FTITER_ERR_APP;
        }
        rc = fill(app, d, &t, &gq);
        for (int64_t j = 0; j < t.lc && rc == MPI_SUCCESS; j++)
            for (int64_t i = 0; i < t.lr; i++)
                DENSE_AT(A, i, j) += DENSE_AT(&t, i, j);
        dense_mat_free(&t);
    }
    return rc;
}
