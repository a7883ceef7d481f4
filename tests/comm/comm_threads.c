/*
 * comm_threads: communicator creation from several threads at once
 * (MPI_THREAD_MULTIPLE). Each of NT threads owns a duplicate of
 * MPI_COMM_WORLD and creates and frees communicators from it in a loop,
 * concurrently with the others; threads of different processes reach
 * their loops in different orders. Context agreements that overlap on a
 * process must still give every live communicator its own pair (checked
 * by traffic on them) and must not deadlock.
 */
#include "mpitest.h"

#include <pthread.h>

#define NT 3
#define ITERS 150

static MPI_Comm base[NT];

static void *worker(void *arg)
{
    int k = (int)(intptr_t)arg;
    for (int i = 0; i < ITERS; i++) {
        MPI_Comm d, s;
        T_MPI(MPI_Comm_dup(base[k], &d));
        T_MPI(MPI_Comm_split(d, t_rank % 2, -t_rank, &s));
        /* traffic on both: the sums tell whether messages stayed apart */
        int v = k * 1000 + i, sum = -1;
        T_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, d));
        T_CHECK(sum == v * t_size, "thread %d iter %d: sum %d", k, i, sum);
        int n;
        MPI_Comm_size(s, &n);
        T_MPI(MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, s));
        T_CHECK(sum == v * n, "thread %d iter %d: split sum %d", k, i, sum);
        if (i % 10 == 0) {
            MPI_Comm x;
            MPI_Request r;
            T_MPI(MPI_Comm_idup(s, &x, &r));
            T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
            T_MPI(MPI_Barrier(x));
            MPI_Comm_free(&x);
        }
        MPI_Comm_free(&s);
        MPI_Comm_free(&d);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    t_set_name(argv[0]);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (t_rank == 0)
            printf("%s: MPI_THREAD_MULTIPLE not provided: skipped\n", t_name);
        MPI_Finalize();
        return 0;
    }
    for (int k = 0; k < NT; k++)
        MPI_Comm_dup(MPI_COMM_WORLD, &base[k]);
    pthread_t th[NT];
    /* start the threads in a different order on each process */
    for (int j = 0; j < NT; j++) {
        int k = (j + t_rank) % NT;
        pthread_create(&th[k], NULL, worker, (void *)(intptr_t)k);
    }
    for (int k = 0; k < NT; k++)
        pthread_join(th[k], NULL);
    for (int k = 0; k < NT; k++)
        MPI_Comm_free(&base[k]);
    return t_finish();
}
