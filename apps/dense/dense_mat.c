/*
 * dense_mat.c - local parts of block-cyclic matrices (dense.h): allocation,
 * filling from a generator or a Matrix Market file, the infinity norm and
 * the grid-independent checksum.
 */
#include "dense.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int dense_mat_alloc(dense_mat_t *A, const dense_grid_t *g, int64_t M, int64_t N, int nb)
{
    memset(A, 0, sizeof(*A));
    A->M = M;
    A->N = N;
    A->nb = nb;
    A->lr = dense_numroc(M, nb, g->myrow, g->P);
    A->lc = dense_numroc(N, nb, g->mycol, g->Q);
    A->ld = A->lr > 0 ? A->lr : 1;
    /* huge pages: a replacement's restore writes all of it at once */
    A->a = dckpt_alloc_state((size_t)A->ld * (size_t)(A->lc > 0 ? A->lc : 1) * sizeof(double));
    return A->a ? 0 : -1;
}

void dense_mat_free(dense_mat_t *A)
{
    free(A->a);
    A->a = NULL;
}

size_t dense_mat_bytes(const dense_mat_t *A)
{
    return (size_t)A->ld * (size_t)A->lc * sizeof(double);
}

void dense_mat_fill(dense_mat_t *A, const dense_grid_t *g, int64_t m, int64_t j0, int64_t n,
                    dense_entry_fn f, void *ctx)
{
    for (int64_t lj = 0; lj < A->lc; lj++) {
        int64_t gj = dense_l2g(lj, A->nb, g->mycol, g->Q);
        if (gj < j0 || gj >= j0 + n)
            continue;
        for (int64_t li = 0; li < A->lr; li++) {
            int64_t gi = dense_l2g(li, A->nb, g->myrow, g->P);
            if (gi < m)
                DENSE_AT(A, li, lj) = f(ctx, gi, gj - j0);
        }
    }
}

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double dense_rand_entry(uint64_t seed, uint64_t stream, int64_t i, int64_t j)
{
    uint64_t h = mix64(seed ^ mix64(stream ^ mix64((uint64_t)i ^ mix64((uint64_t)j))));
    return (double)(h >> 11) * 0x1.0p-53 - 0.5;
}

double dense_rand_fn(void *ctx, int64_t i, int64_t j)
{
    const dense_rand_ctx_t *c = ctx;
    return dense_rand_entry(c->seed, c->stream, i, j);
}

typedef struct mtx_ctx {
    dense_mat_t *A;
    const dense_grid_t *g;
    int64_t j0;
    int symmetric;
} mtx_ctx_t;

static void mtx_put(const mtx_ctx_t *c, int64_t i, int64_t j, double v)
{
    dense_mat_t *A = c->A;
    const dense_grid_t *g = c->g;
    if (dense_g2p(i, A->nb, g->P) != g->myrow || dense_g2p(j, A->nb, g->Q) != g->mycol)
        return;
    DENSE_AT(A, dense_g2l(i, A->nb, g->P), dense_g2l(j, A->nb, g->Q)) += v;
}

static void mtx_add(void *ctx, int64_t i, int64_t j, double v)
{
    const mtx_ctx_t *c = ctx;
    mtx_put(c, i, c->j0 + j, v);
    if (c->symmetric && i != j)
        mtx_put(c, j, c->j0 + i, v);
}

int dense_mat_read_mtx(dense_mat_t *A, const dense_grid_t *g, const char *path, int64_t j0,
                       char *err, size_t errlen)
{
    app_mtx_t m;
    if (app_mtx_open(&m, path, err, errlen))
        return -1;
    int rc = -1;
    if (m.n > A->M || j0 + m.n > A->N) {
        snprintf(err, errlen, "%s: %lld x %lld does not fit the %lld x %lld matrix", path, m.n,
                 m.n, (long long)A->M, (long long)A->N);
    } else {
        mtx_ctx_t c = {A, g, j0, m.symmetric};
        rc = app_mtx_each(&m, mtx_add, &c, err, errlen);
    }
    app_mtx_close(&m);
    return rc;
}

int dense_norm_inf(const dense_mat_t *A, const dense_grid_t *g, int64_t m, int64_t j0,
                   int64_t n, double *out)
{
    size_t lr = (size_t)A->lr;
    double *s = calloc(lr + 1, sizeof(double)), *t = calloc(lr + 1, sizeof(double));
    if (!s || !t) {
        free(s);
        free(t);
        return MPI_ERR_NO_MEM;
    }
    for (int64_t lj = 0; lj < A->lc; lj++) {
        int64_t gj = dense_l2g(lj, A->nb, g->mycol, g->Q);
        if (gj < j0 || gj >= j0 + n)
            continue;
        for (int64_t li = 0; li < A->lr; li++)
            s[li] += fabs(DENSE_AT(A, li, lj));
    }
    int rc = MPI_Allreduce(s, t, (int)lr, MPI_DOUBLE, MPI_SUM, g->row);
    double mx = 0.0;
    for (int64_t li = 0; li < A->lr; li++)
        if (dense_l2g(li, A->nb, g->myrow, g->P) < m && !(t[li] <= mx))
            mx = t[li]; /* a NaN wins */
    free(s);
    free(t);
    if (rc != MPI_SUCCESS)
        return rc;
    return MPI_Allreduce(&mx, out, 1, MPI_DOUBLE, MPI_MAX, g->comm);
}

int dense_mat_checksum(const dense_mat_t *A, const dense_grid_t *g, int64_t m, int64_t n,
                       uint64_t *out)
{
    int nb = A->nb;
    int64_t br = (m + nb - 1) / nb, bc = (n + nb - 1) / nb;
    size_t nblk = (size_t)(br * bc);
    uint64_t *h = calloc(nblk + 1, sizeof(uint64_t)), *r = calloc(nblk + 1, sizeof(uint64_t));
    if (!h || !r) {
        free(h);
        free(r);
        return MPI_ERR_NO_MEM;
    }
    for (int64_t J = g->mycol; J < bc; J += g->Q) {
        int64_t lj0 = dense_g2l(J * nb, nb, g->Q);
        int64_t w = n - J * nb < nb ? n - J * nb : nb;
        for (int64_t I = g->myrow; I < br; I += g->P) {
            int64_t li0 = dense_g2l(I * nb, nb, g->P);
            int64_t hgt = m - I * nb < nb ? m - I * nb : nb;
            uint64_t x = APP_FNV1A_INIT;
            for (int64_t j = 0; j < w; j++)
                x = app_fnv1a(x, &DENSE_AT(A, li0, lj0 + j), (size_t)hgt * sizeof(double));
            h[J * br + I] = x;
        }
    }
    /* every block has one owner and zeros elsewhere: the sum is exact */
    int rc = MPI_Reduce(h, r, (int)nblk, MPI_UINT64_T, MPI_SUM, 0, g->comm);
    if (rc == MPI_SUCCESS && g->rank == 0)
        *out = app_fnv1a(APP_FNV1A_INIT, r, nblk * sizeof(uint64_t));
    free(h);
    free(r);
    return rc;
}
