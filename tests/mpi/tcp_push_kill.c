/*
 * tcp_push_kill: a process SIGKILLed in the middle of a pushed message
 * (docs/network.md, "Push": an EAGER header and then the whole payload as
 * one stream, no RTS/CTS) over TCP. 3 ranks; world ranks 1 and 2 are the
 * pair, rank 0 looks on. Run with FTMPI_TRANSPORT=tcp and
 * FTMPI_TCP_PUSH_LIMIT at least LEN, under --comm-mode=shrink or rebuild:
 *
 *   tcp_push_kill sender    rank 2 posts its receive of LEN bytes and makes
 *                           no MPI call until rank 1 is back from MPI_Isend
 *                           (the sockets took at most the 36 MiB of their
 *                           largest buffers); rank 2 reads until bytes land
 *                           in its buffer, then rank 1 dies (marker files
 *                           order the two): the receive fails with
 *                           MPI_ERR_OTHER, with the first bytes, not the last;
 *   tcp_push_kill receiver  rank 1 sends LEN bytes to rank 2, which never
 *                           reads them and dies: rank 1's send fails with
 *                           MPI_ERR_OTHER.
 *
 * The survivors then recover (FT_MPI_CHECK_RECOVER) and, in the new
 * MPI_COMM_WORLD (the replacement included under REBUILD), ranks 0 and 1
 * push LEN bytes each way, checked byte for byte. Each rank that finishes
 * prints ": ok" (tests/ft/run_ft.sh counts them).
 */
#include "mpitest.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEN (64u << 20)

static unsigned char pat(size_t i, int seed) { return (unsigned char)(i * 7 + (size_t)seed * 31 + 1) | 1; }

static void fill(unsigned char *b, int seed)
{
    for (size_t i = 0; i < LEN; i++)
        b[i] = pat(i, seed);
}

static size_t first_bad(const unsigned char *b, int seed)
{
    for (size_t i = 0; i < LEN; i++)
        if (b[i] != pat(i, seed))
            return i;
    return LEN;
}

/* Marker files between the pair, outside MPI (both on this host): "sent"
 * (rank 1 is back from MPI_Isend) and "landed" (rank 2 has bytes of it). */
static void mark(int pid, const char *what)
{
    char path[96];
    snprintf(path, sizeof(path), "/tmp/tcp_push_kill.%d.%s", pid, what);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

static void await_mark(int pid, const char *what)
{
    char path[96];
    snprintf(path, sizeof(path), "/tmp/tcp_push_kill.%d.%s", pid, what);
    while (access(path, F_OK) != 0)
        usleep(5000); /* bounded by mpirun --timeout */
    unlink(path);
}

/* The failing exchange of the first generation; returns when this rank
 * has seen the failure. */
static void before(int victim_sender, unsigned char *buf)
{
    int pid = (int)getpid(), rc;
    MPI_Request r = MPI_REQUEST_NULL;
    /* the connection between the pair is made first (rank 1's pid on it) */
    if (t_rank == 1)
        MPI_Send(&pid, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
    else if (t_rank == 2)
        MPI_Recv(&pid, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (t_rank == 2 && victim_sender) {
        memset(buf, 0, LEN);
        MPI_Irecv(buf, (int)LEN, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &r);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 1) {
        fill(buf, 1);
        MPI_Isend(buf, (int)LEN, MPI_BYTE, 2, 2, MPI_COMM_WORLD, &r);
        if (victim_sender) {
            /* no MPI call from here: nothing more is written */
            mark(pid, "sent");
            await_mark(pid, "landed");
            raise(SIGKILL);
        }
        rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        T_CHECK(rc == MPI_ERR_OTHER, "the send to the dying receiver returned %d", rc);
    } else if (t_rank == 2) {
        if (!victim_sender) {
            usleep(300000); /* rank 1's stream fills the sockets */
            raise(SIGKILL);
        }
        /* no MPI call (no reading) until rank 1 is back from MPI_Isend:
         * the sockets hold what it wrote, at most their buffers */
        await_mark(pid, "sent");
        int flag = 0;
        while (!flag && buf[0] == 0)
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        mark(pid, "landed");
        rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        T_CHECK(rc == MPI_ERR_OTHER, "the receive from the dying sender returned %d", rc);
        T_CHECK(buf[0] == pat(0, 1), "no byte of the stream landed in the receive buffer");
        T_CHECK(buf[LEN - 1] == 0, "the whole stream landed although its sender died");
    }
    /* everybody: until the failure is known here */
    do
        rc = MPI_Barrier(MPI_COMM_WORLD);
    while (rc == MPI_SUCCESS);
}

/* After the recovery: ranks 0 and 1 push LEN bytes each way. */
static void after(unsigned char *buf)
{
    for (int dir = 0; dir < 2; dir++) {
        int from = dir, to = 1 - dir, rc;
        if (t_rank == from) {
            fill(buf, 10 + dir);
            rc = MPI_Send(buf, (int)LEN, MPI_BYTE, to, 3, MPI_COMM_WORLD);
            T_CHECK(rc == MPI_SUCCESS, "send %d after the recovery returned %d", dir, rc);
        } else if (t_rank == to) {
            memset(buf, 0, LEN);
            MPI_Status st;
            rc = MPI_Recv(buf, (int)LEN, MPI_BYTE, from, 3, MPI_COMM_WORLD, &st);
            int n = -1;
            MPI_Get_count(&st, MPI_BYTE, &n);
            size_t bad = first_bad(buf, 10 + dir);
            T_CHECK(rc == MPI_SUCCESS && n == (int)LEN && bad == LEN,
                  "receive %d after the recovery: rc %d, %d bytes, first wrong byte %zu", dir,
                  rc, n, bad);
        }
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    t_name = "tcp_push_kill";
    int restarted = MPI_Init(&argc, &argv) == MPI_INIT_RESTARTED_NODE;
    int size, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int victim_sender = argc > 1 && strcmp(argv[1], "sender") == 0;
    if (size != 3 || argc < 2 || (!victim_sender && strcmp(argv[1], "receiver") != 0)) {
        if (t_rank == 0)
            fprintf(stderr, "usage: mpirun -np 3 tcp_push_kill sender|receiver\n");
        MPI_Finalize();
        return 2;
    }
    unsigned char *buf = malloc(LEN);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Comm dup = FT_MPI_CHECK_RECOVER;
    if (!restarted)
        before(victim_sender, buf);
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    T_CHECK(rc == MPI_SUCCESS, "recovering dup returned %d", rc);
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    after(buf);
    rc = MPI_Barrier(MPI_COMM_WORLD);
    T_CHECK(rc == MPI_SUCCESS, "the last barrier returned %d", rc);
    MPI_Comm_free(&dup);
    free(buf);
    printf("tcp_push_kill %s rank %d%s: %s\n", argv[1], t_rank, restarted ? " (replacement)" : "",
           t_errors ? "FAILED" : "ok");
    MPI_Finalize();
    return t_errors ? 1 : 0;
}
