/*
 * cg_matrix.c - a distributed sparse matrix in CSR form: balanced blocks of
 * rows per rank, ghost columns (entries of other ranks' rows), the halo
 * exchange that fills them, and y = A x.
 *
 * Everything that the exchange needs from the communicator (who sends what
 * to whom) is in the plan, which cg_matrix_plan rebuilds after every
 * recovery; the rest is computed locally from the rows.
 */
#include "cg.h"

#include <stdlib.h>
#include <string.h>

#define CG_TAG_PLAN 7101
#define CG_TAG_HALO 7102

void cg_rows_of(int64_t n, int p, int r, int64_t *row0, int *nloc)
{
    int64_t base = n / p, extra = n % p;
    *nloc = (int)(base + (r < extra));
    *row0 = r * base + (r < extra ? r : extra);
}

int cg_owner_of(int64_t n, int p, int64_t g)
{
    int64_t base = n / p, extra = n % p, span = extra * (base + 1);
    if (g < span)
        return (int)(g / (base + 1));
    return (int)(extra + (g - span) / base);
}

int cg_matrix_poisson(cg_matrix_t *A, int n, int p, int r)
{
    memset(A, 0, sizeof(*A));
    A->n = (int64_t)n * n * n;
    cg_rows_of(A->n, p, r, &A->row0, &A->nloc);
    A->rowptr = malloc(sizeof(int64_t) * ((size_t)A->nloc + 1));
    A->gcol = malloc(sizeof(int64_t) * 7 * (size_t)A->nloc + 1);
    A->val = malloc(sizeof(double) * 7 * (size_t)A->nloc + 1);
    if (!A->rowptr || !A->gcol || !A->val)
        return -1;
    int64_t nn = (int64_t)n * n, k = 0;
    for (int i = 0; i < A->nloc; i++) {
        int64_t g = A->row0 + i;
        int64_t x = g % n, y = (g / n) % n, z = g / nn;
        A->rowptr[i] = k;
        /* ascending column order: z-1, y-1, x-1, self, x+1, y+1, z+1 */
        int64_t c[7];
        double v[7];
        int m = 0;
        if (z > 0) { c[m] = g - nn; v[m++] = -1.0; }
        if (y > 0) { c[m] = g - n; v[m++] = -1.0; }
        if (x > 0) { c[m] = g - 1; v[m++] = -1.0; }
        c[m] = g; v[m++] = 6.0;
        if (x < n - 1) { c[m] = g + 1; v[m++] = -1.0; }
        if (y < n - 1) { c[m] = g + n; v[m++] = -1.0; }
        if (z < n - 1) { c[m] = g + nn; v[m++] = -1.0; }
        for (int j = 0; j < m; j++) {
            A->gcol[k] = c[j];
            A->val[k++] = v[j];
        }
    }
    A->rowptr[A->nloc] = k;
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int ghost_index(const cg_matrix_t *A, int64_t g)
{
    int lo = 0, hi = A->nghost - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (A->ghost[mid] == g)
            return mid;
        if (A->ghost[mid] < g)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int cg_matrix_finish(cg_matrix_t *A, int p)
{
    int64_t nnz = A->rowptr[A->nloc], end = A->row0 + A->nloc;
    A->col = malloc(sizeof(int) * (size_t)nnz + 1);
    A->diag = calloc((size_t)A->nloc + 1, sizeof(double));
    A->ghost = malloc(sizeof(int64_t) * (size_t)nnz + 1);
    if (!A->col || !A->diag || !A->ghost)
        return -1;
    /* ghosts: the distinct columns outside my rows, ascending (so grouped by owner) */
    int64_t ng = 0;
    for (int64_t k = 0; k < nnz; k++)
        if (A->gcol[k] < A->row0 || A->gcol[k] >= end)
            A->ghost[ng++] = A->gcol[k];
    qsort(A->ghost, (size_t)ng, sizeof(int64_t), cmp_i64);
    int64_t u = 0;
    for (int64_t i = 0; i < ng; i++)
        if (u == 0 || A->ghost[u - 1] != A->ghost[i])
            A->ghost[u++] = A->ghost[i];
    A->nghost = (int)u;
    for (int i = 0; i < A->nloc; i++)
        for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) {
            int64_t g = A->gcol[k];
            if (g >= A->row0 && g < end) {
                A->col[k] = (int)(g - A->row0);
                if (g == A->row0 + i)
                    A->diag[i] += A->val[k];
            } else {
                A->col[k] = A->nloc + ghost_index(A, g);
            }
        }
    /* receive side of the plan: ghost ranges by owner */
    A->recv_peer = malloc(sizeof(int) * ((size_t)A->nghost + 1));
    A->recv_off = malloc(sizeof(int) * ((size_t)A->nghost + 2));
    if (!A->recv_peer || !A->recv_off)
        return -1;
    A->nrecv = 0;
    for (int i = 0; i < A->nghost; i++) {
        int o = cg_owner_of(A->n, p, A->ghost[i]);
        if (A->nrecv == 0 || A->recv_peer[A->nrecv - 1] != o) {
            A->recv_peer[A->nrecv] = o;
            A->recv_off[A->nrecv++] = i;
        }
    }
    A->recv_off[A->nrecv] = A->nghost;
    return 0;
}

static void plan_free_send(cg_matrix_t *A)
{
    free(A->send_peer);
    free(A->send_off);
    free(A->send_idx);
    free(A->send_buf);
    free(A->req);
    A->send_peer = A->send_off = A->send_idx = NULL;
    A->send_buf = NULL;
    A->req = NULL;
    A->nsend = 0;
}

/*
 * Every rank learns how many of its rows each other rank needs (allgather
 * of a row of counts per rank), then receives the lists of global indices.
 */
int cg_matrix_plan(cg_matrix_t *A, MPI_Comm comm)
{
    int p, me, rc;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
    plan_free_send(A);
    int *need = calloc((size_t)p, sizeof(int));
    int *all = malloc(sizeof(int) * (size_t)p * (size_t)p);
    if (!need || !all) {
        free(need);
        free(all);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < A->nrecv; i++)
        need[A->recv_peer[i]] = A->recv_off[i + 1] - A->recv_off[i];
    rc = MPI_Allgather(need, p, MPI_INT, all, p, MPI_INT, comm);
    if (rc != MPI_SUCCESS)
        goto out;
    int total = 0;
    A->send_peer = malloc(sizeof(int) * (size_t)p);
    A->send_off = malloc(sizeof(int) * ((size_t)p + 1));
    for (int q = 0; q < p; q++)
        total += all[(size_t)q * p + me];
    A->send_idx = malloc(sizeof(int) * (size_t)total + 1);
    A->send_buf = malloc(sizeof(double) * (size_t)total + 1);
    A->req = malloc(sizeof(MPI_Request) * ((size_t)A->nrecv + (size_t)p) + 1);
    int64_t *lists = malloc(sizeof(int64_t) * (size_t)total + 1);
    if (!A->send_peer || !A->send_off || !A->send_idx || !A->send_buf || !A->req || !lists) {
        free(lists);
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    int off = 0, nreq = 0;
    for (int q = 0; q < p; q++) {
        int cnt = all[(size_t)q * p + me];
        if (cnt == 0)
            continue;
        A->send_peer[A->nsend] = q;
        A->send_off[A->nsend++] = off;
        if (rc == MPI_SUCCESS)
            rc = MPI_Irecv(lists + off, cnt, MPI_INT64_T, q, CG_TAG_PLAN, comm, &A->req[nreq++]);
        off += cnt;
    }
    A->send_off[A->nsend] = off;
    for (int i = 0; i < A->nrecv && rc == MPI_SUCCESS; i++)
        rc = MPI_Isend(A->ghost + A->recv_off[i], A->recv_off[i + 1] - A->recv_off[i],
                       MPI_INT64_T, A->recv_peer[i], CG_TAG_PLAN, comm, &A->req[nreq++]);
    int wrc = MPI_Waitall(nreq, A->req, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = wrc;
    for (int i = 0; i < total && rc == MPI_SUCCESS; i++) {
        int64_t l = lists[i] - A->row0;
        if (l < 0 || l >= A->nloc)
            rc = MPI_ERR_OTHER; /* cannot happen: same distribution everywhere */
        A->send_idx[i] = (int)l;
    }
    free(lists);
out:
    free(need);
    free(all);
    return rc;
}

int cg_matrix_halo(cg_matrix_t *A, double *x, MPI_Comm comm)
{
    int nreq = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < A->nrecv && rc == MPI_SUCCESS; i++)
        rc = MPI_Irecv(x + A->nloc + A->recv_off[i], A->recv_off[i + 1] - A->recv_off[i],
                       MPI_DOUBLE, A->recv_peer[i], CG_TAG_HALO, comm, &A->req[nreq++]);
    for (int i = 0; i < A->nsend && rc == MPI_SUCCESS; i++) {
        double *buf = A->send_buf + A->send_off[i];
        for (int j = A->send_off[i]; j < A->send_off[i + 1]; j++)
            A->send_buf[j] = x[A->send_idx[j]];
        rc = MPI_Isend(buf, A->send_off[i + 1] - A->send_off[i], MPI_DOUBLE, A->send_peer[i],
                       CG_TAG_HALO, comm, &A->req[nreq++]);
    }
    int wrc = MPI_Waitall(nreq, A->req, MPI_STATUSES_IGNORE);
    return rc != MPI_SUCCESS ? rc : wrc;
}

void cg_matrix_spmv(const cg_matrix_t *A, const double *x, double *y)
{
    const int64_t *rp = A->rowptr;
    const int *col = A->col;
    const double *val = A->val;
    for (int i = 0; i < A->nloc; i++) {
        double s = 0.0;
        for (int64_t k = rp[i]; k < rp[i + 1]; k++)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}

void cg_matrix_free(cg_matrix_t *A)
{
    plan_free_send(A);
    free(A->rowptr);
    free(A->gcol);
    free(A->col);
    free(A->val);
    free(A->diag);
    free(A->ghost);
    free(A->recv_peer);
    free(A->recv_off);
    memset(A, 0, sizeof(*A));
}
