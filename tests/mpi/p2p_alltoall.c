/*
 * p2p_alltoall: every rank exchanges with every rank (itself included)
 * using Irecv/Isend and one Waitall, at eager and rendezvous sizes, with
 * receives posted before and after the sends, and with MPI_ANY_SOURCE
 * receives whose status says who sent what.
 */
#include "mpitest.h"

static const int asizes[] = {4, 3000, 4097, 65536, 300000};
#define NA ((int)(sizeof asizes / sizeof asizes[0]))

static unsigned seed(int from, int to, int si, int round) { return (unsigned)(((from * 64 + to) * 8 + si) * 4 + round); }

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int P = t_size;
    int maxn = asizes[NA - 1];
    char *sb = t_malloc((size_t)maxn * P), *rb = t_malloc((size_t)maxn * P);
    MPI_Request *req = t_malloc(2 * (size_t)P * sizeof(MPI_Request));
    MPI_Status *sts = t_malloc(2 * (size_t)P * sizeof(MPI_Status));
    for (int si = 0; si < NA; si++) {
        int n = asizes[si];
        for (int round = 0; round < 3; round++) {
            /* round 0: receives first; 1: sends first; 2: ANY_SOURCE receives */
            for (int d = 0; d < P; d++)
                t_fill(sb + (size_t)d * n, (size_t)n, seed(t_rank, d, si, round));
            memset(rb, 0, (size_t)n * P);
            int k = 0;
            if (round == 1)
                for (int d = 0; d < P; d++) {
                    int dst = (t_rank + d) % P;
                    T_MPI(MPI_Isend(sb + (size_t)dst * n, n, MPI_BYTE, dst, si, MPI_COMM_WORLD, &req[k++]));
                }
            for (int s = 0; s < P; s++) {
                int src = round == 2 ? MPI_ANY_SOURCE : s;
                T_MPI(MPI_Irecv(rb + (size_t)s * n, n, MPI_BYTE, src, si, MPI_COMM_WORLD, &req[k++]));
            }
            if (round != 1)
                for (int d = 0; d < P; d++) {
                    int dst = (t_rank + d) % P;
                    T_MPI(MPI_Isend(sb + (size_t)dst * n, n, MPI_BYTE, dst, si, MPI_COMM_WORLD, &req[k++]));
                }
            T_MPI(MPI_Waitall(k, req, sts));
            int roff = round == 1 ? P : 0;
            for (int s = 0; s < P; s++) {
                MPI_Status *st = &sts[roff + s];
                int from = round == 2 ? st->MPI_SOURCE : s;
                if (round != 2)
                    T_CHECK(st->MPI_SOURCE == s, "alltoall: status source %d, expected %d", st->MPI_SOURCE, s);
                if (from < 0 || from >= P) {
                    T_FAIL("alltoall: bad source %d", from);
                    continue;
                }
                long bad = t_verify(rb + (size_t)s * n, (size_t)n, seed(from, t_rank, si, round));
                T_CHECK(bad < 0, "alltoall %d bytes round %d: data from rank %d wrong at byte %ld",
                        n, round, from, bad);
            }
            MPI_Barrier(MPI_COMM_WORLD); /* keep rounds apart (ANY_SOURCE) */
        }
    }
    free(sb);
    free(rb);
    free(req);
    free(sts);
    return t_finish();
}
