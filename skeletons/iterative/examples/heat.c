/*
 * heat.c - the "existing" solver of heat.h. Nothing in it knows about
 * failures, checksums or the skeleton.
 */
#include "heat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U(h, a, i, j) ((a)[(size_t)(i) * (size_t)((h)->nx + 2) + (size_t)(j)])

heat_t *heat_create(MPI_Comm comm, int nx, int ny)
{
    heat_t *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    h->comm = comm;
    MPI_Comm_rank(comm, &h->rank);
    MPI_Comm_size(comm, &h->size);
    h->nx = nx;
    h->ny = ny;
    int base = ny / h->size, extra = ny % h->size;
    h->nrows = base + (h->rank < extra);
    h->row0 = h->rank * base + (h->rank < extra ? h->rank : extra);
    size_t n = (size_t)(h->nrows + 2) * (size_t)(nx + 2);
    h->u = calloc(n, sizeof(double));
    h->unew = calloc(n, sizeof(double));
    if (!h->u || !h->unew) {
        heat_destroy(h);
        return NULL;
    }
    return h;
}

void heat_destroy(heat_t *h)
{
    if (!h)
        return;
    free(h->u);
    free(h->unew);
    free(h);
}

/* boundary: 1 on the top edge of the grid, 0 elsewhere; interior 0 */
void heat_init(heat_t *h)
{
    size_t n = (size_t)(h->nrows + 2) * (size_t)(h->nx + 2);
    memset(h->u, 0, n * sizeof(double));
    if (h->rank == 0)
        for (int j = 0; j < h->nx + 2; j++)
            U(h, h->u, 0, j) = 1.0;
    memcpy(h->unew, h->u, n * sizeof(double));
    h->iter = 0;
}

static int heat_halo(heat_t *h)
{
    int up = h->rank > 0 ? h->rank - 1 : MPI_PROC_NULL;
    int down = h->rank < h->size - 1 ? h->rank + 1 : MPI_PROC_NULL;
    int w = h->nx + 2, rc;
    rc = MPI_Sendrecv(&U(h, h->u, 1, 0), w, MPI_DOUBLE, up, 1, &U(h, h->u, h->nrows + 1, 0), w,
                      MPI_DOUBLE, down, 1, h->comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;
    return MPI_Sendrecv(&U(h, h->u, h->nrows, 0), w, MPI_DOUBLE, down, 2, &U(h, h->u, 0, 0), w,
                        MPI_DOUBLE, up, 2, h->comm, MPI_STATUS_IGNORE);
}

int heat_step(heat_t *h, double *delta)
{
    int rc = heat_halo(h);
    if (rc != MPI_SUCCESS)
        return rc;
    double d = 0.0;
    for (int i = 1; i <= h->nrows; i++)
        for (int j = 1; j <= h->nx; j++) {
            double v = 0.25 * (U(h, h->u, i - 1, j) + U(h, h->u, i + 1, j) +
                               U(h, h->u, i, j - 1) + U(h, h->u, i, j + 1));
            d = fmax(d, fabs(v - U(h, h->u, i, j)));
            U(h, h->unew, i, j) = v;
        }
    double *t = h->u;
    h->u = h->unew;
    h->unew = t;
    h->iter++;
    return MPI_Allreduce(&d, delta, 1, MPI_DOUBLE, MPI_MAX, h->comm);
}

/* Format: "HEAT1" nx ny row0 nrows iter, then the rows with their halos. */
int heat_write_restart(const heat_t *h, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    long hdr[5] = {h->nx, h->ny, h->row0, h->nrows, h->iter};
    size_t n = (size_t)(h->nrows + 2) * (size_t)(h->nx + 2);
    int ok = fwrite("HEAT1", 1, 5, f) == 5 && fwrite(hdr, sizeof(long), 5, f) == 5 &&
             fwrite(h->u, sizeof(double), n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int heat_read_restart(heat_t *h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char magic[5];
    long hdr[5];
    size_t n = (size_t)(h->nrows + 2) * (size_t)(h->nx + 2);
    int ok = fread(magic, 1, 5, f) == 5 && memcmp(magic, "HEAT1", 5) == 0 &&
             fread(hdr, sizeof(long), 5, f) == 5 && hdr[0] == h->nx && hdr[1] == h->ny &&
             hdr[2] == h->row0 && hdr[3] == h->nrows && fread(h->u, sizeof(double), n, f) == n;
    fclose(f);
    if (!ok)
        return -1;
    h->iter = hdr[4];
    memcpy(h->unew, h->u, n * sizeof(double));
    return 0;
}

int heat_sum(const heat_t *h, double *sum)
{
    double s = 0.0;
    for (int i = 1; i <= h->nrows; i++)
        for (int j = 1; j <= h->nx; j++)
            s += U(h, h->u, i, j);
    return MPI_Allreduce(&s, sum, 1, MPI_DOUBLE, MPI_SUM, h->comm);
}
