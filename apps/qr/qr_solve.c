/*
 * qr_solve.c - least squares from the distributed QR (qr_solve.h):
 * c = Q^T b by the factorization's own compact-WY update, then a block
 * back substitution R x = c with x replicated on every rank.
 */
#include "qr_solve.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"

/* R x = c for the n x n upper triangle of A; c: my local rows (replicated
   along the process rows). Block kb, from the last: its process row sums
   the other blocks' contributions onto the diagonal block's owner (a
   reduce along the row, fixed order), which solves with dtrsv; x_kb goes
   down its process column then along every process row; the process
   column that owns block column kb adds R(0:kb, kb) x_kb to its partial
   sums. */
static int back_substitute(const dense_grid_t *g, const dense_mat_t *A, const double *c, double *x)
{
    int nb = A->nb, n = A->N, nblk = (n + nb - 1) / nb;
    double *part = calloc((size_t)A->lr + 1, sizeof(double));
    double *rhs = malloc(((size_t)nb + 1) * sizeof(double));
    if (!part || !rhs) {
        free(part);
        free(rhs);
        return MPI_ERR_NO_MEM;
    }
    int rc = MPI_SUCCESS;
    for (int kb = nblk - 1; kb >= 0 && rc == MPI_SUCCESS; kb--) {
        int j0 = kb * nb, jb = n - j0 < nb ? n - j0 : nb;
        int prk = kb % g->P, pck = kb % g->Q;
        int li = (int)dense_numroc(j0, nb, g->myrow, g->P);
        int lj = (int)dense_numroc(j0, nb, g->mycol, g->Q);
        int owner = g->myrow == prk && g->mycol == pck;
        if (g->myrow == prk) {
            rc = MPI_Reduce(part + li, rhs, jb, MPI_DOUBLE, MPI_SUM, pck, g->row);
            if (rc != MPI_SUCCESS)
                break;
        }
        if (owner) {
            for (int i = 0; i < jb; i++)
                rhs[i] = c[li + i] - rhs[i];
            cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, jb,
                        A->a + (size_t)lj * A->ld + li, A->ld, rhs, 1);
        }
        if (g->mycol == pck && g->P > 1)
            rc = MPI_Bcast(rhs, jb, MPI_DOUBLE, prk, g->col);
        if (rc == MPI_SUCCESS && g->Q > 1)
            rc = MPI_Bcast(rhs, jb, MPI_DOUBLE, pck, g->row);
        if (rc != MPI_SUCCESS)
            break;
        memcpy(x + j0, rhs, (size_t)jb * sizeof(double));
        int above = (int)dense_numroc(j0, nb, g->myrow, g->P); /* my rows < j0 */
        if (g->mycol == pck && above > 0)
            cblas_dgemv(CblasColMajor, CblasNoTrans, above, jb, 1.0,
                        A->a + (size_t)lj * A->ld, A->ld, rhs, 1, 1.0, part, 1);
    }
    free(part);
    free(rhs);
    return rc;
}

int qr_solve_ls(const dense_grid_t *g, const dense_mat_t *A, const double *tau, const double *b_loc, double *x,
                qr_work_t *wk)
{
    /* b as an m x 1 matrix: its one column lives on process column 0 */
    dense_mat_t B = *A;
    B.N = 1;
    B.lc = g->mycol == 0 ? 1 : 0;
    B.a = malloc(((size_t)A->lr + 1) * sizeof(double));
    if (!B.a)
        return MPI_ERR_NO_MEM;
    memcpy(B.a, b_loc, (size_t)A->lr * sizeof(double));
    int rc = qr_apply_q(g, A, tau, 1, &B, wk);
    if (rc == MPI_SUCCESS && g->Q > 1)
        rc = MPI_Bcast(B.a, A->lr, MPI_DOUBLE, 0, g->row);
    if (rc == MPI_SUCCESS)
        rc = back_substitute(g, A, B.a, x);
    free(B.a);
    return rc;
}
