/*
 * p2p_waittest: completion functions and request life cycle.
 *  - Wait/Test on MPI_REQUEST_NULL and on an inactive persistent request:
 *    immediate, empty status (MPI_ANY_SOURCE, MPI_ANY_TAG, count 0), the
 *    persistent request stays allocated;
 *  - Waitany/Testany: all-null arrays give MPI_UNDEFINED; the index of the
 *    one request that completes; mixed null and inactive entries;
 *  - Waitall/Testall with null, inactive persistent and active requests;
 *    Testall stays false until everything is done;
 *  - Waitsome/Testsome: all-null gives MPI_UNDEFINED; completion sets are
 *    right and nothing is reported twice;
 *  - MPI_Request_free on an active send (eager and rendezvous) and on an
 *    active persistent send: the data is still delivered;
 *  - MPI_Request_get_status: flag false while pending, true after, the
 *    request is not freed and Wait then gives the same status.
 * Ranks 0 and 1 take part (0 receives, 1 sends).
 */
#include "mpitest.h"

#define GO 1000

static void check_empty(MPI_Status *st, const char *what)
{
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    T_CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && count == 0,
            "%s: status (%d, %d, %d), expected the empty status", what, st->MPI_SOURCE,
            st->MPI_TAG, count);
}

static void go(int to) { T_MPI(MPI_Send(NULL, 0, MPI_BYTE, to, GO, MPI_COMM_WORLD)); }
static void wait_go(int from) { T_MPI(MPI_Recv(NULL, 0, MPI_BYTE, from, GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE)); }

static void null_and_inactive(void)
{
    MPI_Request r = MPI_REQUEST_NULL, p;
    MPI_Status st;
    int flag = 0, idx = 5, out = 5, buf[2];
    int idxs[4];
    MPI_Status sts[4];
    T_MPI(MPI_Wait(&r, &st));
    check_empty(&st, "Wait(MPI_REQUEST_NULL)");
    T_MPI(MPI_Test(&r, &flag, &st));
    T_CHECK(flag, "Test(MPI_REQUEST_NULL): flag false");
    check_empty(&st, "Test(MPI_REQUEST_NULL)");

    T_MPI(MPI_Recv_init(buf, 2, MPI_INT, 0, 1, MPI_COMM_SELF, &p));
    T_MPI(MPI_Wait(&p, &st));
    check_empty(&st, "Wait(inactive persistent)");
    T_CHECK(p != MPI_REQUEST_NULL, "Wait freed an inactive persistent request");
    flag = 0;
    T_MPI(MPI_Test(&p, &flag, &st));
    T_CHECK(flag, "Test(inactive persistent): flag false");
    check_empty(&st, "Test(inactive persistent)");

    MPI_Request arr[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, p, MPI_REQUEST_NULL};
    T_MPI(MPI_Waitany(4, arr, &idx, &st));
    T_CHECK(idx == MPI_UNDEFINED, "Waitany over null/inactive: index %d, expected MPI_UNDEFINED", idx);
    flag = 0;
    idx = 5;
    T_MPI(MPI_Testany(4, arr, &idx, &flag, &st));
    T_CHECK(flag && idx == MPI_UNDEFINED, "Testany over null/inactive: flag %d index %d", flag, idx);
    T_MPI(MPI_Waitany(0, arr, &idx, &st));
    T_CHECK(idx == MPI_UNDEFINED, "Waitany(count 0): index %d", idx);
    T_MPI(MPI_Waitall(4, arr, sts));
    for (int i = 0; i < 4; i++)
        check_empty(&sts[i], "Waitall over null/inactive");
    flag = 0;
    T_MPI(MPI_Testall(4, arr, &flag, sts));
    T_CHECK(flag, "Testall over null/inactive: flag false");
    T_MPI(MPI_Waitsome(4, arr, &out, idxs, sts));
    T_CHECK(out == MPI_UNDEFINED, "Waitsome over null/inactive: outcount %d, expected MPI_UNDEFINED", out);
    out = 5;
    T_MPI(MPI_Testsome(4, arr, &out, idxs, sts));
    T_CHECK(out == MPI_UNDEFINED, "Testsome over null/inactive: outcount %d, expected MPI_UNDEFINED", out);
    T_CHECK(arr[2] == p, "a completion call changed an inactive persistent request");
    T_MPI(MPI_Request_free(&p));
}

/* Rank 0 posts receives for tags 0..3 from rank 1; rank 1 sends only tag 2
 * first, then the rest. */
