/*
 * heat_ft.c - the solver of heat.c, unchanged, under the iterative skeleton.
 *
 * The solver swaps its arrays every sweep and has its own restart-file
 * routines (heat_write_restart/heat_read_restart take a PATH). Instead of
 * registering its arrays, this adapter hands those routines to the skeleton
 * as save/load callbacks: the path given to them is a memory file (memfd),
 * so "writing the restart file" fills memory, and the skeleton encodes
 * those bytes onto the checksum ranks. Nothing touches a disk.
 *
 *   ftmpirun --comm-mode=rebuild -np 5 heat_ft [--n 128] [--tol 1e-4]
 *            [--max-iter N] [--ckpt-interval 50] [--encoding xor|rs] [--checksums 1]
 *   prints: heat_ft: iterations N sum S (hex) recoveries R
 */
#include "ft_iterative.h"
#include "heat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct heat_app {
    int n;
    double tol, delta, sum;
    heat_t *h;
    int fd;           /* the memory file the solver's restart routines write */
    char path[64];
} heat_app_t;

static int app_setup(void *arg, ftiter_t *sk, MPI_Comm data)
{
    heat_app_t *a = arg;
    a->h = heat_create(data, a->n, a->n);
    a->fd = memfd_create("heat-restart", 0);
    if (!a->h || a->fd < 0)
        return FTITER_ERR_APP;
    snprintf(a->path, sizeof a->path, "/proc/self/fd/%d", a->fd);
    /* the restart file's size does not depend on the values: measure it */
    if (heat_write_restart(a->h, a->path) != 0)
        return FTITER_ERR_APP;
    off_t size = lseek(a->fd, 0, SEEK_END);
    return ftiter_register_serial(sk, (size_t)size + 4096) == FTITER_SUCCESS ? MPI_SUCCESS
                                                                              : FTITER_ERR_APP;
}

static int app_init(void *arg, MPI_Comm data)
{
    heat_app_t *a = arg;
    heat_init(a->h);
    a->delta = 1.0;
    return MPI_SUCCESS;
}

static int app_iterate(void *arg, MPI_Comm data, int64_t iter)
{
    heat_app_t *a = arg;
    return heat_step(a->h, &a->delta);
}

static int app_converged(void *arg, MPI_Comm data, int64_t iter, int *done)
{
    heat_app_t *a = arg;
    *done = a->delta < a->tol; /* delta is global (the solver's allreduce) */
    return MPI_SUCCESS;
}

/* the solver keeps its communicator in its struct: give it the new one */
static int app_comm_rebuilt(void *arg, MPI_Comm data)
{
    heat_app_t *a = arg;
    a->h->comm = data;
    return MPI_SUCCESS;
}

static int app_finish(void *arg, MPI_Comm data, int64_t iter, int converged)
{
    heat_app_t *a = arg;
    return heat_sum(a->h, &a->sum);
}

/* the solver's own checkpoint routine, writing into memory */
static int app_save(void *arg, void *buf, size_t cap, size_t *len)
{
    heat_app_t *a = arg;
    if (ftruncate(a->fd, 0) != 0 || heat_write_restart(a->h, a->path) != 0)
        return FTITER_ERR_APP;
    ssize_t n = pread(a->fd, buf, cap, 0);
    if (n < 0 || lseek(a->fd, 0, SEEK_END) > (off_t)cap)
        return FTITER_ERR_APP;
    *len = (size_t)n;
    return MPI_SUCCESS;
}

/* ... and its own restart routine, reading from memory */
static int app_load(void *arg, const void *buf, size_t len)
{
    heat_app_t *a = arg;
    if (ftruncate(a->fd, 0) != 0 || pwrite(a->fd, buf, len, 0) != (ssize_t)len)
        return FTITER_ERR_APP;
    return heat_read_restart(a->h, a->path) == 0 ? MPI_SUCCESS : FTITER_ERR_APP;
}

int main(int argc, char **argv)
{
    heat_app_t a = {.n = 128, .tol = 1e-4, .fd = -1};
    ftiter_params_t par = {.ckpt_interval = 50, .max_iter = 100000,
                           .ckpt = {DCKPT_CODE_XOR, 1, 0, 0}};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n"))
            a.n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--tol"))
            a.tol = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-iter"))
            par.max_iter = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--ckpt-interval"))
            par.ckpt_interval = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--encoding"))
            par.ckpt.code = !strcmp(argv[i + 1], "rs") ? DCKPT_CODE_RS : DCKPT_CODE_XOR;
        else if (!strcmp(argv[i], "--checksums"))
            par.ckpt.m = atoi(argv[i + 1]);
    }
    int init_rc = MPI_Init(&argc, &argv);
    ftiter_ops_t ops = {.setup = app_setup, .init = app_init, .iterate = app_iterate,
                        .converged = app_converged, .comm_rebuilt = app_comm_rebuilt,
                        .finish = app_finish, .save = app_save, .load = app_load};
    ftiter_t *sk;
    int rc = ftiter_create(&par, &ops, &a, init_rc, &sk);
    if (rc == FTITER_SUCCESS)
        rc = ftiter_run(sk);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rc != FTITER_SUCCESS) {
        fprintf(stderr, "heat_ft: rank %d: %s\n", rank, ftiter_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    const ftiter_stats_t *st = ftiter_stats(sk);
    if (rank == 0)
        printf("heat_ft: iterations %lld sum %.17g (%a) recoveries %d\n",
               (long long)st->iterations, a.sum, a.sum, st->nrecoveries);
    ftiter_free(&sk);
    heat_destroy(a.h);
    if (a.fd >= 0)
        close(a.fd);
    MPI_Finalize();
    return 0;
}
