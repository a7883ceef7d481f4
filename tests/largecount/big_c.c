/*
 * Messages of more than 2^31 bytes through the large-count functions, with
 * the data checked: MPI_Send_c/MPI_Recv_c, MPI_Bcast_c and an in-place
 * MPI_Allreduce_c (MPI_SUM over uint8) of N = 2^31 + 8 one-byte elements
 * between 2 ranks. One N-byte buffer a rank (about 2.2 GB, plus what the
 * library's allreduce takes). Registered only with FTMPI_BIG_TESTS=ON.
 */
#include "../mpi/mpitest.h"

#define N ((MPI_Count)2147483648LL + 8)

static unsigned char pattern(MPI_Count i, int salt) { return (unsigned char)(i * 7 + salt); }

static void check(const unsigned char *b, int salt, const char *what)
{
    MPI_Count bad = 0, first = -1;
    for (MPI_Count i = 0; i < N; i++)
        if (b[i] != pattern(i, salt) && bad++ == 0)
            first = i;
    T_CHECK(bad == 0, "%s: %lld wrong bytes, the first at %lld", what, bad, first);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    unsigned char *b = malloc((size_t)N);
    T_CHECK(b != NULL, "malloc of %lld bytes", (long long)N);
    if (!b)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Status st;
    MPI_Count n = -1;
    int ni = 0;
    if (t_rank < 2) {
        if (t_rank == 0) {
            for (MPI_Count i = 0; i < N; i++)
                b[i] = pattern(i, 3);
            T_MPI(MPI_Send_c(b, N, MPI_BYTE, 1, 1, MPI_COMM_WORLD));
        } else {
            memset(b, 0, (size_t)N);
            T_MPI(MPI_Recv_c(b, N, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st));
            check(b, 3, "Send_c/Recv_c");
            T_MPI(MPI_Get_count_c(&st, MPI_BYTE, &n));
            T_CHECK(n == N, "Get_count_c = %lld", n);
            T_MPI(MPI_Get_count(&st, MPI_BYTE, &ni));
            T_CHECK(ni == MPI_UNDEFINED, "Get_count = %d", ni);
        }
    }
    /* broadcast from the last rank */
    if (t_rank == t_size - 1)
        for (MPI_Count i = 0; i < N; i++)
            b[i] = pattern(i, 5);
    else
        memset(b, 0, (size_t)N);
    T_MPI(MPI_Bcast_c(b, N, MPI_BYTE, t_size - 1, MPI_COMM_WORLD));
    check(b, 5, "Bcast_c");
    /* every rank holds pattern(i, 5) + rank: the sum, mod 256 */
    for (MPI_Count i = 0; i < N; i++)
        b[i] = (unsigned char)(b[i] + t_rank);
    T_MPI(MPI_Allreduce_c(MPI_IN_PLACE, b, N, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD));
    int add = t_size * (t_size - 1) / 2;
    for (MPI_Count i = 0; i < N; i++)
        b[i] = (unsigned char)(b[i] - add);
    /* sum of size copies of pattern(i, 5) = size * pattern(i, 5) (mod 256) */
    MPI_Count bad = 0;
    for (MPI_Count i = 0; i < N; i++)
        if (b[i] != (unsigned char)(t_size * pattern(i, 5)))
            bad++;
    T_CHECK(bad == 0, "Allreduce_c: %lld wrong bytes", bad);
    free(b);
    return t_finish();
}