static void any_and_some(void)
{
    if (t_rank == 1) {
        int v = 2;
        wait_go(0);
        T_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD));
        wait_go(0);
        for (v = 0; v < 4; v++)
            if (v != 2)
                T_MPI(MPI_Send(&v, 1, MPI_INT, 0, v, MPI_COMM_WORLD));
        /* round 2: Testall/Waitsome */
        wait_go(0);
        for (v = 10; v < 14; v++)
            T_MPI(MPI_Send(&v, 1, MPI_INT, 0, v, MPI_COMM_WORLD));
        return;
    }
    if (t_rank != 0)
        return;
    int v[4] = {-1, -1, -1, -1};
    MPI_Request r[4];
    MPI_Status st, sts[4];
    int idx = -1, flag = 1;
    for (int i = 0; i < 4; i++)
        T_MPI(MPI_Irecv(&v[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD, &r[i]));
    T_MPI(MPI_Testany(4, r, &idx, &flag, &st));
    T_CHECK(!flag, "Testany: flag true before anything was sent (index %d)", idx);
    go(1);
    T_MPI(MPI_Waitany(4, r, &idx, &st));
    T_CHECK(idx == 2, "Waitany: index %d, expected 2", idx);
    T_CHECK(idx >= 0 && idx < 4 && r[idx] == MPI_REQUEST_NULL, "Waitany did not free the completed request");
    T_STATUS(st, 1, 2, (int)sizeof(int));
    T_CHECK(v[2] == 2, "Waitany: value %d", v[2]);
    flag = 1;
    T_MPI(MPI_Testall(4, r, &flag, sts));
    T_CHECK(!flag, "Testall true while three receives are pending");
    go(1);
    int done = 0, seen[4] = {0, 0, 1, 0};
    double t0 = MPI_Wtime();
    while (done < 3 && MPI_Wtime() - t0 < 30) {
        int out = -1, idxs[4];
        T_MPI(MPI_Testsome(4, r, &out, idxs, sts));
        T_CHECK(out != MPI_UNDEFINED, "Testsome: MPI_UNDEFINED with active requests left");
        if (out == MPI_UNDEFINED)
            break;
        for (int k = 0; k < out; k++) {
            int i = idxs[k];
            T_CHECK(i >= 0 && i < 4 && !seen[i], "Testsome reported index %d twice or out of range", i);
            if (i < 0 || i >= 4)
                continue;
            seen[i] = 1;
            T_CHECK(sts[k].MPI_TAG == i && v[i] == i, "Testsome: index %d has tag %d value %d", i,
                    sts[k].MPI_TAG, v[i]);
            T_CHECK(r[i] == MPI_REQUEST_NULL, "Testsome did not free request %d", i);
        }
        done += out;
        if (out == 0)
            t_sleep_ms(1);
    }
    T_CHECK(done == 3, "Testsome completed %d of 3", done);

    /* round 2: Waitsome until all, with a null and an inactive entry */
    int w[6] = {-1, -1, -1, -1, -1, -1};
    MPI_Request q[6], p;
    MPI_Status qs[6];
    T_MPI(MPI_Recv_init(&w[5], 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &p));
    q[0] = MPI_REQUEST_NULL;
    q[5] = p;
    for (int i = 1; i < 5; i++)
        T_MPI(MPI_Irecv(&w[i], 1, MPI_INT, 1, 9 + i, MPI_COMM_WORLD, &q[i]));
    go(1);
    done = 0;
    int seen2[6] = {0};
    while (done < 4) {
        int out = -1, idxs[6];
        T_MPI(MPI_Waitsome(6, q, &out, idxs, qs));
        T_CHECK(out >= 1 && out != MPI_UNDEFINED, "Waitsome: outcount %d with active requests", out);
        if (out < 1 || out == MPI_UNDEFINED)
            break;
        for (int k = 0; k < out; k++) {
            int i = idxs[k];
            T_CHECK(i >= 1 && i <= 4 && !seen2[i], "Waitsome reported index %d (null/inactive/twice)", i);
            if (i < 1 || i > 4)
                continue;
            seen2[i] = 1;
            T_CHECK(w[i] == 9 + i && qs[k].MPI_TAG == 9 + i, "Waitsome: index %d value %d tag %d", i,
                    w[i], qs[k].MPI_TAG);
        }
        done += out;
    }
    int out = 0, idxs[6];
    T_MPI(MPI_Waitsome(6, q, &out, idxs, qs));
    T_CHECK(out == MPI_UNDEFINED, "Waitsome after all done: outcount %d", out);
    T_CHECK(q[5] == p, "Waitsome changed the inactive persistent request");
    T_MPI(MPI_Request_free(&p));
}

