/*
 * qr_house.c - distributed blocked Householder QR (qr_house.h): panel
 * factorization, T factor, compact WY update, and Q / Q^T applied to
 * another matrix of the same row distribution.
 */
#include "qr_house.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"

static int min_i(int a, int b) { return a < b ? a : b; }

static int min_mn(const dense_mat_t *A) { return (int)(A->M < A->N ? A->M : A->N); }

int qr_npanels(const dense_mat_t *A) { return (min_mn(A) + A->nb - 1) / A->nb; }

/* columns of panel k */
static int panel_width(const dense_mat_t *A, int k) { return min_i(A->nb, min_mn(A) - k * A->nb); }

/* *p holds at least `want` doubles */
static int grow(double **p, size_t *cap, size_t want)
{
    if (want <= *cap)
        return 0;
    double *q = realloc(*p, want * sizeof(double));
    if (!q)
        return -1;
    *p = q;
    *cap = want;
    return 0;
}

static int work_grow(qr_work_t *wk, int nb, int mloc, int ncols, int P)
{
    size_t nbuf = (size_t)nb * nb + nb + (size_t)mloc * nb + 1;
    size_t nw = (size_t)nb * (ncols > nb ? ncols : nb) + 1;
    return grow(&wk->buf, &wk->nbuf, nbuf) || grow(&wk->w, &wk->nw, nw) ||
                   grow(&wk->gram, &wk->ngram, (size_t)nb * nb + 2 * (size_t)P + 1)
               ? -1
               : 0;
}

int qr_work_init(qr_work_t *wk, const dense_grid_t *g, const dense_mat_t *A)
{
    memset(wk, 0, sizeof(*wk));
    return work_grow(wk, A->nb, (int)A->lr, (int)A->lc, g->P);
}

void qr_work_free(qr_work_t *wk)
{
    free(wk->buf);
    free(wk->w);
    free(wk->gram);
    memset(wk, 0, sizeof(*wk));
}

/* The 2-norm of the column below the diagonal, from every process row's
   local norm, combined in process-row order with scaling (no overflow):
   the same bits on every rank. */
static double combine_norms(const double *vals, int P)
{
    double scale = 0.0, ssq = 1.0;
    for (int i = 0; i < P; i++) {
        double v = fabs(vals[2 * i]);
        if (v == 0.0)
            continue;
        if (scale < v) {
            ssq = 1.0 + ssq * (scale / v) * (scale / v);
            scale = v;
        } else {
            ssq += (v / scale) * (v / scale);
        }
    }
    return scale * sqrt(ssq);
}

/* dlarft, forward, columnwise, from G = V^T V (ldg): T(0:i, i) = -tau_i
   T(0:i, 0:i) G(0:i, i), jb x jb into T (ldt) */
static void form_t(double *T, int ldt, const double *G, int ldg, const double *tau, int jb)
{
    for (int i = 0; i < jb; i++)
        memset(T + (size_t)i * ldt, 0, (size_t)jb * sizeof(double));
    for (int i = 0; i < jb; i++) {
        double ti = tau[i];
        T[(size_t)i * ldt + i] = ti;
        if (ti == 0.0 || i == 0)
            continue;
        double *ci = T + (size_t)i * ldt;
        for (int r = 0; r < i; r++)
            ci[r] = -ti * G[(size_t)i * ldg + r];
        cblas_dtrmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, i, T, ldt, ci, 1);
    }
}

/* Columns [c, c + w) of panel k, one Householder reflector per column
   (pdgeqr2): H = I - tau v v^T with v(0) = 1, beta = -sign(alpha)
   ||(alpha, x)||, as LAPACK's dlarfg, each applied to the rest of [c, c + w). */
