/*
 * bsend_flush: MPI-4.1 MPI_Buffer_flush / MPI_Buffer_iflush. Each rank
 * buffers a large message (rendezvous size: it cannot leave before the
 * receiver takes it) and a small one to the next rank in a ring, starts
 * MPI_Buffer_iflush, receives its own two messages, then waits for the
 * flush: afterwards the whole buffer is free again (a message as large as
 * the buffer allows fits). MPI_Buffer_flush with nothing pending returns
 * at once; a NULL request is an error. First, a buffer sized exactly by the
 * standard's rule (the sum of MPI_Pack_size + MPI_BSEND_OVERHEAD over the
 * messages in flight, MPI-4.0 3.6.1) holds five messages of odd sizes.
 */
#include "../mpi/mpitest.h"

#define BIG (1 << 20)

static void exact_sizing(int next, int prev)
{
    static const int len[] = {1, 3, 17, 100, 1};
    enum { N = sizeof len / sizeof len[0] };
    int size = 0;
    for (int i = 0; i < N; i++) {
        int ps;
        T_MPI(MPI_Pack_size(len[i], MPI_BYTE, MPI_COMM_WORLD, &ps));
        size += ps + MPI_BSEND_OVERHEAD;
    }
    char *buf = t_malloc((size_t)size), out[100], in[100];
    T_MPI(MPI_Buffer_attach(buf, size));
    t_fill(out, sizeof out, (unsigned)t_rank);
    for (int i = 0; i < N; i++) /* all in flight: nobody has received yet */
        T_MPI(MPI_Bsend(out, len[i], MPI_BYTE, next, 10 + i, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++) {
        T_MPI(MPI_Recv(in, len[i], MPI_BYTE, prev, 10 + i, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T_CHECK(t_verify(in, (size_t)len[i], (unsigned)prev) < 0,
                "exact sizing: message %d from %d", i, prev);
    }
    void *b;
    T_MPI(MPI_Buffer_detach(&b, &size));
    free(buf);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int next = (t_rank + 1) % t_size, prev = (t_rank + t_size - 1) % t_size;
    exact_sizing(next, prev);
    int size = 2 * (BIG + MPI_BSEND_OVERHEAD) + 64;
    char *buf = t_malloc((size_t)size), *big = t_malloc(BIG), *in = t_malloc(BIG);
    T_MPI(MPI_Buffer_attach(buf, size));
    T_MPI(MPI_Buffer_flush()); /* nothing pending */
    t_fill(big, BIG, (unsigned)t_rank);
    int small = 100 + t_rank, got = -1;
    T_MPI(MPI_Bsend(big, BIG, MPI_BYTE, next, 1, MPI_COMM_WORLD));
    T_MPI(MPI_Bsend(&small, 1, MPI_INT, next, 2, MPI_COMM_WORLD));
    MPI_Request q;
    T_MPI(MPI_Buffer_iflush(&q));
    T_MPI(MPI_Recv(in, BIG, MPI_BYTE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    T_MPI(MPI_Recv(&got, 1, MPI_INT, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    T_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    T_CHECK(q == MPI_REQUEST_NULL, "the flush request was not freed");
    T_CHECK(t_verify(in, BIG, (unsigned)prev) < 0 && got == 100 + prev, "data from %d", prev);
    /* the buffer is empty again: two big messages fit at once */
    T_MPI(MPI_Bsend(big, BIG, MPI_BYTE, next, 3, MPI_COMM_WORLD));
    T_MPI(MPI_Bsend(big, BIG, MPI_BYTE, next, 4, MPI_COMM_WORLD));
    T_MPI(MPI_Recv(in, BIG, MPI_BYTE, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    T_MPI(MPI_Recv(in, BIG, MPI_BYTE, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    T_MPI(MPI_Buffer_flush());
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    T_MPI_CLASS(MPI_Buffer_iflush(NULL), MPI_ERR_ARG);
    void *b;
    T_MPI(MPI_Buffer_detach(&b, &size));
    free(buf), free(big), free(in);
    return t_finish();
}
