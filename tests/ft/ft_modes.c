/*
 * FT-MPI modes other than the idiom's MANUAL recovery, with rank 1 killed
 * by SIGKILL (argument: none | auto | cont | blank):
 *   none:  communication with the dead rank returns MPI_ERR_OTHER for
 *          ever, the rest keeps working, no recovery, size unchanged.
 *   auto:  the first call that meets the failure returns MPI_ERR_OTHER
 *          after the library has recovered by itself (SHRINK).
 *   cont:  messages sent before the failure between survivors (one int,
 *          and 4 MiB of non-contiguous doubles: a rendezvous that spans
 *          the recovery) are delivered after the recovery (SHRINK
 *          renumbers their sender); the sends, non-blocking so that
 *          they need no buffering, complete after it.
 *   blank: the dead rank is a gap: MPI_Comm_size keeps the extent,
 *          point-to-point with the gap returns MPI_ERR_RANK, the others
 *          keep talking.
 * Run with at least 4 ranks. Exit 0 only if every check held.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (1 << 19) /* doubles in the non-contiguous CONT message */

static int fails;
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "ft_modes rank %d: ", rank);                     \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
            fails++;                                                         \
        }                                                                    \
    } while (0)

int main(int argc, char **argv)
{
    int rank, size, x = 0, rc, flag, *nf, *cmode;
    const char *mode = argc > 1 ? argv[1] : "none";
    int restarted = MPI_Init(&argc, &argv) == MPI_INIT_RESTARTED_NODE;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &cmode, &flag);
    int launch = size;
    /* Size after losing rank 1: SHRINK loses it, REBUILD replaces it. */
    int expect = *cmode == FTMPI_COMM_MODE_SHRINK ? launch - 1 : launch;
    if (restarted) {
        /* A replacement (REBUILD + AUTO): it joins the survivors'
         * post-recovery allreduce. */
        int one = 1, sum = 0;
        rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(rc == MPI_SUCCESS && sum == expect, "replacement allreduce: %d %d", rc, sum);
        printf("ft_modes %s rank %d (replacement): %s\n", mode, rank, fails ? "FAILED" : "ok");
        MPI_Finalize();
        return fails ? 1 : 0;
    }
    int v = 4242;        /* sent before the failure, received after recovery */
    double *big = NULL;  /* every other element: BIG doubles */
    MPI_Datatype vec;
    MPI_Request sreq[2];
    if (!strcmp(mode, "cont") && (rank == 2 || rank == 3)) {
        big = malloc(2 * (size_t)BIG * sizeof(double));
        if (!big)
            MPI_Abort(MPI_COMM_WORLD, 2);
        MPI_Type_vector(BIG, 1, 2, MPI_DOUBLE, &vec);
        MPI_Type_commit(&vec);
        for (long i = 0; i < BIG; i++)
            big[2 * i] = (double)i + 0.25;
    }
    if (big && rank == 3) {
        MPI_Isend(&v, 1, MPI_INT, 2, 77, MPI_COMM_WORLD, &sreq[0]);
        MPI_Isend(big, 1, vec, 2, 78, MPI_COMM_WORLD, &sreq[1]);
    }
    /* NONATOMIC: a collective running when a member dies may fail on some
     * members only: this barrier too (then, under AUTO, it has recovered). */
    int brc = MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        raise(SIGKILL);
    if (!strcmp(mode, "none")) {
        if (rank == 0) {
            rc = MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            /* The send may be buffered before the failure is known: retry. */
            for (int i = 0; i < 1000 && rc == MPI_SUCCESS; i++)
                rc = MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(rc == MPI_ERR_OTHER, "recv from the dead rank gave %d", rc);
            rc = MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            CHECK(rc == MPI_ERR_OTHER, "send to the dead rank gave %d", rc);
        }
        if (rank == 0 || rank == 2) {
            int peer = 2 - rank, v = rank, got = -1;
            rc = MPI_Sendrecv(&v, 1, MPI_INT, peer, 1, &got, 1, MPI_INT, peer, 1,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(rc == MPI_SUCCESS && got == peer, "live pair broken: rc %d got %d", rc, got);
        }
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        CHECK(size == launch, "size changed under NONE");
    } else if (!strcmp(mode, "auto")) {
        int one = 1, sum = 0;
        rc = brc;
        while (rc == MPI_SUCCESS) { /* until the failure is met */
            rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            if (rc == MPI_SUCCESS && sum != launch)
                break;
        }
        CHECK(rc == MPI_ERR_OTHER, "allreduce gave %d", rc);
        /* Already recovered when the error came back: */
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_NUM_FAILED_PROCS, &nf, &flag);
        CHECK(size == expect, "size %d after AUTO recovery", size);
        CHECK(flag && *nf == 1, "FTMPI_NUM_FAILED_PROCS %d", flag ? *nf : -1);
        rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(rc == MPI_SUCCESS && sum == expect, "allreduce after recovery: %d %d", rc, sum);
    } else if (!strcmp(mode, "cont")) {
        int one = 1, sum = 0;
        do {
            rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        } while (rc == MPI_SUCCESS);
        MPI_Comm nc = FT_MPI_CHECK_RECOVER;
        MPI_Comm_dup(MPI_COMM_WORLD, &nc);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 1) { /* old rank 2 */
            MPI_Status st;
            v = 0;
            rc = MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &st);
            CHECK(rc == MPI_SUCCESS && v == 4242 && st.MPI_SOURCE == 2,
                  "pre-failure message: rc %d value %d source %d", rc, v, st.MPI_SOURCE);
            /* into a contiguous buffer: the first half of big */
            rc = MPI_Recv(big, BIG, MPI_DOUBLE, 2, 78, MPI_COMM_WORLD, &st);
            long badat = -1;
            for (long i = 0; i < BIG && badat < 0 && rc == MPI_SUCCESS; i++)
                if (big[i] != (double)i + 0.25)
                    badat = i;
            CHECK(rc == MPI_SUCCESS && st.MPI_SOURCE == 2 && badat < 0,
                  "pre-failure vector: rc %d source %d wrong element %ld", rc, st.MPI_SOURCE,
                  badat);
        } else if (rank == 2) { /* old rank 3: its sends complete now */
            rc = MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE);
            CHECK(rc == MPI_SUCCESS, "pre-failure sends completed with %d", rc);
        }
        MPI_Comm_free(&nc);
    } else if (!strcmp(mode, "blank")) {
        int one = 1, sum = 0;
        do {
            rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        } while (rc == MPI_SUCCESS);
        MPI_Comm nc = FT_MPI_CHECK_RECOVER;
        MPI_Comm_dup(MPI_COMM_WORLD, &nc);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        CHECK(size == launch, "BLANK size %d", size);
        rc = MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        CHECK(rc == MPI_ERR_RANK, "send to a gap gave %d", rc);
        if (rank == 0 || rank == 2) {
            int peer = 2 - rank, v = rank, got = -1;
            rc = MPI_Sendrecv(&v, 1, MPI_INT, peer, 1, &got, 1, MPI_INT, peer, 1,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(rc == MPI_SUCCESS && got == peer, "live pair: rc %d got %d", rc, got);
        }
        /* Communicators built from one with a gap hold its live members:
         * split by parity, rank 1 (the gap) in neither half. */
        int want_size = 0, want_sum = 0;
        for (int r = 0; r < size; r++)
            if (r != 1 && r % 2 == rank % 2) {
                want_size++;
                want_sum += r;
            }
        MPI_Comm sc = MPI_COMM_NULL;
        rc = MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sc);
        CHECK(rc == MPI_SUCCESS, "split with a gap gave %d", rc);
        if (rc == MPI_SUCCESS) {
            int ssize = -1, ssum = 0;
            MPI_Comm_size(sc, &ssize);
            CHECK(ssize == want_size, "split: size %d, want %d", ssize, want_size);
            rc = MPI_Allreduce(&rank, &ssum, 1, MPI_INT, MPI_SUM, sc);
            CHECK(rc == MPI_SUCCESS && ssum == want_sum, "split allreduce rc %d sum %d, want %d",
                  rc, ssum, want_sum);
            MPI_Comm_free(&sc);
        }
        MPI_Comm dc = MPI_COMM_NULL;
        rc = MPI_Comm_dup(nc, &dc);
        CHECK(rc == MPI_SUCCESS, "dup of a communicator with a gap gave %d", rc);
        if (rc == MPI_SUCCESS)
            MPI_Comm_free(&dc);
        MPI_Comm_free(&nc);
    }
    if (big) {
        MPI_Type_free(&vec);
        free(big);
    }
    printf("ft_modes %s rank %d: %s\n", mode, rank, fails ? "FAILED" : "ok");
    MPI_Finalize();
    return fails ? 1 : 0;
}
