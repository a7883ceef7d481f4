/*
 * bug_userop_mt_lock: regression test (issue 11, defect 4).
 *
 * Under MPI_THREAD_MULTIPLE a user reduction operation used to run with the
 * library lock held (core/op.c op_apply), so an operation that calls MPI
 * deadlocked on that non-recursive lock. The standard lets a user function
 * call MPI (MPI_Type_size of the datatype it is given, for one). The user
 * op below calls MPI_Type_size, MPI_Comm_rank and a nested
 * MPI_Reduce_local, and is used by MPI_Reduce_local, MPI_Allreduce,
 * MPI_Reduce and MPI_Iallreduce, while a second thread keeps making MPI
 * calls of its own (so the lock really is contended while the op runs).
 *
 * Expected: prints "passed" and exits 0 within a second or two.
 * With the bug: hangs in the first call (run it under `mpirun --timeout`).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int op_calls;
static atomic_int stop;
static int errors;

/* A sum that asks MPI about its arguments, and sums through MPI itself. */
static void mpi_calling_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int size = 0, rank = -1;
    if (MPI_Type_size(*dt, &size) != MPI_SUCCESS || size != (int)sizeof(int))
        errors++;
    if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || rank < 0)
        errors++;
    /* Nested reduction with a predefined op. */
    if (MPI_Reduce_local(in, inout, *len, *dt, MPI_SUM) != MPI_SUCCESS)
        errors++;
    atomic_fetch_add(&op_calls, 1);
}

/* The other thread: MPI calls of its own while the reductions run. */
static void *chatter(void *arg)
{
    MPI_Comm c = *(MPI_Comm *)arg;
    int rank, flag;
    while (!atomic_load(&stop)) {
        MPI_Comm_rank(c, &rank);
        MPI_Iprobe(MPI_ANY_SOURCE, 99, c, &flag, MPI_STATUS_IGNORE);
    }
    return NULL;
}

static void check(const char *what, const int *v, int n, int expect)
{
    for (int i = 0; i < n; i++)
        if (v[i] != expect) {
            printf("bug_userop_mt_lock: %s: [%d] = %d, expected %d\n", what, i, v[i], expect);
            errors++;
            return;
        }
}

int main(int argc, char **argv)
{
    enum { N = 64 };
    int provided, rank, size;
    int in[N], out[N];
    MPI_Op op;
    MPI_Comm side;
    pthread_t th;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("bug_userop_mt_lock: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &side);
    MPI_Op_create(mpi_calling_sum, 1, &op);
    if (pthread_create(&th, NULL, chatter, &side) != 0) {
        printf("bug_userop_mt_lock: pthread_create failed\n");
        return 1;
    }

    for (int i = 0; i < N; i++)
        in[i] = 1, out[i] = 2;
    MPI_Reduce_local(in, out, N, MPI_INT, op);
    check("Reduce_local", out, N, 3);

    for (int i = 0; i < N; i++)
        in[i] = rank + 1;
    MPI_Allreduce(in, out, N, MPI_INT, op, MPI_COMM_WORLD);
    check("Allreduce", out, N, size * (size + 1) / 2);

    for (int i = 0; i < N; i++)
        out[i] = -1;
    MPI_Reduce(in, out, N, MPI_INT, op, 0, MPI_COMM_WORLD);
    if (rank == 0)
        check("Reduce", out, N, size * (size + 1) / 2);

    MPI_Request r;
    for (int i = 0; i < N; i++)
        out[i] = -1;
    MPI_Iallreduce(in, out, N, MPI_INT, op, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    check("Iallreduce", out, N, size * (size + 1) / 2);

    atomic_store(&stop, 1);
    pthread_join(th, NULL);
    MPI_Op_free(&op);
    MPI_Comm_free(&side);
    if (atomic_load(&op_calls) < 1) {
        printf("bug_userop_mt_lock: the user op was never called\n");
        errors++;
    }
    int all = 0;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    if (all != 0) {
        printf("bug_userop_mt_lock: %d error(s)\n", all);
        return 1;
    }
    if (rank == 0)
        printf("bug_userop_mt_lock: passed\n");
    return 0;
}