/* Waitall with an active persistent receive, a null and an Irecv. */
static void waitall_mixed(void)
{
    if (t_rank == 1) {
        int a = 41, b = 42;
        wait_go(0);
        T_MPI(MPI_Send(&a, 1, MPI_INT, 0, 41, MPI_COMM_WORLD));
        T_MPI(MPI_Send(&b, 1, MPI_INT, 0, 42, MPI_COMM_WORLD));
    } else if (t_rank == 0) {
        int a = 0, b = 0;
        MPI_Request r[3], p;
        MPI_Status sts[3];
        T_MPI(MPI_Recv_init(&a, 1, MPI_INT, 1, 41, MPI_COMM_WORLD, &p));
        T_MPI(MPI_Start(&p));
        r[0] = p;
        r[1] = MPI_REQUEST_NULL;
        T_MPI(MPI_Irecv(&b, 1, MPI_INT, 1, 42, MPI_COMM_WORLD, &r[2]));
        go(1);
        T_MPI(MPI_Waitall(3, r, sts));
        T_CHECK(a == 41 && b == 42, "Waitall: values %d %d", a, b);
        T_STATUS(sts[0], 1, 41, (int)sizeof(int));
        check_empty(&sts[1], "Waitall null entry");
        T_STATUS(sts[2], 1, 42, (int)sizeof(int));
        T_CHECK(r[0] == p && r[1] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL,
                "Waitall: persistent request must stay, others become null");
        T_MPI(MPI_Request_free(&p));
    }
}

/* Request_free on active sends; the receiver confirms each. */
static void free_active(void)
{
    static const int sizes[] = {16, 4096, 4097, 1 << 20};
    for (int i = 0; i < 4; i++) {
        int n = sizes[i];
        if (t_rank == 1) {
            char *b = t_malloc((size_t)n);
            t_fill(b, (size_t)n, 60u + (unsigned)i);
            MPI_Request r;
            T_MPI(MPI_Isend(b, n, MPI_BYTE, 0, 60 + i, MPI_COMM_WORLD, &r));
            T_MPI(MPI_Request_free(&r));
            T_CHECK(r == MPI_REQUEST_NULL, "Request_free did not set MPI_REQUEST_NULL");
            /* persistent: start, then free while active */
            T_MPI(MPI_Send_init(b, n, MPI_BYTE, 0, 70 + i, MPI_COMM_WORLD, &r));
            T_MPI(MPI_Start(&r));
            T_MPI(MPI_Request_free(&r));
            wait_go(0); /* both delivered: the buffer may go */
            free(b);
        } else if (t_rank == 0) {
            char *b = t_malloc((size_t)n);
            MPI_Status st;
            t_sleep_ms(2); /* let the sender free its requests first */
            T_MPI(MPI_Recv(b, n, MPI_BYTE, 1, 60 + i, MPI_COMM_WORLD, &st));
            T_STATUS(st, 1, 60 + i, n);
            T_CHECK(t_verify(b, (size_t)n, 60u + (unsigned)i) < 0, "freed Isend of %d bytes: data wrong", n);
            memset(b, 0, (size_t)n);
            T_MPI(MPI_Recv(b, n, MPI_BYTE, 1, 70 + i, MPI_COMM_WORLD, &st));
            T_STATUS(st, 1, 70 + i, n);
            T_CHECK(t_verify(b, (size_t)n, 60u + (unsigned)i) < 0,
                    "freed persistent send of %d bytes: data wrong", n);
            go(1);
            free(b);
        }
    }
}

static void get_status(void)
{
    if (t_rank == 1) {
        int v = 77;
        wait_go(0);
        T_MPI(MPI_Send(&v, 1, MPI_INT, 0, 80, MPI_COMM_WORLD));
    } else if (t_rank == 0) {
        int v = 0, flag = 1;
        MPI_Request r;
        MPI_Status st, st2;
        T_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
        T_CHECK(flag, "Request_get_status(MPI_REQUEST_NULL): flag false");
        T_MPI(MPI_Irecv(&v, 1, MPI_INT, 1, 80, MPI_COMM_WORLD, &r));
        flag = 1;
        T_MPI(MPI_Request_get_status(r, &flag, &st));
        T_CHECK(!flag, "Request_get_status: flag true before the message was sent");
        go(1);
        double t0 = MPI_Wtime();
        flag = 0;
        while (!flag && MPI_Wtime() - t0 < 30) {
            T_MPI(MPI_Request_get_status(r, &flag, &st));
            if (!flag)
                t_sleep_ms(1);
        }
        T_CHECK(flag, "Request_get_status never saw the receive complete");
        T_CHECK(r != MPI_REQUEST_NULL, "Request_get_status freed the request");
        T_STATUS(st, 1, 80, (int)sizeof(int));
        T_CHECK(v == 77, "value %d", v);
        T_MPI(MPI_Wait(&r, &st2));
        T_CHECK(r == MPI_REQUEST_NULL, "Wait after Request_get_status did not free the request");
        T_STATUS(st2, 1, 80, (int)sizeof(int));
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    null_and_inactive();
    if (t_size >= 2) {
        MPI_Barrier(MPI_COMM_WORLD);
        any_and_some();
        MPI_Barrier(MPI_COMM_WORLD);
        waitall_mixed();
        MPI_Barrier(MPI_COMM_WORLD);
        free_active();
        MPI_Barrier(MPI_COMM_WORLD);
        get_status();
    }
    return t_finish();
}
