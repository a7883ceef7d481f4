/*
 * heat.h - an "existing" parallel solver, written without any fault
 * tolerance in mind: Jacobi relaxation of the 2-D Laplace equation on an
 * nx x ny grid (fixed boundary values), rows distributed in blocks over a
 * communicator. It has its own checkpoint/restart routines that write and
 * read a file, like most long-running codes.
 *
 * heat_ft.c runs it, unchanged, under the iterative skeleton with in-memory
 * checkpoints (docs/skeleton.md, "Wrapping an existing solver").
 */
#ifndef HEAT_H
#define HEAT_H

#include <mpi.h>

typedef struct heat {
    MPI_Comm comm;
    int rank, size;
    int nx, ny;        /* global grid (interior points) */
    int row0, nrows;   /* my rows of the grid */
    long iter;         /* sweeps done */
    double *u, *unew;  /* (nrows + 2) x (nx + 2), with halo rows and boundary columns */
} heat_t;

heat_t *heat_create(MPI_Comm comm, int nx, int ny);
void heat_destroy(heat_t *h);
void heat_init(heat_t *h);
/* One sweep; *delta = the largest change over the grid. MPI error code. */
int heat_step(heat_t *h, double *delta);
/* Restart files: write/read this rank's part (rank-specific file name). 0 or -1. */
int heat_write_restart(const heat_t *h, const char *path);
int heat_read_restart(heat_t *h, const char *path);
/* Sum of u over the whole grid (for comparing runs). MPI error code. */
int heat_sum(const heat_t *h, double *sum);

#endif
