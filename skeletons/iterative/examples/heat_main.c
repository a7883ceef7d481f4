/*
 * heat_main.c - the solver's original program: checkpoints to files every
 * --ckpt-every sweeps and restarts from them with --restart (after a crash,
 * the whole job is started again by hand). Kept to show that heat_ft.c uses
 * the very same solver code.
 *
 *   mpirun -np 4 heat_plain [--n 128] [--tol 1e-4] [--max-iter 100000]
 *                           [--ckpt-every 100] [--dir /tmp] [--restart]
 */
#include "heat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int n = 128, every = 100, restart = 0;
    long max_iter = 100000;
    double tol = 1e-4;
    const char *dir = "/tmp";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tol") && i + 1 < argc)
            tol = atof(argv[++i]);
        else if (!strcmp(argv[i], "--max-iter") && i + 1 < argc)
            max_iter = atol(argv[++i]);
        else if (!strcmp(argv[i], "--ckpt-every") && i + 1 < argc)
            every = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--restart"))
            restart = 1;
    }
    MPI_Init(&argc, &argv);
    heat_t *h = heat_create(MPI_COMM_WORLD, n, n);
    char path[4096];
    snprintf(path, sizeof path, "%s/heat.%d.ckpt", dir, h->rank);
    heat_init(h);
    if (restart && heat_read_restart(h, path) != 0) {
        fprintf(stderr, "heat: cannot read %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double delta = 1.0, sum;
    while (h->iter < max_iter) {
        if (every > 0 && h->iter % every == 0)
            heat_write_restart(h, path);
        if (heat_step(h, &delta) != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 2);
        if (delta < tol)
            break;
    }
    heat_sum(h, &sum);
    if (h->rank == 0)
        printf("heat: iterations %ld sum %.17g (%a)\n", h->iter, sum, sum);
    heat_destroy(h);
    MPI_Finalize();
    return 0;
}
