/*
 * p2p_grequest: generalized requests (MPI_Grequest_start/complete).
 *  - Test is false until MPI_Grequest_complete; Wait then calls query_fn
 *    (whose status is what Wait returns) and free_fn, once each;
 *  - completion from another thread while the main thread is in MPI_Wait
 *    (MPI_THREAD_MULTIPLE);
 *  - Waitall over a generalized and an ordinary request;
 *  - MPI_Cancel calls cancel_fn with complete = 0 before completion;
 *  (MPI_Request_free of a generalized request: bug_grequest_free.c.)
 * Run as `p2p_grequest` (MPI_Init; query_fn calls MPI_Status_set_elements)
 * and as `p2p_grequest mt` (MPI_THREAD_MULTIPLE; adds the completion from
 * another thread; query_fn calls no MPI function, see
 * bug_grequest_mt_lock.c for why).
 */
#include "mpitest.h"

#include <pthread.h>

typedef struct {
    int queried, freed, cancelled, cancel_complete_arg;
    int tag;
} gstate_t;

static int mt_mode;

static int query_fn(void *extra, MPI_Status *st)
{
    gstate_t *g = extra;
    g->queried++;
    st->MPI_SOURCE = 3;
    st->MPI_TAG = g->tag;
    if (!mt_mode) {
        MPI_Status_set_elements(st, MPI_INT, 5);
        MPI_Status_set_cancelled(st, 0);
    }
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    ((gstate_t *)extra)->freed++;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    gstate_t *g = extra;
    g->cancelled++;
    g->cancel_complete_arg = complete;
    return MPI_SUCCESS;
}

static void *completer(void *arg)
{
    t_sleep_ms(50);
    MPI_Grequest_complete(*(MPI_Request *)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    t_set_name(argv[0]);
    mt_mode = argc > 1 && strcmp(argv[1], "mt") == 0;
    if (mt_mode)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);

    gstate_t g = {0};
    g.tag = 17;
    MPI_Request r;
    MPI_Status st;
    int flag = 1, count = -1;
    T_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &r));
    T_MPI(MPI_Test(&r, &flag, &st));
    T_CHECK(!flag, "Test true on a generalized request not yet completed");
    T_CHECK(g.freed == 0, "free_fn called before completion");
    T_MPI(MPI_Grequest_complete(r));
    T_MPI(MPI_Wait(&r, &st));
    T_CHECK(r == MPI_REQUEST_NULL, "Wait did not free the generalized request");
    T_CHECK(g.queried >= 1 && g.freed == 1, "query_fn called %d times, free_fn %d times", g.queried, g.freed);
    MPI_Get_count(&st, MPI_INT, &count);
    if (mt_mode)
        count = 5; /* query_fn did not set it */
    T_CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 17 && count == 5,
            "status from query_fn: (%d, %d, count %d), expected (3, 17, 5)", st.MPI_SOURCE, st.MPI_TAG, count);

    /* completion from another thread while Wait blocks */
    if (provided == MPI_THREAD_MULTIPLE) {
        gstate_t g2 = {0};
        g2.tag = 18;
        pthread_t th;
        T_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g2, &r));
        MPI_Request copy = r;
        pthread_create(&th, NULL, completer, &copy);
        double t0 = MPI_Wtime();
        T_MPI(MPI_Wait(&r, &st));
        double dt = MPI_Wtime() - t0;
        pthread_join(th, NULL);
        T_CHECK(dt >= 0.03, "Wait returned after %.3f s, before the other thread completed the request", dt);
        T_CHECK(st.MPI_TAG == 18 && g2.freed == 1, "threaded completion: tag %d, freed %d", st.MPI_TAG, g2.freed);
    }

    /* Waitall over a generalized request and a self receive */
    {
        gstate_t g3 = {0};
        g3.tag = 19;
        MPI_Request rs[2];
        MPI_Status sts[2];
        int v = 0, w = 42;
        T_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g3, &rs[0]));
        T_MPI(MPI_Irecv(&v, 1, MPI_INT, 0, 4, MPI_COMM_SELF, &rs[1]));
        T_MPI(MPI_Send(&w, 1, MPI_INT, 0, 4, MPI_COMM_SELF));
        flag = 1;
        T_MPI(MPI_Testall(2, rs, &flag, sts));
        T_CHECK(!flag, "Testall true with an incomplete generalized request");
        T_MPI(MPI_Grequest_complete(rs[0]));
        T_MPI(MPI_Waitall(2, rs, sts));
        T_CHECK(v == 42 && sts[0].MPI_TAG == 19 && sts[1].MPI_TAG == 4 && g3.freed == 1,
                "Waitall with a generalized request: v %d tags %d %d freed %d", v, sts[0].MPI_TAG,
                sts[1].MPI_TAG, g3.freed);
    }

    /* cancel */
    {
        gstate_t g4 = {0};
        g4.tag = 20;
        T_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g4, &r));
        T_MPI(MPI_Cancel(&r));
        T_CHECK(g4.cancelled == 1 && g4.cancel_complete_arg == 0,
                "cancel_fn: called %d times, complete argument %d (expected 1, 0)", g4.cancelled,
                g4.cancel_complete_arg);
        T_MPI(MPI_Grequest_complete(r));
        T_MPI(MPI_Wait(&r, &st));
        T_CHECK(g4.freed == 1, "free_fn after cancel: %d calls", g4.freed);
    }

    return t_finish();
}
