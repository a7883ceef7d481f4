/*
 * The program of tools.monitor_views (monitor_views.py), run under
 * ftmpirun --monitor --comm-mode=rebuild: it makes communicators and a known
 * traffic, and then waits at points that the test releases by creating
 * files in DIR, so that the test sees each state of the job for certain:
 *
 *   1. a duplicate of MPI_COMM_WORLD ("mon_dup") and a split by parity
 *      ("mon_half"); each rank sends RING messages of RING_BYTES bytes to
 *      rank + 1; rank 0 creates DIR/ready;
 *   2. barriers every 20 ms until one fails (the test kills a rank):
 *      the survivors then wait for DIR/recover (the monitor shows their
 *      communicators with the failed member);
 *   3. recovery (MPI_Comm_dup of MPI_COMM_WORLD, FT-MPI's idiom), joined by
 *      the replacement; everyone splits again ("mon_half2") and sends the
 *      ring again; rank 0 creates DIR/recovered and everyone waits for
 *      DIR/end.
 * Every wait is bounded (LIMIT_S): past it the program exits 3.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define RING 5
#define RING_BYTES 100000
#define LIMIT_S 150.0

static const char *dir;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void nap(void)
{
    nanosleep(&(struct timespec){0, 20000000L}, NULL);
}

static int exists(const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

static void touch(const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    if (f)
        fclose(f);
}

static void wait_file(const char *name)
{
    double t0 = now();
    while (!exists(name)) {
        if (now() - t0 > LIMIT_S) {
            fprintf(stderr, "mon_comms: no %s/%s after %g s\n", dir, name, LIMIT_S);
            exit(3);
        }
        nap();
    }
}

static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "mon_comms: %s returned %d\n", what, rc);
        exit(2);
    }
}

static void ring(int rank, int size)
{
    static char out[RING_BYTES], in[RING_BYTES];
    MPI_Request rq[2 * RING];
    for (int i = 0; i < RING; i++) {
        check(MPI_Irecv(in, RING_BYTES, MPI_CHAR, (rank + size - 1) % size, 7, MPI_COMM_WORLD,
                        &rq[i]), "MPI_Irecv");
        check(MPI_Isend(out, RING_BYTES, MPI_CHAR, (rank + 1) % size, 7, MPI_COMM_WORLD,
                        &rq[RING + i]), "MPI_Isend");
    }
    check(MPI_Waitall(2 * RING, rq, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

/* A split by parity named half_name, the ring, a barrier; then rank 0
 * creates DIR/done. */
static void phase(int rank, int size, MPI_Comm *half, const char *half_name, const char *done)
{
    check(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, half), "MPI_Comm_split");
    MPI_Comm_set_name(*half, half_name);
    ring(rank, size);
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    if (rank == 0)
        touch(done);
}

int main(int argc, char **argv)
{
    int rc = MPI_Init(&argc, &argv);
    int restarted = rc == MPI_INIT_RESTARTED_NODE;
    if (argc != 2) {
        fprintf(stderr, "usage: mon_comms DIR\n");
        return 2;
    }
    dir = argv[1];
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup = MPI_COMM_NULL, half = MPI_COMM_NULL;
    if (!restarted) {
        check(MPI_Comm_dup(MPI_COMM_WORLD, &dup), "MPI_Comm_dup");
        MPI_Comm_set_name(dup, "mon_dup");
        phase(rank, size, &half, "mon_half", "ready");
        double t0 = now();
        while (MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS) {
            if (now() - t0 > LIMIT_S) {
                fprintf(stderr, "mon_comms: no failure after %g s\n", LIMIT_S);
                return 3;
            }
            nap();
        }
        wait_file("recover");
        MPI_Comm rec = FT_MPI_CHECK_RECOVER;
        check(MPI_Comm_dup(MPI_COMM_WORLD, &rec), "the recovery (MPI_Comm_dup)");
        MPI_Comm_free(&dup); /* destroyed by the recovery: only free works */
        MPI_Comm_free(&half);
        dup = rec;
    } else {
        check(MPI_Comm_dup(MPI_COMM_WORLD, &dup), "MPI_Comm_dup (replacement)");
    }
    MPI_Comm_set_name(dup, "mon_dup");
    phase(rank, size, &half, "mon_half2", "recovered");
    wait_file("end");
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier (end)");
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
