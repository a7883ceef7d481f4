/*
 * Helpers shared by the ATOMIC collective tests (ft_atomic.c,
 * ft_atomic_views.c, ft_atomic_inter.c): checks that count failures, MPI_T
 * counters, the allowed failing iterations, and the checks after a
 * recovery (every survivor saw the same first failing iteration; the
 * collectives on the rebuilt MPI_COMM_WORLD succeed everywhere).
 */
#ifndef FT_ATOMIC_COMMON_H
#define FT_ATOMIC_COMMON_H

#include <mpi.h>
#include <stdio.h>

extern int atomic_fails;
#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "ft_atomic: check failed: " __VA_ARGS__); \
            fprintf(stderr, "\n");                                    \
            atomic_fails++;                                           \
        }                                                             \
    } while (0)

/* MPI_Init, MPI_T, MPI_ERRORS_RETURN on MPI_COMM_WORLD; 1 for a
 * REBUILD replacement (MPI_INIT_RESTARTED_NODE). */
int atomic_init(int *argc, char ***argv, int *rank);
/* MPI_T and MPI_Finalize; prints "ft_atomic: rank R: ok" when every check
 * held. The process's exit status. */
int atomic_finish(int rank);

/* An MPI_T counter (started), and its value. */
MPI_T_pvar_handle atomic_counter(const char *name);
unsigned long long atomic_read(MPI_T_pvar_handle h);

/* Is iteration it in the comma-separated FT_EXPECT_FAIL (unset: any)? */
int atomic_allowed(int it);

/* Checks a failed ATOMIC call: MPI_ERR_OTHER, the n ints of buf still
 * `was`, an allowed iteration. */
void atomic_check_failure(int rank, int it, int rc, const int *buf, int n, int was);

/* The recovery (MANUAL: the recovering MPI_Comm_dup), then the checks:
 * every survivor's first failing iteration is fail_iter (replacements
 * pass -1), and Allreduce on MPI_COMM_WORLD succeeds on every live rank. */
void atomic_recover(void);
void atomic_after_recovery(int fail_iter);

#endif
