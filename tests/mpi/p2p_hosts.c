/*
 * Point-to-point between ranks that the runtime places on different hosts
 * (run with `--hosts localhost:1,h1:1 --launch-agent {cmd}` on this
 * machine, or over FTMPI_TRANSPORT=tcp on one host): every message goes
 * through the TCP transport.
 *
 *  - both ranks send first, at once, before any connection exists (the
 *    simultaneous connect must end with one connection and no lost data);
 *  - every size of t_sizes both ways (eager, and rendezvous streamed with
 *    writev/readv), checked byte by byte;
 *  - non-contiguous data: short runs (packed / bounce buffer) and long runs
 *    (the datatype's runs as iovecs);
 *  - a synchronous send; truncated receives (MPI_ERR_TRUNCATE: shorter and
 *    longer than the head a network RTS carries) followed by an intact
 *    message; messages to itself.
 */
#include "mpitest.h"

static void exchange(int peer, size_t n, unsigned seed)
{
    char *s = t_malloc(n), *r = t_malloc(n);
    t_fill(s, n, seed + (unsigned)t_rank);
    MPI_Request q[2];
    T_MPI(MPI_Irecv(r, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &q[0]));
    T_MPI(MPI_Isend(s, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &q[1]));
    T_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
    long bad = t_verify(r, n, seed + (unsigned)peer);
    T_CHECK(bad < 0, "%zu bytes: byte %ld differs", n, bad);
    free(s);
    free(r);
}

/* A vector of `blocks` blocks of `blen` ints, stride 2 * blen: rank 0
 * sends, rank 1 receives into the same layout and checks the blocks. */
static void vector(int peer, int blocks, int blen)
{
    MPI_Datatype v;
    T_MPI(MPI_Type_vector(blocks, blen, 2 * blen, MPI_INT, &v));
    T_MPI(MPI_Type_commit(&v));
    size_t n = (size_t)blocks * 2 * (size_t)blen;
    int *b = t_malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++)
        b[i] = t_rank == 0 ? (int)(i * 7 + 1) : -1;
    if (t_rank == 0) {
        T_MPI(MPI_Send(b, 1, v, peer, 8, MPI_COMM_WORLD));
    } else {
        T_MPI(MPI_Recv(b, 1, v, peer, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (size_t i = 0; i < n; i++) {
            int in_block = (i / (size_t)blen) % 2 == 0;
            int want = in_block ? (int)(i * 7 + 1) : -1;
            if (b[i] != want) {
                T_FAIL("vector %dx%d: element %zu is %d, want %d", blocks, blen, i, b[i], want);
                break;
            }
        }
    }
    free(b);
    MPI_Type_free(&v);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    if (t_size != 2) {
        fprintf(stderr, "p2p_hosts: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int peer = 1 - t_rank;
    exchange(peer, 100, 1); /* the first traffic: both connect at once */
    for (int i = 0; i < T_NSIZES; i++)
        exchange(peer, (size_t)t_sizes[i], 10 + (unsigned)i);
    vector(peer, 100000, 1);   /* 400 KB in 4-byte runs */
    vector(peer, 64, 4096);    /* 1 MiB in 16 KiB runs */
    int x = 5, y = 0;
    if (t_rank == 0) {
        T_MPI(MPI_Ssend(&x, 1, MPI_INT, peer, 9, MPI_COMM_WORLD));
    } else {
        T_MPI(MPI_Recv(&y, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T_CHECK(y == 5, "Ssend: got %d", y);
    }
    /* Truncation: the stream is consumed, the next message is intact. */
    size_t big = 1 << 20;
    char *s = t_malloc(big), *r = t_malloc(big);
    t_fill(s, big, 99);
    if (t_rank == 0) {
        T_MPI(MPI_Send(s, (int)big, MPI_BYTE, peer, 10, MPI_COMM_WORLD));
        T_MPI(MPI_Send(s, (int)big, MPI_BYTE, peer, 11, MPI_COMM_WORLD));
        T_MPI(MPI_Send(s, (int)big, MPI_BYTE, peer, 12, MPI_COMM_WORLD));
    } else {
        T_MPI_CLASS(MPI_Recv(r, 1000, MPI_BYTE, peer, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                    MPI_ERR_TRUNCATE);
        T_CHECK(t_verify(r, 1000, 99) < 0, "truncated receive: the first 1000 bytes differ");
        memset(r, 0, big);
        T_MPI(MPI_Recv(r, (int)big, MPI_BYTE, peer, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T_CHECK(t_verify(r, big, 99) < 0, "the message after a truncated one differs");
        /* truncated past the head an RTS carries (PKT_F_HEAD) */
        memset(r, 0, big);
        T_MPI_CLASS(MPI_Recv(r, 100000, MPI_BYTE, peer, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                    MPI_ERR_TRUNCATE);
        T_CHECK(t_verify(r, 100000, 99) < 0, "truncated receive: the first 100000 bytes differ");
        T_CHECK(r[100000] == 0, "a truncated receive wrote past its buffer");
    }
    free(s);
    free(r);
    T_MPI(MPI_Sendrecv(&x, 1, MPI_INT, t_rank, 3, &y, 1, MPI_INT, t_rank, 3, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    T_CHECK(y == 5, "a message to itself: %d", y);
    return t_finish();
}
