/*
 * MPI_Dims_create returns the most balanced factorization (issue 19):
 * the smallest difference between the largest and the smallest free
 * dimension, ties broken by the smallest sum of squares (docs/coverage.md),
 * in non-increasing order. Checked against a brute force that lists every
 * non-increasing factorization, over a sweep of nnodes and ndims, with
 * and without fixed entries; plus the cases of the issue and of MPICH's
 * and Open MPI's reports (5616 in 4 dims: 13x9x8x6; 72 in 2: 9x8; 25 in
 * 2: 5x5), and large inputs that must finish.
 */
#include "../mpi/mpitest.h"

#define MAXK 16

typedef struct {
    int k, best[MAXK], cur[MAXK], found;
    long long best_sq;
    int best_spread;
} brute_t;

static void brute(brute_t *b, int m, int depth, int maxd)
{
    if (depth == b->k - 1) {
        if (m > maxd)
            return;
        b->cur[depth] = m;
        long long sq = 0;
        for (int i = 0; i < b->k; i++)
            sq += (long long)b->cur[i] * b->cur[i];
        int spread = b->cur[0] - m;
        if (!b->found || spread < b->best_spread || (spread == b->best_spread && sq < b->best_sq)) {
            b->found = 1;
            b->best_spread = spread;
            b->best_sq = sq;
            memcpy(b->best, b->cur, sizeof b->cur);
        }
        return;
    }
    for (int d = maxd < m ? maxd : m; d >= 1; d--)
        if (m % d == 0) {
            b->cur[depth] = d;
            brute(b, m / d, depth + 1, d);
        }
}

/* dims[] (with fixed entries) against the brute force over the free ones. */
static int check(int nnodes, int ndims, const int *fixed)
{
    int dims[MAXK], free_n = 0, prod = 1;
    for (int i = 0; i < ndims; i++) {
        dims[i] = fixed ? fixed[i] : 0;
        if (dims[i])
            prod *= dims[i];
        else
            free_n++;
    }
    int rc = MPI_Dims_create(nnodes, ndims, dims);
    if (rc != MPI_SUCCESS) {
        T_FAIL("Dims_create(%d, %d) returned %d", nnodes, ndims, rc);
        return 1;
    }
    if (free_n == 0)
        return 0;
    brute_t b = {.k = free_n};
    brute(&b, nnodes / prod, 0, nnodes / prod);
    for (int i = 0, j = 0; i < ndims; i++) {
        int want = fixed && fixed[i] ? fixed[i] : b.best[j++];
        if (dims[i] != want) {
            char got[128] = "", exp[128] = "";
            for (int q = 0, r = 0; q < ndims; q++) {
                snprintf(got + strlen(got), sizeof got - strlen(got), "%s%d", q ? "x" : "", dims[q]);
                snprintf(exp + strlen(exp), sizeof exp - strlen(exp), "%s%d", q ? "x" : "",
                         fixed && fixed[q] ? fixed[q] : b.best[r++]);
            }
            T_FAIL("Dims_create(%d, %d): %s, brute force %s", nnodes, ndims, got, exp);
            return 1;
        }
    }
    return 0;
}

static void expect(int nnodes, int ndims, const int *want)
{
    int dims[MAXK] = {0};
    T_MPI(MPI_Dims_create(nnodes, ndims, dims));
    for (int i = 0; i < ndims; i++)
        T_CHECK(dims[i] == want[i], "Dims_create(%d, %d): dim %d is %d, expected %d", nnodes,
                ndims, i, dims[i], want[i]);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    expect(5616, 4, (int[]){13, 9, 8, 6});
    expect(72, 2, (int[]){9, 8});
    expect(25, 2, (int[]){5, 5});
    expect(16, 3, (int[]){4, 2, 2});
    expect(361, 2, (int[]){19, 19});
    /* The sweep is split over the ranks. */
    int fails = 0;
    for (int n = 1 + t_rank; n <= 4000 && fails < 20; n += t_size)
        for (int k = 1; k <= 5; k++)
            fails += check(n, k, NULL);
    int fixed[4] = {0, 3, 0, 0};
    for (int n = 3 + 3 * t_rank; n <= 6000 && fails < 20; n += 3 * t_size) {
        fails += check(n, 4, fixed);
        fails += check(n, 2, (int[]){0, 3});
    }
    /* Large inputs: must be quick (no time is asserted). */
    int big[][2] = {{1 << 30, 10}, {720720, 6}, {2147483647, 3}, {1 << 24, 8}, {1073741824, 2}};
    for (int i = 0; i < 5; i++) {
        int dims[MAXK] = {0};
        T_MPI(MPI_Dims_create(big[i][0], big[i][1], dims));
        long long prod = 1;
        for (int j = 0; j < big[i][1]; j++) {
            prod *= dims[j];
            T_CHECK(j == 0 || dims[j] <= dims[j - 1], "Dims_create(%d, %d) not non-increasing",
                    big[i][0], big[i][1]);
        }
        T_CHECK(prod == big[i][0], "Dims_create(%d, %d): product %lld", big[i][0], big[i][1], prod);
    }
    return t_finish();
}
