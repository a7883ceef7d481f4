/*
 * Large and non-contiguous messages to and from a replacement (REBUILD).
 * Run with 2 ranks and --comm-mode=rebuild: rank 1 dies by SIGKILL, rank 0
 * recovers with the FT_MPI_CHECK_RECOVER idiom, the replacement (MPI_Init
 * returns MPI_INIT_RESTARTED_NODE) dups MPI_COMM_WORLD too. Then, with
 * whatever protocol the transport picks (eager, single-copy rendezvous,
 * streamed rendezvous):
 *   a) the replacement sends rank 0 8 MiB of contiguous doubles;
 *   b) the replacement sends one MPI_Type_vector(1M, 1, 2, MPI_DOUBLE);
 *   c) rank 0 sends the replacement a vector too (the other direction);
 *   d) the replacement cancels a send rank 0 never receives (small and
 *      large), and rank 0 must have dropped it.
 * Every packet a replacement sends must carry its incarnation, or the
 * receiver takes it for a packet of the dead process and drops it (the
 * receive then waits for ever: the launcher's --timeout catches that).
 * Exit 0 only if every check held.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 20) /* doubles: 8 MiB */

static int fails;
#define CHECK(cond, ...)                                            \
    do {                                                            \
        if (!(cond)) {                                              \
            fprintf(stderr, "ft_replacement_data: check failed: "); \
            fprintf(stderr, __VA_ARGS__);                           \
            fprintf(stderr, "\n");                                  \
            fails++;                                                \
        }                                                           \
    } while (0)

static double val(int part, long i) { return part * 1e7 + (double)i * 0.5; }

static void fill(double *b, long n, long stride, int part)
{
    for (long i = 0; i < n; i++)
        b[i * stride] = val(part, i);
}

static int bad(const double *b, long n, long stride, int part)
{
    for (long i = 0; i < n; i++)
        if (b[i * stride] != val(part, i))
            return 1;
    return 0;
}

/* The replacement's side. */
static void replacement(MPI_Datatype vec, double *buf)
{
    int rc;
    fill(buf, N, 1, 1);
    rc = MPI_Send(buf, N, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "a) contiguous send returned %d", rc);
    fill(buf, N, 2, 2);
    rc = MPI_Send(buf, 1, vec, 0, 2, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "b) vector send returned %d", rc);
    for (long i = 0; i < 2L * N; i++)
        buf[i] = -1;
    rc = MPI_Recv(buf, 1, vec, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS && !bad(buf, N, 2, 3), "c) vector receive: rc %d, data %s", rc,
          bad(buf, N, 2, 3) ? "wrong" : "right");
    /* d) two sends rank 0 never receives, cancelled. */
    int counts[2] = {1, N};
    for (int k = 0; k < 2; k++) {
        MPI_Request rq;
        MPI_Status st;
        int cancelled = 0;
        MPI_Issend(buf, counts[k], MPI_DOUBLE, 0, 99, MPI_COMM_WORLD, &rq);
        MPI_Cancel(&rq);
        rc = MPI_Wait(&rq, &st);
        MPI_Test_cancelled(&st, &cancelled);
        CHECK(rc == MPI_SUCCESS && cancelled, "d) cancel of %d doubles: rc %d cancelled %d",
              counts[k], rc, cancelled);
    }
}

/* Rank 0's side after the recovery. */
static void survivor(MPI_Datatype vec, double *buf)
{
    int rc, count = -1;
    MPI_Status st;
    rc = MPI_Recv(buf, N, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(rc == MPI_SUCCESS && count == N && !bad(buf, N, 1, 1),
          "a) contiguous receive: rc %d count %d data %s", rc, count,
          bad(buf, N, 1, 1) ? "wrong" : "right");
    rc = MPI_Recv(buf, N, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(rc == MPI_SUCCESS && count == N && !bad(buf, N, 1, 2),
          "b) vector receive: rc %d count %d data %s", rc, count,
          bad(buf, N, 1, 2) ? "wrong" : "right");
    fill(buf, N, 2, 3);
    rc = MPI_Send(buf, 1, vec, 1, 3, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "c) vector send returned %d", rc);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int restarted = MPI_Init(&argc, &argv) == MPI_INIT_RESTARTED_NODE;
    int rank, size, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "ft_replacement_data: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double *buf = malloc(2 * (size_t)N * sizeof(double));
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Datatype vec;
    MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MPI_Comm dup = FT_MPI_CHECK_RECOVER;
    if (restarted) {
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        CHECK(rc == MPI_SUCCESS, "replacement dup returned %d", rc);
        replacement(vec, buf);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1)
            raise(SIGKILL);
        int x;
        rc = MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive from the dying rank returned %d", rc);
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        CHECK(rc == MPI_SUCCESS, "recovering dup returned %d", rc);
        survivor(vec, buf);
    }
    /* Rank 0 progresses the cancels here; then nothing may be left. */
    rc = MPI_Barrier(MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "barrier returned %d", rc);
    if (rank == 0) {
        int found = 1;
        MPI_Iprobe(1, 99, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE);
        CHECK(!found, "d) a cancelled send is still queued at the receiver");
    }
    MPI_Comm_free(&dup);
    MPI_Type_free(&vec);
    free(buf);
    printf("ft_replacement_data rank %d%s: %s\n", rank, restarted ? " (replacement)" : "",
           fails ? "FAILED" : "ok");
    MPI_Finalize();
    return fails ? 1 : 0;
}
