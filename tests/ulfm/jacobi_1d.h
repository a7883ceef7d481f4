/*
 * The 1-D Jacobi solver of the ULFM tests (ulfm_jacobi.c: revoke-shrink-
 * continue; ../dynamic/dyn_respawn.c: respawn to the original size): N
 * points, ITERS sweeps, an in-memory checkpoint of the whole vector every
 * CK sweeps, committed only when MPIX_Comm_agree says every rank has it.
 * The victims and the recovery are the programs' own.
 */
#ifndef FTMPI_TESTS_JACOBI_1D_H
#define FTMPI_TESTS_JACOBI_1D_H

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

/* The sweeps from the checkpoint on comm, until ITERS (MPI_SUCCESS) or an
 * error (returned). die(it) is called before each sweep: the victims'
 * hook. */
static int jacobi_run(MPI_Comm comm, void (*die)(int it, int rank))
{
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
        die(it, r);
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
    return rc;
}

/* ULFM_VICTIMS="a,b,...": the victims, in order, into v[0..7]. */
static int jacobi_victims(int *v)
{
    int nv = 0;
    const char *s = getenv("ULFM_VICTIMS");
    for (const char *p = s; p && *p && nv < 8;) {
        v[nv++] = atoi(p);
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    return nv;
}

/* The committed result against the serial computation, exactly. */
static void jacobi_check(void)
{
    double ref[N + 2];
    serial(ref);
    for (int i = 1; i <= N; i++)
        CHECK(ck[i] == ref[i], "point %d: %.17g, serial %.17g", i, ck[i], ref[i]);
}

#endif
