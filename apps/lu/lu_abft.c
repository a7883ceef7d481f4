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
 * is not at the start of panel k brings it back there. It does not keep a
 * copy of what the panel may change (the trailing block: a copy per panel
 * cost about 0.8x the update's dgemm), only of what a panel changes before
 * its trailing update (O(n NB) per panel): the panel's block column on its
 * owner (at the panel's start), and the rows that the panel's swaps and its
 * row-panel dtrsm change, in my columns right of the panel (rows j .. j + jb
 * and the pivot rows, before the swaps). The trailing update A22 -= L21 U12
 * is the panel's last step after its last message, so a survivor has done
 * all of it or none of it; done (it finished panel k but the count k + 1 was
 * not checkpointed), it is undone numerically, A22 += L21 U12, with L and U
 * still in their buffers, then the copied rows and block column are put
 * back. The undone entries carry a rounding error of the order of the
 * update's own (the answer is checked, not bit-identical). In each process row with one lost rank (a replacement, or a
 * survivor that cannot be brought back to k), one MPI_Reduce over the
 * process row rebuilds its part: S minus the others' true values (or their
 * sum, when the checksum rank was lost). The rebuilt rank's own L
 * multipliers are lost and left at zero: they are not used any more (the
 * row swaps and L^-1 were applied to B when their panel was done). Two lost
 * ranks in one process row: exit 3.
 */
#include "lu.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

int lu_abft_extra_ranks(const dense_opts_t *o)
{
    return o->P + o->m; /* the checksum column, the skeleton's panel-count ranks */
}

int lu_abft_alloc(lu_app_t *a)
{
    size_t nb = (size_t)a->A.nb, lc = (size_t)(a->A.lc > 0 ? a->A.lc : 1);
    a->bk = malloc(sizeof(double) * (size_t)(a->A.lr > 0 ? a->A.lr : 1) * nb + 8);
    a->bkr = malloc(sizeof(double) * 2 * nb * lc + 8);
    a->bkr_row = malloc(sizeof(int64_t) * 2 * nb + 8);
    a->nbkr = -1;
    return a->bk && a->bkr && a->bkr_row ? 0 : -1;
}

int lu_abft_backup(lu_app_t *a, dense_ctx_t *d, int64_t k)
{
    dense_abft_copy(d, &a->A, a->bk, k, 0);
    a->bk_panel = k;
    a->nbkr = -1;
    a->state = -1;
    return MPI_SUCCESS;
}

void lu_abft_save_rows(lu_app_t *a, const dense_ctx_t *d, int64_t j, int jb, int64_t c0)
{
    dense_mat_t *A = &a->A;
    int nb = A->nb, P = d->o->P, n = 0;
    for (int s = 0; s < 2 * jb; s++) { /* rows j .. j + jb, then the pivot rows */
        int64_t gr = s < jb ? j + s : (int64_t)a->ipiv[j + s - jb];
        if (dense_g2p(gr, nb, P) != d->grid.myrow)
            continue;
        int64_t lr = dense_g2l(gr, nb, P);
        int t = 0;
        while (t < n && a->bkr_row[t] != lr)
            t++;
        if (t == n)
            a->bkr_row[n++] = lr;
    }
    for (int64_t c = c0; c < A->lc; c++)
        for (int t = 0; t < n; t++)
            a->bkr[(size_t)(c - c0) * (size_t)n + (size_t)t] = DENSE_AT(A, a->bkr_row[t], c);
    a->nbkr = n;
    a->bkr_c0 = c0;
}

/* panel k's A22 -= L21 U12 undone: A22 += L21 U12 (L, U still in the
   buffers of panel k, which no later panel has touched) */
static void undo_update(lu_app_t *a, const dense_ctx_t *d, int64_t k)
{
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, P = d->o->P;
    int64_t j = k * nb;
    int jb = (int)(a->n - j < nb ? a->n - j : nb);
    int64_t lri = dense_numroc(j, nb, g->myrow, P), lr2 = dense_numroc(j + jb, nb, g->myrow, P);
    int64_t nrow = A->lr - lri, m = A->lr - lr2, c0 = a->bkr_c0, nc = A->lc - c0;
    if (m > 0 && nc > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)nc, jb, 1.0,
                    a->Lb[k & 1] + (lr2 - lri), (int)nrow, a->U, jb, 1.0, &DENSE_AT(A, lr2, c0),
                    (int)A->ld);
}

int lu_abft_recover(void *app, dense_ctx_t *d, int64_t panel, int64_t done)
{
    lu_app_t *a = app;
    int root, lost;
    (void)done;
    /* back to the start of `panel` where my copies are of it: the update,
       then the rows (the block column: dense_abft_recover_row) */
    if (a->state != panel && a->bk_panel == panel && a->nbkr >= 0) {
        if (d->o->verbose)
            fprintf(stderr, "lu: grid rank %d: back to the start of panel %lld (%s)\n",
                    d->grid.rank, (long long)panel,
                    a->state == panel + 1 ? "update undone" : "rows copied back");
        if (a->state == panel + 1)
            undo_update(a, d, panel);
        for (int64_t c = a->bkr_c0; c < a->A.lc; c++)
            for (int t = 0; t < a->nbkr; t++)
                DENSE_AT(&a->A, a->bkr_row[t], c) =
                    a->bkr[(size_t)(c - a->bkr_c0) * (size_t)a->nbkr + (size_t)t];
        a->nbkr = -1;
    }
    return dense_abft_recover_row(d, &a->A, a->bk, &a->bk_panel, &a->state, panel, &root, &lost);
}
