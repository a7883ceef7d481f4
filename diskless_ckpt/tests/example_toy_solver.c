/*
 * example_toy_solver.c - the example of docs/diskless_ckpt.md: a toy
 * iterative solver that registers two arrays, checkpoints every 10
 * iterations with the iteration number as metadata, loses a rank, restores
 * and finishes with exactly the result of a failure-free run.
 *
 *   mpirun -n 6 example_toy_solver [--fail RANK] [--code rs|xor] [--m M]
 *
 * On a failure-free MPI the failure is simulated: at iteration 37 rank RANK
 * wipes its arrays and everyone calls dckpt_restore naming it. Built against
 * FT-MPI (MPI_INIT_RESTARTED_NODE defined) and run with
 * --comm-mode=rebuild, a real failure (e.g. ftmpirun --kill) takes the
 * FT-MPI path: survivors see MPI_ERR_OTHER, recover with MPI_Comm_dup and
 * call dckpt_restore; the replacement's MPI_Init returns
 * MPI_INIT_RESTARTED_NODE and it calls dckpt_create, registers, and calls
 * dckpt_restore.
 */
#include "diskless_ckpt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 60
#define EVERY 10
#define FAIL_AT 37

typedef struct solver {
    dckpt_ctx_t *ctx;
    MPI_Comm data; /* data ranks only */
    int drank, dsize;
    size_t n; /* local length: differs per rank */
    double *x, *y;
} solver_t;

