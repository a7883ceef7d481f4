/*
 * dense_vec.c - y = A x with x and y replicated on every computing rank
 * (dense.h): the checks of the apps (matmul's C x against A (B x), ...).
 */
#include "dense.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

int dense_matvec(const dense_mat_t *A, const dense_grid_t *g, const double *x, double *y)
{
    size_t lr = (size_t)A->lr, lc = (size_t)A->lc;
    double *xl = malloc(sizeof(double) * (lc + 1)), *yl = calloc(lr + 1, sizeof(double));
    double *t = calloc((size_t)A->M + 1, sizeof(double));
    if (!xl || !yl || !t) {
        free(xl);
        free(yl);
        free(t);
        return MPI_ERR_NO_MEM;
    }
    for (size_t lj = 0; lj < lc; lj++)
        xl[lj] = x[dense_l2g((int64_t)lj, A->nb, g->mycol, g->Q)];
    if (lr > 0 && lc > 0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)lr, (int)lc, 1.0, A->a, (int)A->ld, xl, 1,
                    0.0, yl, 1);
    for (size_t li = 0; li < lr; li++)
        t[dense_l2g((int64_t)li, A->nb, g->myrow, g->P)] = yl[li];
    /* row i: one partial sum per process column, summed in a fixed order */
    int rc = MPI_Allreduce(t, y, (int)A->M, MPI_DOUBLE, MPI_SUM, g->comm);
    free(xl);
    free(yl);
    free(t);
    return rc;
}
