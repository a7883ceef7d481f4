/*
 * lu_abft.c - --ft abft for lu (lu.h, docs/dense.md, "ABFT"): the lost
 * rank's blocks are rebuilt from a checksum process column, not from a
 * checkpoint. The variant: a process-level row checksum in the spirit of Du,
 * Bouteiller, Bosilca and Dongarra (PPoPP 2012), simplified by the
 * right-hand sides riding along (L is not needed after its panel).
 *
 * The grid gets one more process column (column Q, P ranks). Its rank in
 * process row p holds, position by position, the sum of the local parts of
 * [A | 0 | B] of the Q ranks of row p, and takes part in every panel as a
 * process column whose columns all lie right of the panel: it receives L,
 * swaps its rows, solves its rows of the row panel (dtrsm) and updates its
 * trailing rows (dgemm). The row operations of LU are linear, so after
 * every panel, for every local position (i, c):
 *
 *     S(p)[i, c] = sum_{q < Q} T(p, q)[i, c]
 *
 * where T is the "true" value of an entry: the stored value, except the L
 * multipliers of finished panels (global column j < k NB and row i > j),
 * which stand for the zeros the elimination made. After a recovery at panel
 * boundary k (the skeleton's checkpointed count): every survivor whose A
 * is in the middle of panel k copies back what it saved at the panel's
 * start; in each process row with one lost rank (a replacement, or a
 * survivor that cannot be brought back to k), one MPI_Reduce over the
 * process row rebuilds its part: S minus the others' true values (or their
 * sum, when the checksum rank was lost). The rebuilt rank's own L
 * multipliers are lost and left at zero: they are not used any more (the
 * row swaps and L^-1 were applied to B when their panel was done). Two lost
 * ranks in one process row: exit 3.
 */
#include "lu.h"

#include <stdlib.h>
#include <string.h>

int lu_abft_extra_ranks(const dense_opts_t *o)
{
    return o->P + o->m; /* the checksum column, the skeleton's panel-count ranks */
}

/* the part of my A that panel k may change: rows >= its first row, columns
   >= its first column (a checksum rank: all its columns) */
static void abft_region(lu_app_t *a, dense_ctx_t *d, int64_t k, int64_t *r0, int64_t *c0)
{
    const dense_grid_t *g = &d->grid;
    int nb = a->A.nb;
    *r0 = dense_numroc(k * nb, nb, g->myrow, d->o->P);
    *c0 = g->mycol < d->o->Q ? dense_numroc(k * nb, nb, g->mycol, d->o->Q) : 0;
}

int lu_abft_backup(lu_app_t *a, dense_ctx_t *d, int64_t k)
{
    int64_t r0, c0;
    abft_region(a, d, k, &r0, &c0);
    size_t h = (size_t)(a->A.lr - r0);
    for (int64_t c = c0; c < a->A.lc; c++)
        memcpy(a->bk + (size_t)(c - c0) * h, &DENSE_AT(&a->A, r0, c), sizeof(double) * h);
    a->bk_panel = k;
    a->state = -1;
    return MPI_SUCCESS;
}

static void abft_restore(lu_app_t *a, dense_ctx_t *d, int64_t k)
{
    int64_t r0, c0;
    abft_region(a, d, k, &r0, &c0);
    size_t h = (size_t)(a->A.lr - r0);
    for (int64_t c = c0; c < a->A.lc; c++)
        memcpy(&DENSE_AT(&a->A, r0, c), a->bk + (size_t)(c - c0) * h, sizeof(double) * h);
    a->state = k;
}

/* an L multiplier of a finished panel: its true value is 0 */
static int abft_is_l(const lu_app_t *a, const dense_ctx_t *d, int64_t li, int64_t lj, int64_t k)
{
    const dense_grid_t *g = &d->grid;
    int nb = a->A.nb;
    if (g->mycol >= d->o->Q)
        return 0; /* the checksum holds sums of true values */
    int64_t gi = dense_l2g(li, nb, g->myrow, d->o->P), gj = dense_l2g(lj, nb, g->mycol, d->o->Q);
    return gj < k * nb && gi > gj;
}

int lu_abft_recover(void *app, dense_ctx_t *d, int64_t panel, int64_t done)
{
    lu_app_t *a = app;
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int Q = d->o->Q, rc;
    (void)done;
    /* 1. back to the start of `panel`, where possible */
    if (a->state != panel && a->bk_panel == panel)
        abft_restore(a, d, panel);
    int lost = a->state != panel;
    /* 2. who was lost in my process row (two in one: exit 3) */
    int root;
    if ((rc = dense_abft_lost(d, g->row, lost, g->mycol, "process row", &root)) != MPI_SUCCESS)
        return rc;
    if (root < 0)
        return MPI_SUCCESS;
    /* 3. rebuild: the checksum minus the others' true values, or their sum */
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
                if (!abft_is_l(a, d, i, j, panel))
                    w[(size_t)j * (size_t)lr + (size_t)i] = sign * DENSE_AT(A, i, j);
    rc = MPI_Reduce(w, r, (int)n, MPI_DOUBLE, MPI_SUM, root, g->row);
    if (rc == MPI_SUCCESS && lost) {
        for (int64_t j = 0; j < A->lc; j++)
            for (int64_t i = 0; i < lr; i++)
                DENSE_AT(A, i, j) =
                    abft_is_l(a, d, i, j, panel) ? 0.0 : r[(size_t)j * (size_t)lr + (size_t)i];
        a->state = panel;
        a->bk_panel = -1;
    }
    free(w);
    free(r);
    return rc;
}
