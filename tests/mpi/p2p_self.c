/*
 * p2p_self: messages a rank sends to itself, every mode, eager and
 * rendezvous sizes: Isend + Recv, Irecv + Send, Issend + Recv, Irecv +
 * Rsend (the receive is posted first), Bsend + Recv, Sendrecv to self,
 * Probe of a self message, persistent self send/recv; also on
 * MPI_COMM_SELF. Every rank does this on its own. Then non-contiguous
 * datatypes of short runs (a struct of 56 + 2 floats resized to 340 bytes)
 * on either side or both, eager and rendezvous sizes: a rendezvous to self
 * with such a receive type once waited for ever on a stream to itself.
 */
#include "mpitest.h"

static void one_size(MPI_Comm comm, int me, int n, unsigned seed, char *sb, char *rb)
{
    MPI_Request r, r2;
    MPI_Status st;
    const char *cn = comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "MPI_COMM_WORLD";
#define CHECK_RECV(what, s)                                                            \
    do {                                                                               \
        T_STATUS(st, me, 5, n);                                                        \
        T_CHECK(t_verify(rb, (size_t)n, (s)) < 0, "%s to self on %s, %d bytes: data wrong", \
                what, cn, n);                                                          \
        memset(rb, 0, (size_t)n);                                                      \
    } while (0)

    t_fill(sb, (size_t)n, seed);
    T_MPI(MPI_Isend(sb, n, MPI_BYTE, me, 5, comm, &r));
    T_MPI(MPI_Recv(rb, n, MPI_BYTE, me, 5, comm, &st));
    T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_RECV("Isend+Recv", seed);

    T_MPI(MPI_Irecv(rb, n, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &r));
    T_MPI(MPI_Send(sb, n, MPI_BYTE, me, 5, comm));
    T_MPI(MPI_Wait(&r, &st));
    CHECK_RECV("Irecv+Send", seed);

    T_MPI(MPI_Issend(sb, n, MPI_BYTE, me, 5, comm, &r));
    int flag = 1;
    T_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    T_CHECK(!flag, "Issend to self of %d bytes completed before the receive", n);
    T_MPI(MPI_Recv(rb, n, MPI_BYTE, me, 5, comm, &st));
    if (!flag)
        T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_RECV("Issend+Recv", seed);

    T_MPI(MPI_Irecv(rb, n, MPI_BYTE, me, 5, comm, &r));
    T_MPI(MPI_Rsend(sb, n, MPI_BYTE, me, 5, comm));
    T_MPI(MPI_Wait(&r, &st));
    CHECK_RECV("Irecv+Rsend", seed);

    T_MPI(MPI_Bsend(sb, n, MPI_BYTE, me, 5, comm));
    t_fill(sb, (size_t)n, seed + 1); /* buffered: the copy was taken */
    T_MPI(MPI_Probe(me, 5, comm, &st));
    T_STATUS(st, me, 5, n);
    T_MPI(MPI_Recv(rb, n, MPI_BYTE, me, 5, comm, &st));
    CHECK_RECV("Bsend+Recv", seed);

    T_MPI(MPI_Sendrecv(sb, n, MPI_BYTE, me, 5, rb, n, MPI_BYTE, me, 5, comm, &st));
    CHECK_RECV("Sendrecv", seed + 1);

    T_MPI(MPI_Send_init(sb, n, MPI_BYTE, me, 5, comm, &r));
    T_MPI(MPI_Recv_init(rb, n, MPI_BYTE, me, 5, comm, &r2));
    for (int k = 0; k < 2; k++) {
        MPI_Request both[2] = {r2, r};
        MPI_Status sts[2];
        t_fill(sb, (size_t)n, seed + 2 + (unsigned)k);
        T_MPI(MPI_Startall(2, both));
        T_MPI(MPI_Waitall(2, both, sts));
        st = sts[0];
        CHECK_RECV("persistent", seed + 2 + (unsigned)k);
    }
    T_MPI(MPI_Request_free(&r));
    T_MPI(MPI_Request_free(&r2));
#undef CHECK_RECV
}

/* Isend n elements of a 340-byte struct (232 bytes of data) to self and
 * receive them as the struct or as bytes, or send bytes and receive the
 * struct. */
static void noncontig(int me, int n)
{
    MPI_Aint d[2] = {0, 332};
    int b[2] = {56, 2};
    MPI_Datatype ty[2] = {MPI_FLOAT, MPI_FLOAT}, tmp, st;
    T_MPI(MPI_Type_create_struct(2, b, d, ty, &tmp));
    T_MPI(MPI_Type_create_resized(tmp, 0, 340, &st));
    T_MPI(MPI_Type_free(&tmp));
    T_MPI(MPI_Type_commit(&st));
    size_t ext = (size_t)n * 340, packed = (size_t)n * 232;
    char *sb = t_malloc(ext), *rb = t_malloc(ext), *pk = t_malloc(packed), *ref = t_malloc(packed);
    t_fill(sb, ext, (unsigned)(n + me));
    int pos = 0;
    T_MPI(MPI_Pack(sb, n, st, ref, (int)packed, &pos, MPI_COMM_SELF));
    for (int k = 0; k < 3; k++) {
        /* k 0: struct -> struct, 1: struct -> bytes, 2: bytes -> struct */
        MPI_Request r;
        memset(rb, 0, ext);
        if (k < 2)
            T_MPI(MPI_Isend(sb, n, st, me, 9, MPI_COMM_WORLD, &r));
        else
            T_MPI(MPI_Isend(ref, (int)packed, MPI_BYTE, me, 9, MPI_COMM_WORLD, &r));
        if (k == 1)
            T_MPI(MPI_Recv(rb, (int)packed, MPI_BYTE, me, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        else
            T_MPI(MPI_Recv(rb, n, st, me, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        if (k == 1) {
            memcpy(pk, rb, packed);
        } else {
            pos = 0;
            T_MPI(MPI_Pack(rb, n, st, pk, (int)packed, &pos, MPI_COMM_SELF));
        }
        T_CHECK(memcmp(pk, ref, packed) == 0, "non-contiguous to self, case %d, %d elements: data wrong",
                k, n);
    }
    T_MPI(MPI_Type_free(&st));
    free(sb), free(rb), free(pk), free(ref);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    size_t maxn = (size_t)t_sizes[T_NSIZES - 1];
    char *sb = t_malloc(maxn), *rb = t_malloc(maxn);
    int bsize = (int)maxn + MPI_BSEND_OVERHEAD + 64;
    char *bb = t_malloc((size_t)bsize);
    T_MPI(MPI_Buffer_attach(bb, bsize));
    for (int i = 0; i < T_NSIZES; i++) {
        one_size(MPI_COMM_WORLD, t_rank, t_sizes[i], (unsigned)(i * 10 + t_rank * 1000), sb, rb);
        one_size(MPI_COMM_SELF, 0, t_sizes[i], (unsigned)(i * 10 + 5 + t_rank * 1000), sb, rb);
    }
    noncontig(t_rank, 10);   /* 2320 bytes: eager */
    noncontig(t_rank, 1131); /* 262 KiB: rendezvous */
    void *p;
    int sz;
    T_MPI(MPI_Buffer_detach(&p, &sz));
    free(bb);
    free(sb);
    free(rb);
    return t_finish();
}