static int factor_base(const dense_grid_t *g, dense_mat_t *A, int k, int c, int w, double *tau,
                       qr_work_t *wk)
{
    int nb = A->nb, j0 = k * nb;
    int pr0 = k % g->P;
    int i0 = (int)dense_numroc(j0, nb, g->myrow, g->P);
    int lc0 = (int)dense_numroc(j0, nb, g->mycol, g->Q);
    int diag = g->myrow == pr0;
    double send[2], *valp = wk->gram, *wv = wk->w; /* the norms of every process row */
    int rc = MPI_SUCCESS;
    for (int j = c; j < c + w && rc == MPI_SUCCESS; j++) {
        double *col = A->a + (size_t)(lc0 + j) * A->ld;
        int ir = i0 + j;                /* the diagonal's local row on pr0 */
        int ib = diag ? ir + 1 : i0;    /* my first row below the diagonal */
        int nbelow = A->lr - ib;
        send[0] = nbelow > 0 ? cblas_dnrm2(nbelow, col + ib, 1) : 0.0;
        send[1] = diag ? col[ir] : 0.0;
        rc = MPI_Allgather(send, 2, MPI_DOUBLE, valp, 2, MPI_DOUBLE, g->col);
        if (rc != MPI_SUCCESS)
            break;
        double xnorm = combine_norms(valp, g->P), alpha = valp[2 * pr0 + 1];
        double t = 0.0;
        if (xnorm != 0.0) {
            double beta = -copysign(hypot(alpha, xnorm), alpha);
            t = (beta - alpha) / beta;
            if (nbelow > 0)
                cblas_dscal(nbelow, 1.0 / (alpha - beta), col + ib, 1);
            if (diag)
                col[ir] = beta;
        }
        tau[j0 + j] = t;
        int nr = c + w - j - 1;
        if (t == 0.0 || nr == 0)
            continue;
        /* w = v^T A(:, j+1 .. c+w) over the process column, then A -= t v w^T */
        double *rest = col + A->ld;
        if (nbelow > 0)
            cblas_dgemv(CblasColMajor, CblasTrans, nbelow, nr, 1.0, rest + ib, A->ld, col + ib,
                        1, 0.0, wv, 1);
        else
            memset(wv, 0, (size_t)nr * sizeof(double));
        if (diag)
            cblas_daxpy(nr, 1.0, rest + ir, A->ld, wv, 1);
        rc = MPI_Allreduce(MPI_IN_PLACE, wv, nr, MPI_DOUBLE, MPI_SUM, g->col);
        if (rc != MPI_SUCCESS)
            break;
        if (diag)
            cblas_daxpy(nr, -t, wv, 1, rest + ir, A->ld);
        if (nbelow > 0)
            cblas_dger(CblasColMajor, nbelow, nr, -t, col + ib, 1, wv, 1, rest + ib, A->ld);
    }
    return rc;
}

#define QR_PANEL_BASE 16 /* columns factored one by one below this width */

/* Columns [c, c + w) of panel k on its process column (as LAPACK's dgeqrf
   inside the panel, or dgeqrt3): the left half, then its reflectors applied
   to the right half in compact WY form (V1 and T1 from V1^T V1, W = V1^T A2
   with one MPI_Allreduce of [G | W] over the process column, A2 -= V1 T1^T
   W), then the right half; below QR_PANEL_BASE columns, column by column.
   The scratch: V1 and T1 in wk->buf (panel_vt fills it afterwards), G and
   W in wk->w. */
