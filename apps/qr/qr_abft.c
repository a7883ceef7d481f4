/*
 * qr_abft.c - --ft abft for qr (qr.h, docs/qr.md, "Fault tolerance"): the
 * lost rank's blocks are rebuilt from a checksum process column and from
 * copies of the reflectors, not from a checkpoint.
 *
 * The grid gets one more process column (column Q, P ranks), as lu's
 * (lu_abft.c, the layer's dense_abft_*). Its rank in process row p holds,
 * position by position, the sum of the local parts of A of the Q ranks of
 * row p, and takes part in every panel as a process column all of whose
 * columns lie right of the panel: it receives V, T and tau, computes its
 * W = V^T C (reduced over the P checksum ranks), W = T^T W, C -= V W. The
 * Householder transformations are applied from the left, so after every
 * panel the checksum is the sum of the others' *true* values: R and the
 * trailing matrix, where the reflectors stored below the diagonal of the
 * finished panels stand for the zeros the factorization made (the relation
 * of Du, Bouteiller, Bosilca, Herault and Dongarra's ABFT QR, at the
 * process level).
 *
 * That relation does not protect the reflectors V, which qr needs after
 * the factorization (the least-squares solve applies Q^T to b, the checks
 * form Q). V is written once, when its panel is factored, and only read
 * afterwards, and the checksum rank of each process row receives its row's
 * rows of every panel's V anyway (the broadcast the update needs): it keeps
 * them (vs, replication: no arithmetic, no extra message; memory about
 * Q / 2 local matrices at the end of a square run).
 *
 * Recovery at panel boundary k (the skeleton's checkpointed count): the
 * replicated tau of the panels before k comes back to a replacement (a MAX
 * over the grid: tau >= 0, the lost ranks put in 0); a survivor whose A is
 * not at the start of panel k brings it back there. Before its trailing
 * update a panel changes only its own block column (on its owner), which
 * is copied at the panel's start (O(n NB) per panel, not the trailing
 * block); the update C -= V W (W = T^T V^T C) is the panel's last step,
 * after its last message, so a survivor has done all of it or none; done
 * (panel k finished, the count k + 1 not checkpointed), it is undone
 * numerically, C += V W, with V and W still in the work space, then the
 * block column is copied back (the answer is checked, not bit-identical,
 * after a recovery). In each
 * process row with one lost rank, one MPI_Reduce over the row rebuilds its
 * R and trailing part (dense_abft_recover_row), then its V blocks come
 * back: from the checksum rank's copies (a data rank lost), or from the
 * panels' owners (the checksum rank lost). Two lost ranks in one process
 * row: exit 3.
 */
#include "qr.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#define QR_TAG_V 0x7172

int qr_abft_extra_ranks(const dense_opts_t *o)
{
    return o->P + o->m; /* the checksum column, the skeleton's panel-count ranks */
}

/* my rows of panel k's V: count and first local row */
static int64_t v_rows(const qr_app_t *a, const dense_ctx_t *d, int64_t k, int64_t *i0)
{
    *i0 = dense_numroc(k * a->A.nb, a->A.nb, d->grid.myrow, d->o->P);
    return a->A.lr - *i0;
}

static int v_width(const qr_app_t *a, int64_t k)
{
    int64_t w = a->A.N - k * a->A.nb;
    return (int)(w < a->A.nb ? w : a->A.nb);
}

int qr_abft_setup(qr_app_t *a, dense_ctx_t *d)
{
    int np = qr_npanels(&a->A);
    if (!(a->bk = malloc(sizeof(double) * (size_t)(a->A.lr > 0 ? a->A.lr : 1) *
                             (size_t)a->A.nb + 8)))
        return -1;
    a->bk_panel = a->state = -1;
    if (d->grid.mycol < d->o->Q)
        return 0;
    if (!(a->voff = calloc((size_t)np + 1, sizeof(size_t))))
        return -1;
    for (int k = 0; k < np; k++) {
        int64_t i0, mv = v_rows(a, d, k, &i0);
        a->voff[k + 1] = a->voff[k] + (size_t)mv * (size_t)v_width(a, k);
    }
    return (a->vs = malloc(sizeof(double) * (a->voff[np] + 1))) ? 0 : -1;
}

void qr_abft_free(qr_app_t *a)
{
    free(a->bk);
    free(a->vs);
    free(a->voff);
}

void qr_abft_begin(qr_app_t *a, dense_ctx_t *d, int64_t k)
{
    dense_abft_copy(d, &a->A, a->bk, k, 0);
    a->bk_panel = k;
    a->state = -1;
}

void qr_abft_end(qr_app_t *a, dense_ctx_t *d, int64_t k)
{
    if (a->vs)
        memcpy(a->vs + a->voff[k], qr_house_v(&a->wk, &a->A, (int)k),
               sizeof(double) * (a->voff[k + 1] - a->voff[k]));
    (void)d;
    a->state = k + 1;
}

