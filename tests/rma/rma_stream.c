/*
 * rma_stream: streams of small operations with one type, the case the short
 * paths take (rma/rma_fast.h on a mapped window, the gathered CMA calls of
 * rma/rma_cmaq.c on an MPI_Win_create window): every value checked, and
 * once the type and op are learnt every bad argument still returns its
 * class through the window's handler.
 *
 *   rma_stream allocate|create      (np >= 2; rank 0 is the origin)
 */
#include "../mpi/mpitest.h"

#define N 700 /* more than the CMA queue holds (256): it is sent midway */

static int seen_code = MPI_SUCCESS, seen_calls = 0;
static int reused; /* a global: its stores are not optimized away */

static void handler(MPI_Win *w, int *code, ...)
{
    (void)w;
    seen_code = *code;
    seen_calls++;
}

/* The call returned class want through the window's handler. */
#define EXPECT(call, want)                                                     \
    do {                                                                       \
        int before_ = seen_calls, cls_ = -1, rc_ = (call);                     \
        MPI_Error_class(rc_, &cls_);                                           \
        T_CHECK(cls_ == (want), "%s: class %d, want %d", #call, cls_, (want)); \
        T_CHECK(seen_calls == before_ + 1 && seen_code == rc_,                 \
                "%s: not raised on the window's handler", #call);              \
    } while (0)

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_name = "rma_stream";
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* MPI_WIN_NULL's */
    int create = argc > 1 && !strcmp(argv[1], "create");
    int ntarget = t_size - 1; /* ranks 1.. */
    /* each target: N ints (puts), then 8 doubles (accumulates) */
    MPI_Aint bytes = N * sizeof(int) + 8 * sizeof(double);
    char *mem = NULL;
    MPI_Win win;
    if (create) {
        mem = calloc(1, (size_t)bytes);
        T_MPI(MPI_Win_create(mem, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else {
        T_MPI(MPI_Win_allocate(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
        memset(mem, 0, (size_t)bytes);
    }
    MPI_Errhandler eh;
    T_MPI(MPI_Win_create_errhandler(handler, &eh));
    T_MPI(MPI_Win_set_errhandler(win, eh));
    MPI_Barrier(MPI_COMM_WORLD);
    int *src = malloc(N * sizeof(int)), *back = malloc(N * sizeof(int));
    double one = 1.0, two = 2.0;
    T_MPI(MPI_Win_lock_all(0, win));
    if (t_rank == 0) {
        /* puts to the targets in turn, one int each; then every value back */
        for (int i = 0; i < N; i++) {
            src[i] = 1000 * (i % ntarget + 1) + i;
            T_MPI(MPI_Put(&src[i], 1, MPI_INT, 1 + i % ntarget, (MPI_Aint)(i * sizeof(int)), 1,
                          MPI_INT, win));
        }
        T_MPI(MPI_Win_flush_all(win));
        for (int i = 0; i < N; i++)
            T_MPI(MPI_Get(&back[i], 1, MPI_INT, 1 + i % ntarget, (MPI_Aint)(i * sizeof(int)), 1,
                          MPI_INT, win));
        T_MPI(MPI_Win_flush_all(win));
        for (int i = 0; i < N; i++)
            T_CHECK(back[i] == src[i], "get %d: %d, want %d", i, back[i], src[i]);
        /* one variable reused for every put before the flush: erroneous MPI, but
         * small puts are copied at the call (rma_cmaq.c), so it works here */
        for (int i = 0; i < N; i += ntarget) { /* target 1's slots: one queue */
            reused = 3 * i + 1;
            T_MPI(MPI_Put(&reused, 1, MPI_INT, 1, (MPI_Aint)(i * sizeof(int)), 1, MPI_INT, win));
            reused = -1;
        }
        T_MPI(MPI_Win_flush(1, win));
        for (int i = 0; i < N; i += ntarget)
            T_MPI(MPI_Get(&back[i], 1, MPI_INT, 1, (MPI_Aint)(i * sizeof(int)), 1, MPI_INT, win));
        T_MPI(MPI_Win_flush(1, win));
        for (int i = 0; i < N; i += ntarget) {
            T_CHECK(back[i] == 3 * i + 1, "reused buffer %d: %d", i, back[i]);
            T_MPI(MPI_Put(&src[i], 1, MPI_INT, 1, (MPI_Aint)(i * sizeof(int)), 1, MPI_INT, win));
        } /* the first values back for the targets' check */
        T_MPI(MPI_Win_flush(1, win));
        /* accumulates: N of 1.0 and N/2 of 2.0 spread over 8 doubles of target 1 */
        MPI_Aint acc = N * sizeof(int);
        for (int i = 0; i < N; i++) {
            T_MPI(MPI_Accumulate(&one, 1, MPI_DOUBLE, 1, acc + (i % 8) * sizeof(double), 1,
                                 MPI_DOUBLE, MPI_SUM, win));
            if (i % 2)
                T_MPI(MPI_Accumulate(&two, 1, MPI_DOUBLE, 1, acc + (i % 8) * sizeof(double), 1,
                                     MPI_DOUBLE, MPI_SUM, win));
        }
        T_MPI(MPI_Win_flush(1, win));
        /* the type and op are learnt: bad arguments still fail, on the handler */
        int x = 7;
        EXPECT(MPI_Put(&x, 1, MPI_INT, t_size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
        EXPECT(MPI_Put(&x, 1, MPI_INT, 1, -4, 1, MPI_INT, win), MPI_ERR_DISP);
        EXPECT(MPI_Put(&x, 1, MPI_INT, 1, bytes - 2, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Get(&x, 1, MPI_INT, 1, bytes, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
        EXPECT(MPI_Put(&x, 2, MPI_INT, 1, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
        EXPECT(MPI_Put(&x, 1, MPI_DATATYPE_NULL, 1, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
        EXPECT(MPI_Accumulate(&one, 1, MPI_DOUBLE, 1, acc, 1, MPI_DOUBLE, MPI_BAND, win),
               MPI_ERR_OP);
        EXPECT(MPI_Accumulate(&one, 1, MPI_DOUBLE, 1, bytes, 1, MPI_DOUBLE, MPI_SUM, win),
               MPI_ERR_RMA_RANGE);
        T_MPI_CLASS(MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN);
        T_MPI(MPI_Put(&x, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    }
    T_MPI(MPI_Win_unlock_all(win));
    if (t_rank == 0) { /* no epoch open any more */
        int x = 7;
        EXPECT(MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
        EXPECT(MPI_Get(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
        EXPECT(MPI_Accumulate(&one, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, MPI_SUM, win),
               MPI_ERR_RMA_SYNC);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank > 0) { /* what arrived here */
        int *got = (int *)mem;
        for (int i = 0; i < N; i++)
            if (1 + i % ntarget == t_rank)
                T_CHECK(got[i] == 1000 * t_rank + i, "int %d: %d", i, got[i]);
        double *d = (double *)(mem + N * sizeof(int));
        for (int k = 0; k < 8 && t_rank == 1; k++) {
            double want = 0; /* i = k, k+8, ...: 1.0 each, 2.0 more when odd */
            for (int i = k; i < N; i += 8)
                want += i % 2 ? 3.0 : 1.0;
            T_CHECK(d[k] == want, "double %d: %g, want %g", k, d[k], want);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_Win_free(&win));
    MPI_Errhandler_free(&eh);
    if (create)
        free(mem);
    free(src);
    free(back);
    return t_finish();
}
