/*
 * matmul_abft.c - --ft abft for matmul (matmul.h, docs/dense.md, "ABFT"):
 * checkpoint-free recovery of C from checksums, after Chen and Dongarra's
 * checksum-extended SUMMA, at the process level.
 *
 * The grid gets one more process row (row P). Its rank in column q holds, in
 * place of A's local part, the sum of the local parts of A of the P ranks of
 * column q (zero-padded to the longest), and takes part in SUMMA like the
 * others: it broadcasts its "A" panel along its row and receives the B
 * panels of its column. Since every step is linear, its C stays the sum of
 * the C parts of its column, after every panel:
 *
 *     C(P, q) = sum_{p < P} C(p, q)       (local parts, position by position)
 *
 * After a recovery, with the panel count `panel` agreed by the skeleton:
 *  - a survivor that had applied panel `panel` already subtracts it again
 *    (its panel buffers still hold it: three buffer sets);
 *  - in each process column with one lost rank (a replacement), an
 *    MPI_Reduce over the column rebuilds its C: the checksum minus the other
 *    data ranks' parts, or (the checksum rank lost) their sum. A and B are
 *    input and rebuilt from the seed by setup.
 * Two lost ranks in one process column are beyond one checksum row: exit 3.
 * The rebuilt C differs from the failure-free one in the last bits (the
 * residual check passes; the checksum of C is not the same).
 */
#include "matmul.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

int mm_abft_extra_ranks(const dense_opts_t *o)
{
    return o->Q + o->m; /* the checksum row, the skeleton's panel-count ranks */
}

/* A checksum-row rank: A := the sum of its column's A parts (each built
   locally from the seed or the file, as the data ranks build theirs). */
int mm_abft_setup(mm_app_t *a, dense_ctx_t *d)
{
    const dense_opts_t *o = d->o;
    dense_grid_t gp = d->grid;
    gp.P = o->P;
    for (int p = 0; p < o->P; p++) {
        dense_mat_t t;
        gp.myrow = p;
        if (dense_mat_alloc(&t, &gp, a->n, a->n, o->nb))
            return -1;
        if (o->matrix) {
            if (dense_mat_read_mtx(&t, &gp, o->matrix, 0, d->err, sizeof d->err)) {
                dense_mat_free(&t);
                return -1;
            }
        } else {
            dense_rand_ctx_t ca = {o->seed, MM_STREAM_A};
            dense_mat_fill(&t, &gp, a->n, 0, a->n, dense_rand_fn, &ca);
        }
        for (int64_t j = 0; j < t.lc; j++)
            for (int64_t i = 0; i < t.lr; i++)
                DENSE_AT(&a->A, i, j) += DENSE_AT(&t, i, j);
        dense_mat_free(&t);
    }
    return 0;
}

int mm_abft_recover(void *app, dense_ctx_t *d, int64_t panel, int64_t done)
{
    mm_app_t *a = app;
    const dense_grid_t *g = &d->grid;
    dense_mat_t *C = &a->C;
    int P = d->o->P, nb = C->nb, rc;
    /* 1. a survivor one panel ahead undoes it */
    if (done == panel + 1 && panel >= 0 && C->lr > 0 && C->lc > 0) {
        int s = (int)(panel % 3);
        int kb = (int)(a->n - panel * nb < nb ? a->n - panel * nb : nb);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)C->lr, (int)C->lc, kb, -1.0,
                    a->pa[s], (int)C->lr, a->pb[s], kb, 1.0, C->a, (int)C->ld);
    }
    int lost = done < panel || done > panel + 1; /* a replacement: done = -1 */
    /* 2. who was lost in my process column (two in one: exit 3) */
    int root;
    if ((rc = dense_abft_lost(d, g->col, lost, g->myrow, "process column", &root)) !=
        MPI_SUCCESS)
        return rc;
    if (root < 0)
        return MPI_SUCCESS;
    /* 3. rebuild the lost rank's C: checksum - others, or the sum of all */
    int64_t lr0 = dense_numroc(a->n, nb, 0, P), lc = C->lc;
    size_t cnt_el = (size_t)lr0 * (size_t)(lc > 0 ? lc : 1);
    double *w = calloc(cnt_el + 1, sizeof(double)), *r = calloc(cnt_el + 1, sizeof(double));
    if (!w || !r) {
        free(w);
        free(r);
        return MPI_ERR_NO_MEM;
    }
    double sign = dense_abft_sign(root, P, g->myrow);
    if (!lost)
        for (int64_t j = 0; j < lc; j++)
            for (int64_t i = 0; i < C->lr; i++)
                w[(size_t)j * (size_t)lr0 + (size_t)i] = sign * DENSE_AT(C, i, j);
    rc = MPI_Reduce(w, r, (int)cnt_el, MPI_DOUBLE, MPI_SUM, root, g->col);
    if (rc == MPI_SUCCESS && lost)
        for (int64_t j = 0; j < lc; j++)
            for (int64_t i = 0; i < C->lr; i++)
                DENSE_AT(C, i, j) = r[(size_t)j * (size_t)lr0 + (size_t)i];
    free(w);
    free(r);
    return rc;
}