static void die(const char *what, int rc)
{
    fprintf(stderr, "%s: %s\n", what, dckpt_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void solver_setup(solver_t *s, const dckpt_params_t *par)
{
    int rc = dckpt_create(MPI_COMM_WORLD, par, &s->ctx);
    if (rc != DCKPT_SUCCESS)
        die("dckpt_create", rc);
    s->data = dckpt_data_comm(s->ctx);
    if (dckpt_is_checksum_rank(s->ctx))
        return; /* checksum ranks only serve checkpoints */
    MPI_Comm_rank(s->data, &s->drank);
    MPI_Comm_size(s->data, &s->dsize);
    s->n = 1000 + 10 * (size_t)s->drank;
    s->x = calloc(s->n, sizeof(double));
    s->y = calloc(s->n, sizeof(double));
    dckpt_register(s->ctx, s->x, s->n * sizeof(double));
    dckpt_register(s->ctx, s->y, s->n * sizeof(double));
}

static void solver_init(solver_t *s)
{
    for (size_t i = 0; i < s->n; i++) {
        s->x[i] = (double)((s->drank * 7919 + (int)i) % 101) / 100.0;
        s->y[i] = 0.0;
    }
}

/* one step: x averages with its ring neighbours' boundary values, y accumulates x */
static int solver_step(solver_t *s)
{
    double left, right;
    int l = (s->drank + s->dsize - 1) % s->dsize, r = (s->drank + 1) % s->dsize;
    int rc = MPI_Sendrecv(&s->x[s->n - 1], 1, MPI_DOUBLE, r, 0, &left, 1, MPI_DOUBLE, l, 0,
                          s->data, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_Sendrecv(&s->x[0], 1, MPI_DOUBLE, l, 1, &right, 1, MPI_DOUBLE, r, 1, s->data,
                          MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;
    double prev = left;
    for (size_t i = 0; i < s->n; i++) {
        double next = i + 1 < s->n ? s->x[i + 1] : right;
        double xi = 0.5 * s->x[i] + 0.25 * (prev + next);
        prev = s->x[i];
        s->x[i] = xi;
        s->y[i] += xi;
    }
    return MPI_SUCCESS;
}

/* roll back; returns the iteration to resume from */
static int solver_restore(solver_t *s, int nfailed, const int *failed)
{
    dckpt_restore_info_t info;
    int rc = dckpt_restore(s->ctx, MPI_COMM_WORLD, nfailed, failed, &info);
    if (rc != DCKPT_SUCCESS)
        die("dckpt_restore", rc);
    s->data = dckpt_data_comm(s->ctx); /* a new communicator after every restore */
    int iter;
    memcpy(&iter, info.meta, sizeof(iter));
    return iter;
}

static double solver_run(solver_t *s, int fail_rank, int start)
{
    int rank, fail_done = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int iter = start;
    while (iter < ITERS) {
        if (iter % EVERY == 0) {
            int rc = dckpt_checkpoint(s->ctx, &iter, sizeof(iter), NULL);
            if (rc != DCKPT_SUCCESS)
                die("dckpt_checkpoint", rc);
        }
        if (iter == FAIL_AT && fail_rank >= 0 && !fail_done) {
            /* simulated failure: the rank's state is gone */
            fail_done = 1;
            if (rank == fail_rank && !dckpt_is_checksum_rank(s->ctx)) {
                memset(s->x, 0, s->n * sizeof(double));
                memset(s->y, 0, s->n * sizeof(double));
            }
            iter = solver_restore(s, 1, &fail_rank);
            if (rank == 0)
                printf("rank %d lost at iteration %d; resumed from iteration %d\n", fail_rank,
                       FAIL_AT, iter);
            continue;
        }
        if (!dckpt_is_checksum_rank(s->ctx)) {
            int rc = solver_step(s);
#ifdef MPI_INIT_RESTARTED_NODE
            if (rc == MPI_ERR_OTHER) { /* FT-MPI: a process failed */
                MPI_Comm tmp = FT_MPI_CHECK_RECOVER;
                MPI_Comm_dup(MPI_COMM_WORLD, &tmp); /* recovery (REBUILD) */
                MPI_Comm_free(&tmp);
                iter = solver_restore(s, 0, NULL);
                continue;
            }
#endif
            if (rc != MPI_SUCCESS)
                die("MPI", DCKPT_ERR_MPI);
        }
#ifdef MPI_INIT_RESTARTED_NODE
        /* checksum ranks do not compute; on FT-MPI they learn of a failure here
           and join the recovery like everyone else */
        if (MPI_Barrier(MPI_COMM_WORLD) == MPI_ERR_OTHER) {
            MPI_Comm tmp = FT_MPI_CHECK_RECOVER;
            MPI_Comm_dup(MPI_COMM_WORLD, &tmp);
            MPI_Comm_free(&tmp);
            iter = solver_restore(s, 0, NULL);
            continue;
        }
#endif
        iter++;
    }
    double local = 0, global = 0;
    for (size_t i = 0; !dckpt_is_checksum_rank(s->ctx) && i < s->n; i++)
        local += s->x[i] + 1e-3 * s->y[i] * (double)(i % 7);
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

int main(int argc, char **argv)
{
    int fail_rank = -1, rank;
    dckpt_params_t par = {DCKPT_CODE_RS, 2, 0, 0};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--fail"))
            fail_rank = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--code"))
            par.code = !strcmp(argv[i + 1], "xor") ? DCKPT_CODE_XOR : DCKPT_CODE_RS;
        else if (!strcmp(argv[i], "--m"))
            par.m = atoi(argv[i + 1]);
    }
    int rc = MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    solver_t s;
    memset(&s, 0, sizeof(s));

#ifdef MPI_INIT_RESTARTED_NODE
    if (rc == MPI_INIT_RESTARTED_NODE) { /* FT-MPI: I replace a failed process */
        solver_setup(&s, &par);
        int iter = solver_restore(&s, 0, NULL);
        double r = solver_run(&s, -1, iter);
        (void)r;
        dckpt_free(&s.ctx);
        MPI_Finalize();
        return 0;
    }
#endif
    (void)rc;

    /* reference: a failure-free run */
    solver_setup(&s, &par);
    solver_init(&s);
    double ref = solver_run(&s, -1, 0);
    /* the same with a failure */
    if (!dckpt_is_checksum_rank(s.ctx))
        solver_init(&s);
    double got = fail_rank >= 0 ? solver_run(&s, fail_rank, 0) : ref;
    if (rank == 0)
        printf("failure-free %.15g, with failure %.15g: %s\n", ref, got,
               ref == got ? "identical" : "DIFFERENT");
    dckpt_free(&s.ctx);
    free(s.x);
    free(s.y);
    MPI_Finalize();
    return ref == got ? 0 : 1;
}
