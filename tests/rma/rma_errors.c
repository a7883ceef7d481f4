/*
 * rma_errors: bad arguments to the one-sided calls return the right error
 * class, raised on the window's error handler (a user handler that records
 * what it saw), and the window stays usable afterwards.
 */
#include "../mpi/mpitest.h"

static int seen_code = MPI_SUCCESS, seen_calls = 0;
static MPI_Win seen_win = MPI_WIN_NULL;

static void handler(MPI_Win *w, int *code, ...)
{
    seen_win = *w;
    seen_code = *code;
    seen_calls++;
}

static void user_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in; (void)inout; (void)len; (void)dt;
}

/* The call returned a code of class want, and the handler saw it. */
#define EXPECT(call, want)                                                          \
    do {                                                                            \
        int before = seen_calls, cls = -1;                                          \
        int rc_ = (call);                                                           \
        MPI_Error_class(rc_, &cls);                                                 \
        T_CHECK(cls == (want), "%s: class %d, want %d", #call, cls, (want));        \
        T_CHECK(seen_calls == before + 1 && seen_code == rc_ && seen_win == win,    \
                "%s: the window's handler was not called with it", #call);          \
    } while (0)

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_name = "rma_errors";
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int buf[16] = {0}, cls;
    MPI_Win win, bad;
    /* Constructor errors go to the communicator's handler. */
    MPI_Error_class(MPI_Win_create(buf, -1, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &bad), &cls);
    T_CHECK(cls == MPI_ERR_SIZE, "negative size: %d", cls);
    MPI_Error_class(MPI_Win_create(buf, 64, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &bad), &cls);
    T_CHECK(cls == MPI_ERR_DISP, "disp_unit 0: %d", cls);
    MPI_Error_class(MPI_Win_create(buf, 64, 4, MPI_INFO_NULL, MPI_COMM_NULL, &bad), &cls);
    T_CHECK(cls == MPI_ERR_COMM, "MPI_COMM_NULL: %d", cls);
    MPI_Error_class(MPI_Win_fence(0, MPI_WIN_NULL), &cls);
    T_CHECK(cls == MPI_ERR_WIN, "MPI_WIN_NULL: %d", cls);

    T_MPI(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_Errhandler eh, got;
    T_MPI(MPI_Win_create_errhandler(handler, &eh));
    T_MPI(MPI_Win_set_errhandler(win, eh));
    T_MPI(MPI_Win_get_errhandler(win, &got));
    T_CHECK(got == eh, "get_errhandler");
    MPI_Errhandler_free(&got);
    /* A communicator handler is not a window handler. */
    MPI_Errhandler ceh;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)handler, &ceh);
    EXPECT(MPI_Win_set_errhandler(win, ceh), MPI_ERR_ARG);
    MPI_Errhandler_free(&ceh);

    int peer = (t_rank + 1) % t_size, v = 1;
    MPI_Op op;
    MPI_Op_create(user_op, 1, &op);
    EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock(peer, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_flush(peer, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_lock(999, peer, 0, win), MPI_ERR_LOCKTYPE);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, t_size, 0, win), MPI_ERR_RANK);
    EXPECT(MPI_Win_fence(12345, win), MPI_ERR_ASSERT);
    /* MPI-4.0: any window; a created window's memory is not shared here */
    MPI_Aint qsize = -1;
    int qunit = -1;
    void *qbase = buf;
    T_MPI(MPI_Win_shared_query(win, 0, &qsize, &qunit, &qbase));
    T_CHECK(qsize == 0 && qbase == NULL, "shared_query of a created window: size %ld base %p",
            (long)qsize, qbase);
    EXPECT(MPI_Win_attach(win, buf, 4), MPI_ERR_RMA_FLAVOR);

    T_MPI(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win));
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Put(&v, 1, MPI_INT, t_size + 3, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 16, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Put(&v, 2, MPI_INT, peer, 15, 2, MPI_INT, win), MPI_ERR_RMA_RANGE);
    EXPECT(MPI_Put(&v, 1, MPI_INT, peer, -1, 1, MPI_INT, win), MPI_ERR_DISP);
    EXPECT(MPI_Put(&v, -1, MPI_INT, peer, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    EXPECT(MPI_Put(&v, 1, MPI_DATATYPE_NULL, peer, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    EXPECT(MPI_Put(&v, 1, MPI_INT, peer, 0, 1, MPI_DOUBLE, win), MPI_ERR_TYPE);
    EXPECT(MPI_Accumulate(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, op, win), MPI_ERR_OP);
    EXPECT(MPI_Accumulate(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_OP_NULL, win), MPI_ERR_OP);
    EXPECT(MPI_Accumulate(&v, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_MAXLOC, win), MPI_ERR_OP);
    EXPECT(MPI_Compare_and_swap(&v, &v, &v, MPI_2INT, peer, 0, win), MPI_ERR_TYPE);
    EXPECT(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
    /* Still usable after all that. */
    T_MPI(MPI_Put(&v, 1, MPI_INT, peer, 3, 1, MPI_INT, win));
    T_MPI(MPI_Win_unlock(peer, win));
    MPI_Barrier(MPI_COMM_WORLD);
    T_CHECK(buf[3] == 1, "put after errors: %d", buf[3]);

    int before = seen_calls;
    T_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    T_CHECK(seen_calls == before + 1 && seen_code == MPI_ERR_OTHER && seen_win == win,
            "Win_call_errhandler did not call the handler");
    MPI_Op_free(&op);
    T_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&eh);
    T_MPI(MPI_Win_free(&win));
    return t_finish();
}