static int factor_cols(const dense_grid_t *g, dense_mat_t *A, int k, int c, int w, double *tau,
                       qr_work_t *wk)
{
    if (w <= QR_PANEL_BASE)
        return factor_base(g, A, k, c, w, tau, wk);
    int w1 = w / 2, w2 = w - w1, rc;
    if ((rc = factor_cols(g, A, k, c, w1, tau, wk)) != MPI_SUCCESS)
        return rc;
    int nb = A->nb, j0 = k * nb;
    int i0 = (int)dense_numroc(j0, nb, g->myrow, g->P);
    int lc0 = (int)dense_numroc(j0, nb, g->mycol, g->Q);
    int is = g->myrow == k % g->P ? i0 + c : i0; /* my first row from global row j0 + c */
    int mv = A->lr - is;
    double *T1 = wk->buf, *V1 = T1 + (size_t)nb * nb + nb, *G = wk->w, *W = G + (size_t)w1 * w1;
    for (int j = 0; j < w1; j++) { /* V1: the unit lower triangle on the diagonal block */
        double *v = V1 + (size_t)j * mv;
        if (mv > 0)
            memcpy(v, A->a + (size_t)(lc0 + c + j) * A->ld + is, (size_t)mv * sizeof(double));
        if (g->myrow == k % g->P) {
            for (int r = 0; r < j && r < mv; r++)
                v[r] = 0.0;
            if (j < mv)
                v[j] = 1.0;
        }
    }
    double *A2 = A->a + (size_t)(lc0 + c + w1) * A->ld + is;
    if (mv > 0) {
        cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, w1, mv, 1.0, V1, mv, 0.0, G, w1);
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, w1, w2, mv, 1.0, V1, mv, A2,
                    (int)A->ld, 0.0, W, w1);
    } else {
        memset(G, 0, (size_t)w1 * (w1 + w2) * sizeof(double));
    }
    rc = MPI_Allreduce(MPI_IN_PLACE, G, w1 * (w1 + w2), MPI_DOUBLE, MPI_SUM, g->col);
    if (rc != MPI_SUCCESS)
        return rc;
    form_t(T1, w1, G, w1, tau + j0 + c, w1);
    cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, w1, w2, 1.0, T1,
                w1, W, w1);
    if (mv > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mv, w2, w1, -1.0, V1, mv, W, w1,
                    1.0, A2, (int)A->ld);
    return factor_cols(g, A, k, c + w1, w2, tau, wk);
}

/* Panel k on its process column */
static int panel_factor(const dense_grid_t *g, dense_mat_t *A, int k, double *tau, qr_work_t *wk)
{
    return factor_cols(g, A, k, 0, panel_width(A, k), tau, wk);
}

void qr_panel_v(const dense_grid_t *g, const dense_mat_t *A, int k, double *V)
{
    int nb = A->nb, j0 = k * nb, jb = panel_width(A, k);
    int i0 = (int)dense_numroc(j0, nb, g->myrow, g->P), mv = A->lr - i0;
    int lc0 = (int)dense_numroc(j0, nb, g->mycol, g->Q);
    for (int j = 0; j < jb; j++) {
        double *v = V + (size_t)j * mv;
        if (mv > 0)
            memcpy(v, A->a + (size_t)(lc0 + j) * A->ld + i0, (size_t)mv * sizeof(double));
        if (g->myrow == k % g->P) { /* unit lower triangle on the diagonal block */
            for (int r = 0; r < j; r++)
                v[r] = 0.0;
            v[j] = 1.0;
        }
    }
}

/* V and T of panel k into wk->buf = [T (jb x jb) | tau (jb) | V (mv x jb)],
   formed on the panel's process column (G = V^T V reduced over it), then
   broadcast along the process rows. tau is read on the panel's column and
   written everywhere else. */
static int panel_vt(const dense_grid_t *g, const dense_mat_t *A, int k, double *tau, qr_work_t *wk)
{
    int nb = A->nb, j0 = k * nb, jb = panel_width(A, k);
    int pc = k % g->Q;
    int i0 = (int)dense_numroc(j0, nb, g->myrow, g->P), mv = A->lr - i0;
    double *T = wk->buf, *tb = T + (size_t)jb * jb, *V = tb + jb, *G = wk->gram;
    int rc = MPI_SUCCESS;
    if (g->mycol == pc) {
        qr_panel_v(g, A, k, V);
        if (mv > 0)
            cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, jb, mv, 1.0, V, mv, 0.0, G, jb);
        else
            memset(G, 0, (size_t)jb * jb * sizeof(double));
        rc = MPI_Allreduce(MPI_IN_PLACE, G, jb * jb, MPI_DOUBLE, MPI_SUM, g->col);
        if (rc != MPI_SUCCESS)
            return rc;
        memcpy(tb, tau + j0, (size_t)jb * sizeof(double));
        form_t(T, jb, G, jb, tau + j0, jb);
    }
    int nrow;
    if ((rc = MPI_Comm_size(g->row, &nrow)) != MPI_SUCCESS)
        return rc;
    if (nrow > 1) { /* the process row (with --ft abft, its checksum rank too) */
        size_t cnt = (size_t)jb * jb + jb + (size_t)mv * jb;
        rc = MPI_Bcast(wk->buf, (int)cnt, MPI_DOUBLE, pc, g->row);
        if (rc == MPI_SUCCESS && g->mycol != pc)
            memcpy(tau + j0, tb, (size_t)jb * sizeof(double));
    }
    return rc;
}

