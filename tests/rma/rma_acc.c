/*
 * rma_acc: accumulates that the origin applies itself (a read-modify-write
 * by CMA under the window's mutex on an MPI_Win_create window, docs/rma.md)
 * mixed with those that go as messages (small plain accumulates, applied
 * by the target under the same mutex):
 *  1. atomicity: every rank adds, at once, large (8 KiB, by CMA) and small
 *     (one element, a message) accumulates and fetch-and-ops to every
 *     target's same elements; every element must hold the exact total
 *     (a lost update would show);
 *  2. ordering (accumulate_ordering rar,raw,war,waw): a small replace
 *     (message) then a large sum (CMA) to the same element, the reverse,
 *     and a small sum then a fetch-and-op with MPI_NO_OP;
 *  3. get-accumulate of 4 KiB (the old values come back), a strided
 *     target type (one element in two), compare-and-swap, MPI_REPLACE.
 *   rma_acc FLAVOR     create | allocate
 * Prints "rma_acc: ok" from every rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 1024     /* longs per window part: 8 KiB */
#define ROUNDS 40
static int fails;
#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "rma_acc: check failed: " __VA_ARGS__);   \
            fprintf(stderr, "\n");                                    \
            fails++;                                                  \
        }                                                             \
    } while (0)

static void atomicity(MPI_Win w, long *mem, int rank, int size)
{
    long ones[N], one = 1, old;
    for (int i = 0; i < N; i++)
        ones[i] = 1;
    MPI_Win_lock_all(0, w);
    for (int k = 0; k < ROUNDS; k++)
        for (int t = 0; t < size; t++) {
            MPI_Accumulate(ones, N, MPI_LONG, t, 0, N, MPI_LONG, MPI_SUM, w);
            MPI_Accumulate(&one, 1, MPI_LONG, t, k % N, 1, MPI_LONG, MPI_SUM, w);
            MPI_Fetch_and_op(&one, &old, MPI_LONG, t, N - 1, MPI_SUM, w);
        }
    MPI_Win_flush_all(w);
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w); /* the public copy is ours to read */
    for (int i = 0; i < N; i++) {
        long want = (long)ROUNDS * size + (i < ROUNDS ? size : 0) + (i == N - 1 ? ROUNDS * size : 0);
        CHECK(mem[i] == want, "atomicity: element %d is %ld, want %ld", i, mem[i], want);
    }
    MPI_Win_unlock(rank, w);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void ordering(MPI_Win w, long *mem, int rank, int size)
{
    long big[N], five = 5, one = 1, got = -1, none = 0;
    int t = (rank + 1) % size;
    for (int i = 0; i < N; i++)
        big[i] = 100;
    memset(mem, 0, N * sizeof(long));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w);
    MPI_Accumulate(&five, 1, MPI_LONG, t, 0, 1, MPI_LONG, MPI_REPLACE, w); /* message */
    MPI_Accumulate(big, N, MPI_LONG, t, 0, N, MPI_LONG, MPI_SUM, w);       /* CMA */
    MPI_Accumulate(big, N, MPI_LONG, t, 0, N, MPI_LONG, MPI_SUM, w);
    MPI_Accumulate(&five, 1, MPI_LONG, t, 1, 1, MPI_LONG, MPI_REPLACE, w); /* after it */
    MPI_Accumulate(&one, 1, MPI_LONG, t, 2, 1, MPI_LONG, MPI_SUM, w);
    MPI_Fetch_and_op(&none, &got, MPI_LONG, t, 2, MPI_NO_OP, w);
    MPI_Win_unlock(t, w);
    CHECK(got == 201, "ordering: a sum then a fetch saw %ld, want 201", got);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mem[0] == 205, "ordering: replace then sum gave %ld, want 205", mem[0]);
    CHECK(mem[1] == 5, "ordering: sum then replace gave %ld, want 5", mem[1]);
    CHECK(mem[3] == 200, "ordering: element 3 is %ld, want 200", mem[3]);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void others(MPI_Win w, long *mem, int rank, int size)
{
    int t = (rank + 1) % size;
    long src[N], res[N], cmp = 7, nv = 9, old = -1;
    for (int i = 0; i < N; i++) {
        mem[i] = i;
        src[i] = 1000;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, w);
    /* 4 KiB of old values back, the sum applied */
    MPI_Get_accumulate(src, N / 2, MPI_LONG, res, N / 2, MPI_LONG, t, 0, N / 2, MPI_LONG, MPI_SUM,
                       w);
    MPI_Win_flush(t, w);
    for (int i = 0; i < N / 2; i++)
        CHECK(res[i] == i, "get_accumulate: old value %d is %ld", i, res[i]);
    /* a strided target: the odd elements of the second half */
    MPI_Datatype odd;
    MPI_Type_vector(N / 4, 1, 2, MPI_LONG, &odd);
    MPI_Type_commit(&odd);
    MPI_Accumulate(src, N / 4, MPI_LONG, t, N / 2 + 1, 1, odd, MPI_SUM, w);
    MPI_Type_free(&odd);
    /* compare-and-swap: a miss, then a hit */
    MPI_Compare_and_swap(&nv, &cmp, &old, MPI_LONG, t, 3, w);
    MPI_Win_flush(t, w);
    CHECK(old == 1003, "compare_and_swap (miss): old %ld", old);
    cmp = 1003;
    MPI_Compare_and_swap(&nv, &cmp, &old, MPI_LONG, t, 3, w);
    /* MPI_REPLACE of 4 KiB over elements 4..515 */
    MPI_Accumulate(src, N / 2, MPI_LONG, t, 4, N / 2, MPI_LONG, MPI_REPLACE, w);
    MPI_Win_unlock(t, w);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) {
        long want = i < N / 2 ? i + 1000 : (i % 2 ? i + 1000 : i);
        if (i == 3)
            want = 9;
        else if (i >= 4 && i < 4 + N / 2)
            want = 1000;
        CHECK(mem[i] == want, "others: element %d is %ld, want %ld", i, mem[i], want);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    const char *flavor = argc > 1 ? argv[1] : "create";
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long *mem, *created = NULL;
    MPI_Win w;
    if (!strcmp(flavor, "allocate")) {
        MPI_Win_allocate(N * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    } else {
        created = mem = calloc(N, sizeof(long));
        MPI_Win_create(mem, N * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    }
    memset(mem, 0, N * sizeof(long));
    MPI_Barrier(MPI_COMM_WORLD);
    atomicity(w, mem, rank, size);
    ordering(w, mem, rank, size);
    others(w, mem, rank, size);
    MPI_Win_free(&w);
    free(created);
    if (!fails)
        (void)!write(1, "rma_acc: ok\n", 12);
    MPI_Finalize();
    return fails ? 1 : 0;
}
