/*
 * coll_sm_order: the shared-memory reductions combine in one order,
 * x0 + (x1 + (... + x(p-1))), whatever path the call takes: one round
 * where every member reduces the whole vector (short vectors), slices
 * reduced by all members (medium), several chunks of one buffer each
 * (long, or FTMPI_COLL_SM_CHUNK small), MPI_Reduce to a root, and
 * MPI_Reduce_scatter_block. Doubles of mixed signs and magnitudes make
 * every other order give other bits; each result is compared bit for bit
 * with that order computed locally from every rank's input. (The
 * point-to-point algorithms pair the inputs otherwise: docs/collectives.md,
 * "Summation order".)
 */
#include "coll_test.h"

#include <math.h>

#define MAXN 16384 /* doubles: 128 KiB, 8 chunks of the default buffer */

/* Rank r's element i: mixed signs, magnitudes 1e-8 .. 1e8. */
static double val(int r, long i)
{
    long m = (r * 7919L + i * 104729L) % 1000003L;
    double v = (double)m * pow(10.0, (double)((r * 5 + i) % 17 - 8));
    return (r + i) % 2 ? -v : v;
}

static double ref(int p, long i)
{
    double acc = val(p - 1, i);
    for (int k = p - 2; k >= 0; k--)
        acc = val(k, i) + acc;
    return acc;
}

static void check(const char *what, const double *got, long lo, long n, int p)
{
    for (long i = 0; i < n; i++) {
        double want = ref(p, lo + i);
        if (memcmp(&got[i], &want, sizeof(double)) != 0) {
            T_FAIL("%s: element %ld is %.17g, want %.17g (x0 + (x1 + ...))", what, lo + i,
                   got[i], want);
            return;
        }
    }
}

/* The bytes of one buffer of the segment (FTMPI_COLL_SM_CHUNK, 16 KiB). */
static long sm_chunk(void)
{
    const char *e = getenv("FTMPI_COLL_SM_CHUNK");
    if (!e || !*e)
        return 16384;
    char *end;
    long v = strtol(e, &end, 10);
    return *end == 'K' || *end == 'k' ? v << 10 : v;
}

static void expect_sm(const char *kind)
{
    char alg[32];
    unsigned long n;
    T_MPI(FTMPI_Coll_last_algorithm(kind, alg, (int)sizeof(alg), &n));
    T_CHECK(!strcmp(alg, "sm"), "%s with sm forced ran '%s'", kind, alg);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int p = t_size, me = t_rank;
    static double in[MAXN], out[MAXN];
    static const long counts[] = {1, 3, 64, 1000, 2048, 5000, MAXN};
    t_force("allreduce=sm,reduce=sm,reduce_scatter=sm");
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        long n = counts[c];
        for (long i = 0; i < n; i++)
            in[i] = val(me, i);
        char what[64];
        snprintf(what, sizeof(what), "allreduce of %ld", n);
        T_MPI(MPI_Allreduce(in, out, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        if (p > 1)
            expect_sm("allreduce");
        check(what, out, 0, n, p);
        int root = (int)(c % (size_t)p);
        snprintf(what, sizeof(what), "reduce of %ld to %d", n, root);
        T_MPI(MPI_Reduce(in, out, (int)n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD));
        if (me == root)
            check(what, out, 0, n, p);
        long blk = n / p;
        if (blk > 0 && blk * p * (long)sizeof(double) <= sm_chunk()) {
            snprintf(what, sizeof(what), "reduce_scatter_block of %ld", blk);
            T_MPI(MPI_Reduce_scatter_block(in, out, (int)blk, MPI_DOUBLE, MPI_SUM,
                                           MPI_COMM_WORLD));
            if (p > 1)
                expect_sm("reduce_scatter");
            check(what, out, blk * me, blk, p);
        }
    }
    t_force(NULL);
    return t_finish();
}