double *qr_house_v(const qr_work_t *wk, const dense_mat_t *A, int k)
{
    int jb = panel_width(A, k);
    return wk->buf + (size_t)jb * jb + jb;
}

/* C(i0:, 0:ncl) = (I - V op(T) V^T) C(i0:, 0:ncl): W = V^T C reduced over
   the process column, W = op(T) W, C -= V W. trans 1: op(T) = T^T (Q^T). */
static int wy_update(const dense_grid_t *g, const dense_mat_t *A, int k, int trans, double *C, int ldc, int ncl,
                     qr_work_t *wk)
{
    int nb = A->nb, j0 = k * nb, jb = panel_width(A, k);
    int i0 = (int)dense_numroc(j0, nb, g->myrow, g->P), mv = A->lr - i0;
    if (ncl <= 0)
        return MPI_SUCCESS; /* the same for the whole process column */
    double *T = wk->buf, *V = T + (size_t)jb * jb + jb, *W = wk->w;
    if (mv > 0)
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, jb, ncl, mv, 1.0, V, mv, C + i0,
                    ldc, 0.0, W, jb);
    else
        memset(W, 0, (size_t)jb * ncl * sizeof(double));
    int rc = MPI_Allreduce(MPI_IN_PLACE, W, jb * ncl, MPI_DOUBLE, MPI_SUM, g->col);
    if (rc != MPI_SUCCESS)
        return rc;
    cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, trans ? CblasTrans : CblasNoTrans,
                CblasNonUnit, jb, ncl, 1.0, T, jb, W, jb);
    if (mv > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mv, ncl, jb, -1.0, V, mv, W, jb,
                    1.0, C + i0, ldc);
    return MPI_SUCCESS;
}

int qr_factor_panel(const dense_grid_t *g, dense_mat_t *A, int k, double *tau, qr_work_t *wk)
{
    int nb = A->nb, j0 = k * nb, jb = panel_width(A, k);
    int rc = MPI_SUCCESS;
    if (g->mycol == k % g->Q)
        rc = panel_factor(g, A, k, tau, wk);
    if (rc == MPI_SUCCESS)
        rc = panel_vt(g, A, k, tau, wk);
    if (rc != MPI_SUCCESS)
        return rc;
    /* an abft checksum rank (grid column Q): from the first column not
       finished on some data rank of its row */
    int lcs = (int)dense_abft_first_col(j0, jb, nb, g->mycol, g->Q);
    return wy_update(g, A, k, 1, A->a + (size_t)lcs * A->ld, A->ld, A->lc - lcs, wk);
}

int qr_apply_q(const dense_grid_t *g, const dense_mat_t *A, const double *tau, int trans,
               dense_mat_t *C, qr_work_t *wk)
{
    if (work_grow(wk, A->nb, (int)A->lr, (int)C->lc, g->P) != 0)
        return MPI_ERR_NO_MEM;
    double *t = malloc(((size_t)min_mn(A) + 1) * sizeof(double));
    if (!t)
        return MPI_ERR_NO_MEM;
    memcpy(t, tau, (size_t)min_mn(A) * sizeof(double));
    int np = qr_npanels(A), rc = MPI_SUCCESS;
    for (int s = 0; s < np && rc == MPI_SUCCESS; s++) {
        int k = trans ? s : np - 1 - s;
        rc = panel_vt(g, A, k, t, wk);
        if (rc == MPI_SUCCESS)
            rc = wy_update(g, A, k, trans, C->a, C->ld, C->lc, wk);
    }
    free(t);
    return rc;
}
