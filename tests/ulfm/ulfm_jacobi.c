/*
 * A 1-D Jacobi solver that survives process failures the ULFM way:
 * revoke, shrink, roll back to the last checkpoint, redistribute, go on.
 *
 * Every CK iterations the vector is gathered on every rank (the in-memory
 * checkpoint); MPIX_Comm_agree on "my gather succeeded" commits it
 * uniformly, so every survivor rolls back to the same iteration. The
 * victims (world ranks in ULFM_VICTIMS) kill themselves with SIGKILL at
 * iterations 50, 170, ... The result of each rank's block is compared,
 * exactly, with a serial computation.
 */
#include "ulfm_test.h"

#define N 240
#define ITERS 300
#define CK 20

static double ck[N + 2]; /* committed checkpoint: the whole vector */
static int ck_it;

static void serial(double *u)
{
    double t[N + 2];
    memset(u, 0, (N + 2) * sizeof(double));
    u[0] = 1.0;
    for (int it = 0; it < ITERS; it++) {
        memcpy(t, u, sizeof t);
        for (int i = 1; i <= N; i++)
            u[i] = 0.5 * (t[i - 1] + t[i + 1]);
    }
}

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    int victims[8], nv = 0;
    const char *v = getenv("ULFM_VICTIMS");
    for (const char *p = v; p && *p && nv < 8;) {
        victims[nv++] = atoi(p);
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    memset(ck, 0, sizeof ck);
    ck[0] = 1.0;
    ck_it = 0;
    int recoveries = 0;
restart:;
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int lo = N * r / p + 1, hi = N * (r + 1) / p; /* my points lo..hi */
    int n = hi - lo + 1;
    double *u = malloc((size_t)(n + 2) * sizeof(double)), *t = malloc((size_t)(n + 2) * sizeof(double));
    memcpy(u, ck + lo - 1, (size_t)(n + 2) * sizeof(double));
    int *counts = malloc((size_t)p * sizeof(int)), *displs = malloc((size_t)p * sizeof(int));
    for (int k = 0; k < p; k++) {
        displs[k] = N * k / p + 1;
        counts[k] = N * (k + 1) / p - N * k / p;
    }
    int it = ck_it, rc = MPI_SUCCESS;
    while (it < ITERS) {
        for (int k = 0; k < nv; k++)
            if (victims[k] == u_rank && it == 50 + 120 * k)
                u_die();
        int left = r > 0 ? r - 1 : MPI_PROC_NULL, right = r < p - 1 ? r + 1 : MPI_PROC_NULL;
        rc = MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 1, &u[n + 1], 1, MPI_DOUBLE, right, 1, comm,
                          MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 2, &u[0], 1, MPI_DOUBLE, left, 2, comm,
                              MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            break;
        memcpy(t, u, (size_t)(n + 2) * sizeof(double));
        for (int i = 1; i <= n; i++)
            u[i] = 0.5 * (t[i - 1] + t[i + 1]);
        it++;
        if (it % CK == 0 || it == ITERS) {
            static double g[N + 2];
            g[0] = 1.0;
            g[N + 1] = 0.0;
            rc = MPI_Allgatherv(&u[1], n, MPI_DOUBLE, g, counts, displs, MPI_DOUBLE, comm);
            int ok = rc == MPI_SUCCESS;
            rc = MPIX_Comm_agree(comm, &ok);
            if (rc != MPI_SUCCESS || !ok) {
                rc = rc != MPI_SUCCESS ? rc : MPIX_ERR_PROC_FAILED;
                break;
            }
            memcpy(ck, g, sizeof ck); /* committed everywhere alike */
            ck_it = it;
        }
    }
    free(u);
    free(t);
    free(counts);
    free(displs);
    if (rc != MPI_SUCCESS) {
        u_revoke_shrink(&comm, rc);
        recoveries++;
        goto restart;
    }
    double ref[N + 2];
    serial(ref);
    for (int i = 1; i <= N; i++)
        CHECK(ck[i] == ref[i], "point %d: %.17g, serial %.17g", i, ck[i], ref[i]);
    MPI_Comm_size(comm, &p);
    CHECK(p == u_size - nv, "%d ranks at the end, want %d", p, u_size - nv);
    CHECK(recoveries >= (nv > 0), "%d recoveries", recoveries);
    MPI_Comm_free(&comm);
    return u_finish();
}
