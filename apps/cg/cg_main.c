/*
 * cg_main.c - the CG demo: a Jacobi-preconditioned conjugate-gradient solve
 * that survives killed ranks (ftmpirun --comm-mode=rebuild), with in-memory
 * checkpoints every --ckpt-interval iterations. See docs/cg.md.
 *
 *   ftmpirun --comm-mode=rebuild -np 8 --kill-at iter=40@2 cg --n 64 \
 *            --encoding rs --checksums 2 --ckpt-interval 20
 *
 * Exit statuses: the CG_EXIT_ codes of cg.h. Every rank ends with the same
 * one for bad options (2) and bad input (5), every computing rank for a
 * breakdown (6).
 */
#include "cg.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    cg_opts_t o;
    /* every process parses the same arguments (a replacement too): no
       communication before the skeleton starts */
    int prc = cg_opts_parse(argc, argv, &o, 0);
    int init_rc = MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (prc != 0) {
        if (rank == 0)
            cg_opts_parse(argc, argv, &o, 1); /* print the message once */
        MPI_Finalize();
        return prc > 0 ? CG_EXIT_OK : CG_EXIT_USAGE;
    }
    dckpt_params_t dp = {o.code, o.m, o.k, o.chunk};
    int ngroups, ndata;
    if (dckpt_plan(size, &dp, &ngroups, &ndata) != DCKPT_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "cg: %d ranks cannot hold %s checkpoints with %d checksum rank(s) "
                            "per group (need at least m + 1 ranks; rs: at most 256 per group)\n",
                    size, o.code == DCKPT_CODE_XOR ? "xor" : "rs", o.m);
        MPI_Finalize();
        return CG_EXIT_USAGE;
    }
    /* A fresh start checks the input on rank 0 and broadcasts the verdict.
       A replacement (MPI_INIT_RESTARTED_NODE) skips it: the input was
       checked at the start, and its first MPI calls must pair with the
       survivors' recovery (ft_iterative.h, "RULES FOR THE PROGRAM"). */
    int fresh = 1;
#ifdef MPI_INIT_RESTARTED_NODE
    fresh = init_rc != MPI_INIT_RESTARTED_NODE;
#endif
    if (fresh && cg_input_verdict(&o, rank, size) != 0) {
        MPI_Finalize();
        return CG_EXIT_INPUT;
    }

    cg_app_t app;
    memset(&app, 0, sizeof(app));
    app.o = &o;
    ftiter_params_t par = {.ckpt_interval = o.ckpt_interval, .max_iter = o.max_iter,
                           .ckpt = dp, .verbose = o.verbose};
    ftiter_t *sk = NULL;
    int rc = ftiter_create(&par, &cg_ops, &app, init_rc, &sk);
    if (rc == FTITER_SUCCESS)
        rc = ftiter_run(sk);
    if (rc != FTITER_SUCCESS)
        return app_ftiter_fail("cg", rank, rc, app.err);
    if (rank == 0)
        cg_report(stdout, &o, &app, sk, size);
    /* world rank 0 (always a data rank) says whether the solve converged;
       a breakdown is known on every computing rank (allreduced scalars) */
    int status = CG_EXIT_OK;
    if (rank == 0 && app.breakdown) {
        fprintf(stderr,
                "cg: the solve broke down at iteration %lld: %s is not finite (NaN or Inf); "
                "the matrix is not symmetric positive definite or its values overflow\n",
                (long long)app.breakdown_iter, app.breakdown_what);
        fflush(stderr);
    }
    if (app.breakdown)
        status = CG_EXIT_BREAKDOWN;
    else if (rank == 0 && !ftiter_stats(sk)->converged)
        status = CG_EXIT_NOT_CONVERGED;
    ftiter_free(&sk);
    cg_matrix_free(&app.A);
    free(app.b);
    free(app.dinv);
    free(app.x);
    free(app.r);
    free(app.p);
    free(app.q);
    free(app.z);
    MPI_Finalize();
    return status;
}