/* a lost data rank's reflectors of panel k (mine), from the checksum
   rank's copy V: the entries below the diagonal */
static void v_put(qr_app_t *a, const dense_ctx_t *d, int64_t k, const double *V)
{
    const dense_grid_t *g = &d->grid;
    int nb = a->A.nb, jb = v_width(a, k);
    int64_t i0, mv = v_rows(a, d, k, &i0);
    int64_t lc0 = dense_numroc(k * nb, nb, g->mycol, d->o->Q);
    for (int j = 0; j < jb; j++)
        for (int64_t r = 0; r < mv; r++)
            if (dense_l2g(i0 + r, nb, g->myrow, d->o->P) > k * nb + j)
                DENSE_AT(&a->A, i0 + r, lc0 + j) = V[(size_t)j * (size_t)mv + (size_t)r];
}

/* the V blocks of the panels before `panel` between the checksum rank of
   my process row and its lost rank `root` (or, the checksum rank lost, its
   data ranks) */
static int v_rebuild(qr_app_t *a, dense_ctx_t *d, int64_t panel, int root)
{
    const dense_grid_t *g = &d->grid;
    int Q = d->o->Q, rc = MPI_SUCCESS;
    dense_grid_t gq = *g; /* the data grid's maps */
    gq.Q = Q;
    double *V = malloc(sizeof(double) * ((size_t)a->A.lr * (size_t)a->A.nb + 1));
    if (!V)
        return MPI_ERR_NO_MEM;
    for (int64_t k = 0; k < panel && rc == MPI_SUCCESS; k++) {
        int owner = (int)(k % Q);
        int64_t i0, mv = v_rows(a, d, k, &i0);
        int cnt = (int)(mv * v_width(a, k));
        if (root < Q && owner == root) { /* the copy goes back to the data rank */
            if (g->mycol == Q)
                rc = MPI_Send(a->vs + a->voff[k], cnt, MPI_DOUBLE, root, QR_TAG_V, g->row);
            else if (g->mycol == root && (rc = MPI_Recv(V, cnt, MPI_DOUBLE, Q, QR_TAG_V, g->row,
                                                        MPI_STATUS_IGNORE)) == MPI_SUCCESS)
                v_put(a, d, k, V);
        } else if (root == Q) { /* the owner sends the checksum rank its V again */
            if (g->mycol == owner) {
                qr_panel_v(&gq, &a->A, (int)k, V);
                rc = MPI_Send(V, cnt, MPI_DOUBLE, Q, QR_TAG_V, g->row);
            } else if (g->mycol == Q) {
                rc = MPI_Recv(a->vs + a->voff[k], cnt, MPI_DOUBLE, owner, QR_TAG_V, g->row,
                              MPI_STATUS_IGNORE);
            }
        }
    }
    free(V);
    return rc;
}

/* panel k's trailing update C -= V W undone: C += V W (V and W of panel k
   still in the work space: no later panel has started) */
static void undo_update(qr_app_t *a, const dense_ctx_t *d, int64_t k)
{
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, jb = v_width(a, k);
    int64_t i0, mv = v_rows(a, d, k, &i0);
    int64_t lcs = dense_abft_first_col(k * nb, jb, nb, g->mycol, d->o->Q);
    int64_t ncl = A->lc - lcs;
    if (mv > 0 && ncl > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)mv, (int)ncl, jb, 1.0,
                    qr_house_v(&a->wk, A, (int)k), (int)mv, a->wk.w, jb, 1.0,
                    &DENSE_AT(A, i0, lcs), (int)A->ld);
}

int qr_abft_recover(void *app, dense_ctx_t *d, int64_t panel, int64_t done)
{
    qr_app_t *a = app;
    (void)done;
    if (a->state == panel + 1 && a->bk_panel == panel) {
        if (d->o->verbose)
            fprintf(stderr, "qr: grid rank %d: panel %lld's update undone\n", d->grid.rank,
                    (long long)panel);
        undo_update(a, d, panel); /* the block column: dense_abft_recover_row */
    }
    /* tau of the finished panels: every survivor has it, a replacement 0 */
    int64_t nt = panel * a->A.nb < a->A.N ? panel * a->A.nb : a->A.N;
    if (a->state != panel && a->bk_panel != panel) /* lost: mine are not to be trusted */
        memset(a->tau, 0, sizeof(double) * (size_t)nt);
    int rc = nt > 0 ? MPI_Allreduce(MPI_IN_PLACE, a->tau, (int)nt, MPI_DOUBLE, MPI_MAX,
                                    d->grid.comm)
                    : MPI_SUCCESS;
    int root, lost;
    if (rc == MPI_SUCCESS)
        rc = dense_abft_recover_row(d, &a->A, a->bk, &a->bk_panel, &a->state, panel, &root,
                                    &lost);
    if (rc == MPI_SUCCESS && root >= 0)
        rc = v_rebuild(a, d, panel, root);
    return rc;
}
