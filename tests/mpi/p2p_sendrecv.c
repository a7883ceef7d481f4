/*
 * p2p_sendrecv: MPI_Sendrecv and MPI_Sendrecv_replace.
 *  - a periodic ring shift (right neighbour gets my data) at eager and
 *    rendezvous sizes; with one rank the neighbour is the rank itself;
 *  - a non-periodic chain: the ends talk to MPI_PROC_NULL, their status
 *    says so and their receive buffer is untouched;
 *  - Sendrecv_replace around the ring, several sizes, different send and
 *    receive tags, and with MPI_ANY_SOURCE / MPI_ANY_TAG on the receive.
 */
#include "mpitest.h"

static const int ssizes[] = {0, 4, 4096, 4097, 100000, 1 << 20};
#define NS ((int)(sizeof ssizes / sizeof ssizes[0]))

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int right = (t_rank + 1) % t_size, left = (t_rank + t_size - 1) % t_size;
    int maxn = 1 << 20;
    char *sb = t_malloc((size_t)maxn), *rb = t_malloc((size_t)maxn);
    MPI_Status st;

    for (int i = 0; i < NS; i++) {
        int n = ssizes[i];
        t_fill(sb, (size_t)n, (unsigned)(t_rank * 100 + i));
        memset(rb, 0, (size_t)n);
        T_MPI(MPI_Sendrecv(sb, n, MPI_BYTE, right, 1, rb, maxn, MPI_BYTE, left, 1, MPI_COMM_WORLD, &st));
        T_STATUS(st, left, 1, n);
        T_CHECK(t_verify(rb, (size_t)n, (unsigned)(left * 100 + i)) < 0, "Sendrecv ring, %d bytes: data wrong", n);
        T_CHECK(t_verify(sb, (size_t)n, (unsigned)(t_rank * 100 + i)) < 0, "Sendrecv changed the send buffer");
    }

    /* chain without wrap-around */
    int r2 = t_rank + 1 < t_size ? t_rank + 1 : MPI_PROC_NULL;
    int l2 = t_rank > 0 ? t_rank - 1 : MPI_PROC_NULL;
    for (int i = 0; i < NS; i++) {
        int n = ssizes[i];
        t_fill(sb, (size_t)n, (unsigned)(t_rank * 100 + i + 50));
        memset(rb, 0x5a, (size_t)n);
        T_MPI(MPI_Sendrecv(sb, n, MPI_BYTE, r2, 2, rb, n, MPI_BYTE, l2, 2, MPI_COMM_WORLD, &st));
        if (l2 == MPI_PROC_NULL) {
            int count = -1;
            MPI_Get_count(&st, MPI_BYTE, &count);
            T_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0,
                    "Sendrecv from MPI_PROC_NULL: status (%d, %d, %d)", st.MPI_SOURCE, st.MPI_TAG, count);
            int untouched = 1;
            for (int k = 0; k < n; k++)
                if ((unsigned char)rb[k] != 0x5a)
                    untouched = 0;
            T_CHECK(untouched, "Sendrecv from MPI_PROC_NULL wrote the receive buffer");
        } else {
            T_STATUS(st, l2, 2, n);
            T_CHECK(t_verify(rb, (size_t)n, (unsigned)(l2 * 100 + i + 50)) < 0, "Sendrecv chain, %d bytes: data wrong", n);
        }
    }

    /* Sendrecv_replace */
    for (int i = 0; i < NS; i++) {
        int n = ssizes[i];
        for (int wild = 0; wild < 2; wild++) {
            t_fill(sb, (size_t)n, (unsigned)(t_rank * 7 + i + 1000 * wild));
            int src = wild ? MPI_ANY_SOURCE : left, tag = wild ? MPI_ANY_TAG : 10 + i;
            T_MPI(MPI_Sendrecv_replace(sb, n, MPI_BYTE, right, 10 + i, src, tag, MPI_COMM_WORLD, &st));
            T_STATUS(st, left, 10 + i, n);
            T_CHECK(t_verify(sb, (size_t)n, (unsigned)(left * 7 + i + 1000 * wild)) < 0,
                    "Sendrecv_replace%s, %d bytes: data wrong", wild ? " (wildcards)" : "", n);
        }
    }
    /* typed: ints, shifted twice around a ring */
    int iv[1000];
    for (int k = 0; k < 1000; k++)
        iv[k] = t_rank * 1000 + k;
    T_MPI(MPI_Sendrecv_replace(iv, 1000, MPI_INT, right, 3, left, 3, MPI_COMM_WORLD, &st));
    T_MPI(MPI_Sendrecv_replace(iv, 1000, MPI_INT, right, 3, left, 3, MPI_COMM_WORLD, &st));
    int l2nd = (t_rank + 2 * t_size - 2) % t_size;
    for (int k = 0; k < 1000; k++)
        if (iv[k] != l2nd * 1000 + k) {
            T_FAIL("Sendrecv_replace of ints: element %d is %d, expected %d", k, iv[k], l2nd * 1000 + k);
            break;
        }
    free(sb);
    free(rb);
    return t_finish();
}
