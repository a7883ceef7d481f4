/*
 * rma_atomics FLAVOR: small atomics from every rank to every rank at once,
 * in one MPI_Win_lock_all epoch, every total checked exactly (a lost or
 * doubled update shows). On a mapped window (allocate, shared) the
 * one-element integer ones are hardware atomics (rma_hwatom.h) and run
 * beside multi-element and floating-point accumulates under the segment's
 * mutex on the same elements; on create they are read-modify-writes by CMA
 * under the lock page's mutex; on dynamic (and with FTMPI_RMA_NO_SHM=1)
 * messages the target applies.
 *
 * Per iteration and target: MPI_Fetch_and_op(SUM) on c[0] (the values
 * returned by rank 0's counter are gathered: each of 0..P*R-1 exactly
 * once); on c[1] a one-element fetch-and-op or a three-element accumulate
 * over c[1..3]; a one-element MPI_Get_accumulate on c[2]; MPI_NO_OP reads
 * of c[0] (never decreasing); a compare-and-swap increment loop on i[0];
 * one-element and two-element int accumulates on i[1..2]; BXOR and BOR
 * fetch-and-ops on c[4], c[5]; MPI_REPLACE fetch-and-ops on c[6] (no torn
 * value; the last one written is some rank's last); doubles (the mutex
 * path on every window) on d[0..1].
 */
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fails;
#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "rma_atomics: check failed: " __VA_ARGS__);   \
            fprintf(stderr, "\n");                                        \
            fails++;                                                      \
        }                                                                 \
    } while (0)

/* One rank's part of the window, in bytes (disp_unit 1). */
typedef struct {
    int64_t c[8];
    int32_t i[4];
    double d[2];
} part_t;
#define OFF(f) ((MPI_Aint)offsetof(part_t, f))

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const char *flavor = argc > 1 ? argv[1] : "allocate";
    MPI_Init(&argc, &argv);
    int rank, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Win w;
    part_t *me = NULL, *own = NULL;
    MPI_Aint *base = calloc((size_t)P, sizeof(MPI_Aint)); /* dynamic: each part's address */
    int R = 120;
    if (!strcmp(flavor, "allocate"))
        MPI_Win_allocate(sizeof(part_t), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &me, &w);
    else if (!strcmp(flavor, "shared"))
        MPI_Win_allocate_shared(sizeof(part_t), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &me, &w);
    else if (!strcmp(flavor, "create")) {
        me = own = malloc(sizeof(part_t));
        MPI_Win_create(me, sizeof(part_t), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
        R = 60;
    } else { /* dynamic: the target applies messages */
        me = own = malloc(sizeof(part_t));
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
        MPI_Win_attach(w, me, sizeof(part_t));
        MPI_Aint a;
        MPI_Get_address(me, &a);
        MPI_Allgather(&a, 1, MPI_AINT, base, 1, MPI_AINT, MPI_COMM_WORLD);
        R = 30;
    }
    memset(me, 0, sizeof(part_t));
    MPI_Barrier(MPI_COMM_WORLD);
    int64_t *log = malloc((size_t)R * sizeof(int64_t)), *seen = calloc((size_t)P, sizeof(int64_t));
    int64_t one = 1, three[3] = {1, 1, 1}, got, x;
    int32_t two = 2, pair[2] = {2, 5}, iv, inc;
    double d1 = 1.0, dd[2] = {1.0, 3.0}, dgot;
    MPI_Win_lock_all(0, w);
    for (int it = 0; it < R; it++) {
        for (int k = 0; k < P; k++) {
            int t = (rank + k) % P; /* every rank starts at a different target */
            MPI_Aint b = base[t];
            MPI_Fetch_and_op(&one, &got, MPI_INT64_T, t, b + OFF(c[0]), MPI_SUM, w);
            MPI_Win_flush(t, w);
            if (t == 0)
                log[it] = got;
            if (it % 2 == 0)
                MPI_Fetch_and_op(&one, &x, MPI_INT64_T, t, b + OFF(c[1]), MPI_SUM, w);
            else
                MPI_Accumulate(three, 3, MPI_INT64_T, t, b + OFF(c[1]), 3, MPI_INT64_T, MPI_SUM, w);
            MPI_Get_accumulate(&one, 1, MPI_INT64_T, &x, 1, MPI_INT64_T, t, b + OFF(c[2]), 1,
                               MPI_INT64_T, MPI_SUM, w);
            MPI_Fetch_and_op(NULL, &got, MPI_INT64_T, t, b + OFF(c[0]), MPI_NO_OP, w);
            MPI_Win_flush(t, w);
            CHECK(got >= seen[t], "target %d: c[0] went back from %lld to %lld", t,
                  (long long)seen[t], (long long)got);
            seen[t] = got;
            /* a compare-and-swap increment: each failure is another's success */
            int tries = 0;
            MPI_Fetch_and_op(NULL, &iv, MPI_INT32_T, t, b + OFF(i[0]), MPI_NO_OP, w);
            MPI_Win_flush(t, w);
            for (;;) {
                int32_t was;
                inc = iv + 1;
                MPI_Compare_and_swap(&inc, &iv, &was, MPI_INT32_T, t, b + OFF(i[0]), w);
                MPI_Win_flush(t, w);
                if (was == iv || ++tries > 100000)
                    break;
                iv = was;
            }
            CHECK(tries <= 100000, "target %d: compare-and-swap never succeeded", t);
            MPI_Accumulate(&two, 1, MPI_INT32_T, t, b + OFF(i[1]), 1, MPI_INT32_T, MPI_SUM, w);
            if (it % 4 == 0)
                MPI_Accumulate(pair, 2, MPI_INT32_T, t, b + OFF(i[1]), 2, MPI_INT32_T, MPI_SUM, w);
            int64_t bit = (int64_t)1 << rank;
            MPI_Fetch_and_op(&bit, &x, MPI_INT64_T, t, b + OFF(c[4]), MPI_BXOR, w);
            MPI_Fetch_and_op(&bit, &x, MPI_INT64_T, t, b + OFF(c[5]), MPI_BOR, w);
            int64_t mine = (int64_t)rank * 1000 + it;
            MPI_Fetch_and_op(&mine, &got, MPI_INT64_T, t, b + OFF(c[6]), MPI_REPLACE, w);
            MPI_Fetch_and_op(&d1, &dgot, MPI_DOUBLE, t, b + OFF(d[0]), MPI_SUM, w);
            if (it % 2)
                MPI_Accumulate(dd, 2, MPI_DOUBLE, t, b + OFF(d[0]), 2, MPI_DOUBLE, MPI_SUM, w);
            MPI_Win_flush(t, w);
            CHECK(got == 0 || (got % 1000 < R && got / 1000 < P), "target %d: replaced %lld", t,
                  (long long)got);
        }
    }
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(w);
    int64_t PR = (int64_t)P * R;
    CHECK(me->c[0] == PR, "c[0] %lld, want %lld", (long long)me->c[0], (long long)PR);
    CHECK(me->c[1] == PR, "c[1] %lld, want %lld", (long long)me->c[1], (long long)PR);
    CHECK(me->c[2] == PR + P * (R / 2), "c[2] %lld, want %lld", (long long)me->c[2],
          (long long)(PR + P * (R / 2)));
    CHECK(me->c[3] == P * (R / 2), "c[3] %lld", (long long)me->c[3]);
    CHECK(me->c[4] == (R % 2 ? ((int64_t)1 << P) - 1 : 0), "c[4] %llx", (long long)me->c[4]);
    CHECK(me->c[5] == ((int64_t)1 << P) - 1, "c[5] %llx", (long long)me->c[5]);
    CHECK(me->c[6] % 1000 == R - 1 && me->c[6] / 1000 < P, "c[6] %lld: not a last replace",
          (long long)me->c[6]);
    CHECK(me->i[0] == PR, "i[0] %d, want %lld", me->i[0], (long long)PR);
    int64_t quarter = P * ((R + 3) / 4);
    CHECK(me->i[1] == 2 * PR + 2 * quarter, "i[1] %d", me->i[1]);
    CHECK(me->i[2] == 5 * quarter, "i[2] %d", me->i[2]);
    CHECK(me->d[0] == (double)(PR + P * (R / 2)), "d[0] %g", me->d[0]);
    CHECK(me->d[1] == 3.0 * P * (R / 2), "d[1] %g", me->d[1]);
    /* the counter's fetched values: 0..P*R-1, each once */
    int64_t *all = rank == 0 ? malloc((size_t)PR * sizeof(int64_t)) : NULL;
    MPI_Gather(log, R, MPI_INT64_T, all, R, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        qsort(all, (size_t)PR, sizeof(int64_t), cmp64);
        for (int64_t v = 0; v < PR; v++)
            if (all[v] != v) {
                CHECK(0, "fetched counter values: position %lld holds %lld", (long long)v,
                      (long long)all[v]);
                break;
            }
        free(all);
    }
    if (!strcmp(flavor, "dynamic"))
        MPI_Win_detach(w, me);
    MPI_Win_free(&w);
    free(own);
    free(log);
    free(seen);
    free(base);
    int bad = 0;
    MPI_Allreduce(&fails, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !bad)
        printf("rma_atomics %s: ok\n", flavor);
    MPI_Finalize();
    return fails ? 1 : 0;
}
