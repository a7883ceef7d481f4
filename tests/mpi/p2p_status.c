/*
 * p2p_status: wildcards and status contents.
 *  - MPI_ANY_SOURCE / MPI_ANY_TAG / both: status names the real sender/tag
 *  - MPI_PROC_NULL: sends and receives complete at once; the receive status
 *    is (MPI_PROC_NULL, MPI_ANY_TAG, count 0), blocking and non-blocking
 *  - MPI_Get_count / MPI_Get_elements in several datatypes, MPI_UNDEFINED
 *    when the byte count is not a whole number of elements
 *  - MPI_ERR_TRUNCATE (MPI_ERRORS_RETURN on the communicator) for a receive
 *    buffer that is too small, eager and rendezvous, blocking and
 *    non-blocking; the next message still arrives intact.
 */
#include "mpitest.h"

static void check_proc_null_status(MPI_Status *st, const char *what)
{
    int count = -1;
    T_CHECK(st->MPI_SOURCE == MPI_PROC_NULL, "%s: status source %d, expected MPI_PROC_NULL",
            what, st->MPI_SOURCE);
    T_CHECK(st->MPI_TAG == MPI_ANY_TAG, "%s: status tag %d, expected MPI_ANY_TAG", what,
            st->MPI_TAG);
    MPI_Get_count(st, MPI_INT, &count);
    T_CHECK(count == 0, "%s: count %d, expected 0", what, count);
}

static void test_proc_null(void)
{
    int buf[4] = {1, 2, 3, 4};
    MPI_Status st;
    MPI_Request r;
    T_MPI(MPI_Send(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    T_MPI(MPI_Ssend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    T_MPI(MPI_Rsend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    T_MPI(MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, "MPI_Recv from MPI_PROC_NULL");
    T_CHECK(buf[0] == 1 && buf[3] == 4, "MPI_Recv from MPI_PROC_NULL changed the buffer");
    T_MPI(MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &r));
    T_MPI(MPI_Wait(&r, &st));
    check_proc_null_status(&st, "MPI_Irecv from MPI_PROC_NULL");
    T_MPI(MPI_Isend(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r));
    int flag = 0;
    for (int i = 0; i < 1000 && !flag; i++)
        T_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    T_CHECK(flag, "MPI_Isend to MPI_PROC_NULL does not complete");
    T_MPI(MPI_Probe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, "MPI_Probe of MPI_PROC_NULL");
    flag = 0;
    T_MPI(MPI_Iprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &st));
    T_CHECK(flag, "MPI_Iprobe of MPI_PROC_NULL: flag false");
    check_proc_null_status(&st, "MPI_Iprobe of MPI_PROC_NULL");
    T_MPI(MPI_Sendrecv(buf, 4, MPI_INT, MPI_PROC_NULL, 5, buf, 4, MPI_INT, MPI_PROC_NULL, 5,
                       MPI_COMM_WORLD, &st));
    check_proc_null_status(&st, "MPI_Sendrecv with MPI_PROC_NULL");
}

/* Every rank but 0 sends (rank, tag) pairs; rank 0 receives with wildcards. */
static void test_wildcards(void)
{
    const int per = 3;
    if (t_rank != 0) {
        for (int k = 0; k < per; k++) {
            int v[2] = {t_rank, 100 + t_rank * 10 + k};
            T_MPI(MPI_Send(v, 2, MPI_INT, 0, v[1], MPI_COMM_WORLD));
        }
        /* after rank 0 has them all: tags 5 then 6, for ANY_SOURCE + tag */
        MPI_Barrier(MPI_COMM_WORLD);
        /* non-blocking: rank 0 takes tag 6 first (no reliance on buffering) */
        int v[2] = {t_rank, 5}, w[2] = {t_rank, 6};
        MPI_Request r[2];
        T_MPI(MPI_Isend(v, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[0]));
        T_MPI(MPI_Isend(w, 2, MPI_INT, 0, 6, MPI_COMM_WORLD, &r[1]));
        T_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        return;
    }
    int *seen = calloc((size_t)t_size * per, sizeof(int));
    for (int i = 0; i < (t_size - 1) * per; i++) {
        int v[2] = {-1, -1};
        MPI_Status st;
        int src = MPI_ANY_SOURCE, tag = MPI_ANY_TAG;
        /* alternate: both wildcards, and a fixed source with MPI_ANY_TAG */
        if (i % 2) {
            /* find any sender still owing messages */
            for (int s = 1; s < t_size; s++) {
                int k = 0;
                while (k < per && seen[s * per + k])
                    k++;
                if (k < per) {
                    src = s;
                    break;
                }
            }
        }
        T_MPI(MPI_Recv(v, 2, MPI_INT, src, tag, MPI_COMM_WORLD, &st));
        T_CHECK(st.MPI_SOURCE == v[0], "wildcard receive: status source %d, sender says %d",
                st.MPI_SOURCE, v[0]);
        T_CHECK(st.MPI_TAG == v[1], "wildcard receive: status tag %d, sender used %d",
                st.MPI_TAG, v[1]);
        if (src != MPI_ANY_SOURCE)
            T_CHECK(st.MPI_SOURCE == src, "receive from %d got source %d", src, st.MPI_SOURCE);
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        T_CHECK(count == 2, "wildcard receive: count %d, expected 2", count);
        if (v[0] > 0 && v[0] < t_size) {
            int k = v[1] - 100 - v[0] * 10;
            if (k >= 0 && k < per) {
                T_CHECK(!seen[v[0] * per + k], "message (%d, %d) received twice", v[0], v[1]);
                /* non-overtaking: from one sender, k comes in order */
                for (int j = 0; j < k; j++)
                    T_CHECK(seen[v[0] * per + j], "message %d of rank %d overtook message %d",
                            k, v[0], j);
                seen[v[0] * per + k] = 1;
            } else {
                T_FAIL("unexpected tag %d from %d", v[1], v[0]);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* MPI_ANY_SOURCE with a fixed tag: tag 6 messages (sent after tag 5)
     * must be selectable before the tag 5 ones. */
    for (int i = 1; i < t_size; i++) {
        int v[2] = {-1, -1};
        MPI_Status st;
        T_MPI(MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &st));
        T_CHECK(st.MPI_TAG == 6 && v[1] == 6 && st.MPI_SOURCE == v[0],
                "ANY_SOURCE tag 6: got (%d, %d) payload (%d, %d)", st.MPI_SOURCE, st.MPI_TAG, v[0], v[1]);
    }
    for (int i = 1; i < t_size; i++) {
        int v[2] = {-1, -1};
        MPI_Status st;
        T_MPI(MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st));
        T_CHECK(st.MPI_TAG == 5 && v[1] == 5 && st.MPI_SOURCE == v[0],
                "ANY_SOURCE tag 5: got (%d, %d) payload (%d, %d)", st.MPI_SOURCE, st.MPI_TAG,
                v[0], v[1]);
    }
    free(seen);
}

static void test_counts(void)
{
    /* rank 1 -> rank 0: 10 ints, 7 bytes, 3 doubles, 0 ints */
    if (t_rank == 1) {
        int iv[10];
        double dv[3] = {1.5, 2.5, 3.5};
        char cv[7] = "abcdef";
        for (int i = 0; i < 10; i++)
            iv[i] = i * i;
        T_MPI(MPI_Send(iv, 10, MPI_INT, 0, 20, MPI_COMM_WORLD));
        T_MPI(MPI_Send(cv, 7, MPI_CHAR, 0, 21, MPI_COMM_WORLD));
        T_MPI(MPI_Send(dv, 3, MPI_DOUBLE, 0, 22, MPI_COMM_WORLD));
        T_MPI(MPI_Send(iv, 0, MPI_INT, 0, 23, MPI_COMM_WORLD));
        struct { double v; int i; } di[3] = {{1.0, 1}, {2.0, 2}, {3.0, 3}};
        T_MPI(MPI_Send(di, 3, MPI_DOUBLE_INT, 0, 24, MPI_COMM_WORLD));
        T_MPI(MPI_Send(iv, 5, MPI_2INT, 0, 25, MPI_COMM_WORLD));
    } else if (t_rank == 0) {
        int iv[100], count;
        char cv[64];
        double dv[10];
        MPI_Status st;
        T_MPI(MPI_Recv(iv, 100, MPI_INT, 1, 20, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        T_CHECK(count == 10, "Get_count(MPI_INT) = %d, expected 10", count);
        MPI_Get_elements(&st, MPI_INT, &count);
        T_CHECK(count == 10, "Get_elements(MPI_INT) = %d, expected 10", count);
        MPI_Get_count(&st, MPI_SHORT, &count);
        T_CHECK(count == 20, "Get_count(MPI_SHORT) of 40 bytes = %d, expected 20", count);
        MPI_Get_count(&st, MPI_BYTE, &count);
        T_CHECK(count == 40, "Get_count(MPI_BYTE) = %d, expected 40", count);
        for (int i = 0; i < 10; i++)
            T_CHECK(iv[i] == i * i, "int %d is %d", i, iv[i]);

        T_MPI(MPI_Recv(cv, 64, MPI_CHAR, 1, 21, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_CHAR, &count);
        T_CHECK(count == 7, "Get_count(MPI_CHAR) = %d, expected 7", count);
        MPI_Get_count(&st, MPI_INT, &count);
        T_CHECK(count == MPI_UNDEFINED, "Get_count(MPI_INT) of 7 bytes = %d, expected MPI_UNDEFINED",
                count);
        T_CHECK(strcmp(cv, "abcdef") == 0, "chars: '%s'", cv);

        T_MPI(MPI_Recv(dv, 10, MPI_DOUBLE, 1, 22, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        T_CHECK(count == 3, "Get_count(MPI_DOUBLE) = %d, expected 3", count);
        MPI_Get_elements(&st, MPI_DOUBLE, &count);
        T_CHECK(count == 3, "Get_elements(MPI_DOUBLE) = %d, expected 3", count);
        T_CHECK(dv[0] == 1.5 && dv[2] == 3.5, "doubles wrong");

        T_MPI(MPI_Recv(iv, 100, MPI_INT, 1, 23, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        T_CHECK(count == 0, "Get_count of an empty message = %d", count);
        T_STATUS(st, 1, 23, 0);

        /* pair types: a count of pairs, twice as many basic elements */
        struct { double v; int i; } di[4];
        T_MPI(MPI_Recv(di, 4, MPI_DOUBLE_INT, 1, 24, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_DOUBLE_INT, &count);
        T_CHECK(count == 3, "Get_count(MPI_DOUBLE_INT) = %d, expected 3", count);
        MPI_Get_elements(&st, MPI_DOUBLE_INT, &count);
        T_CHECK(count == 6, "Get_elements(MPI_DOUBLE_INT) = %d, expected 6", count);
        T_CHECK(di[2].v == 3.0 && di[2].i == 3, "MPI_DOUBLE_INT data wrong");
        T_MPI(MPI_Recv(iv, 10, MPI_2INT, 1, 25, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_2INT, &count);
        T_CHECK(count == 5, "Get_count(MPI_2INT) = %d, expected 5", count);
        MPI_Get_elements(&st, MPI_2INT, &count);
        T_CHECK(count == 10, "Get_elements(MPI_2INT) = %d, expected 10", count);
        MPI_Get_elements(&st, MPI_INT, &count);
        T_CHECK(count == 10, "Get_elements(MPI_INT) of 5 MPI_2INT = %d, expected 10", count);
    }
}

static int err_class(int rc)
{
    int cl = -1;
    MPI_Error_class(rc, &cl);
    return cl;
}

/* A truncated receive of a sender's long runs (single copy from its run
 * list, p2p/rndv.c): the first ints of the packed stream arrive, nothing
 * beyond the receive buffer is written. Rank 1 sends 64 runs of 1024 ints
 * (stride 1100); rank 0 has room for 10000 ints. */
static void test_truncate_runs(void)
{
    enum { RUNS = 64, RUN = 1024, STRIDE = 1100, ROOM = 10000 };
    MPI_Datatype v;
    T_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    T_MPI(MPI_Type_vector(RUNS, RUN, STRIDE, MPI_INT, &v));
    T_MPI(MPI_Type_commit(&v));
    int *b = t_malloc((size_t)RUNS * STRIDE * sizeof(int));
    if (t_rank == 1) {
        for (int k = 0; k < RUNS * STRIDE; k++)
            b[k] = (k % STRIDE) < RUN ? (k / STRIDE) * RUN + k % STRIDE : -1;
        T_MPI(MPI_Send(b, 1, v, 0, 45, MPI_COMM_WORLD));
    } else if (t_rank == 0) {
        memset(b, 0, (size_t)RUNS * STRIDE * sizeof(int));
        MPI_Status st;
        int rc = MPI_Recv(b, ROOM, MPI_INT, 1, 45, MPI_COMM_WORLD, &st);
        T_CHECK(err_class(rc) == MPI_ERR_TRUNCATE, "runs into %d ints: class %d, expected "
                "MPI_ERR_TRUNCATE", ROOM, err_class(rc));
        for (int k = 0; k < RUNS * STRIDE; k++)
            if (b[k] != (k < ROOM ? k : 0)) {
                T_FAIL("runs into %d ints: int %d is %d", ROOM, k, b[k]);
                break;
            }
    }
    free(b);
    T_MPI(MPI_Type_free(&v));
    T_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

/* rank 1 sends n ints; rank 0 receives into room for n/4 (+ 0). */
static void test_truncate(void)
{
    static const int sizes[] = {100, 1024, 1025, 16384, 262144};
    T_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    for (int i = 0; i < 5; i++) {
        int n = sizes[i];
        int *big = t_malloc((size_t)n * sizeof(int));
        for (int nb = 0; nb < 2; nb++) {
            if (t_rank == 1) {
                for (int k = 0; k < n; k++)
                    big[k] = k + nb;
                T_MPI(MPI_Send(big, n, MPI_INT, 0, 40, MPI_COMM_WORLD));
                /* the follow-up message must arrive intact */
                T_MPI(MPI_Send(big, n, MPI_INT, 0, 41, MPI_COMM_WORLD));
            } else if (t_rank == 0) {
                int small = n / 4;
                memset(big, 0, (size_t)n * sizeof(int));
                MPI_Status st;
                int rc;
                if (nb) {
                    MPI_Request r;
                    T_MPI(MPI_Irecv(big, small, MPI_INT, 1, 40, MPI_COMM_WORLD, &r));
                    rc = MPI_Wait(&r, &st);
                } else {
                    rc = MPI_Recv(big, small, MPI_INT, 1, 40, MPI_COMM_WORLD, &st);
                }
                T_CHECK(rc != MPI_SUCCESS && err_class(rc) == MPI_ERR_TRUNCATE,
                        "%s of %d ints into %d: returned %d (class %d), expected MPI_ERR_TRUNCATE",
                        nb ? "MPI_Irecv/MPI_Wait" : "MPI_Recv", n, small, rc, err_class(rc));
                T_CHECK(st.MPI_SOURCE == 1 && st.MPI_TAG == 40,
                        "truncated receive: status (%d, %d)", st.MPI_SOURCE, st.MPI_TAG);
                for (int k = 0; k < small; k++)
                    if (big[k] != k + nb) {
                        T_FAIL("truncated receive of %d ints: int %d is %d, expected %d", n, k,
                               big[k], k + nb);
                        break;
                    }
                for (int k = small; k < n; k++)
                    if (big[k] != 0) {
                        T_FAIL("truncated receive of %d ints into %d wrote int %d", n, small, k);
                        break;
                    }
                memset(big, 0, (size_t)n * sizeof(int));
                T_MPI(MPI_Recv(big, n, MPI_INT, 1, 41, MPI_COMM_WORLD, &st));
                T_STATUS(st, 1, 41, n * (int)sizeof(int));
                for (int k = 0; k < n; k++)
                    if (big[k] != k + nb) {
                        T_FAIL("message after a truncated one: int %d is %d", k, big[k]);
                        break;
                    }
            }
        }
        free(big);
    }
    /* multiple completion: Waitall / Waitany / Testall with a truncated
     * receive among good ones report MPI_ERR_IN_STATUS / the error */
    for (int big_msg = 0; big_msg < 2; big_msg++) {
        int n = big_msg ? 20000 : 8; /* rendezvous and eager */
        if (t_rank == 1) {
            int *b = t_malloc((size_t)n * sizeof(int));
            for (int k = 0; k < n; k++)
                b[k] = k;
            for (int m = 0; m < 3; m++)
                for (int t = 60; t < 63; t++)
                    T_MPI(MPI_Send(b, n, MPI_INT, 0, t, MPI_COMM_WORLD));
            free(b);
        } else if (t_rank == 0) {
            int *b = t_malloc(3 * (size_t)n * sizeof(int));
            MPI_Request r[3];
            MPI_Status sts[3];
            int cl = -1;
            /* Waitall: the middle receive is too small */
            for (int t = 0; t < 3; t++)
                T_MPI(MPI_Irecv(b + (size_t)t * n, t == 1 ? n / 2 : n, MPI_INT, 1, 60 + t, MPI_COMM_WORLD, &r[t]));
            for (int t = 0; t < 3; t++)
                sts[t].MPI_ERROR = -12345;
            int rc = MPI_Waitall(3, r, sts);
            MPI_Error_class(rc, &cl);
            T_CHECK(cl == MPI_ERR_IN_STATUS, "Waitall with a truncated receive (%d ints): returned %d (class %d), "
                    "expected MPI_ERR_IN_STATUS", n, rc, cl);
            MPI_Error_class(sts[1].MPI_ERROR, &cl);
            T_CHECK(cl == MPI_ERR_TRUNCATE, "Waitall: status[1].MPI_ERROR = %d (class %d), expected MPI_ERR_TRUNCATE",
                    sts[1].MPI_ERROR, cl);
            T_CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && sts[2].MPI_ERROR == MPI_SUCCESS,
                    "Waitall: the good receives have MPI_ERROR %d and %d", sts[0].MPI_ERROR, sts[2].MPI_ERROR);
            T_CHECK(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL,
                    "Waitall with an error left requests allocated");
            T_CHECK(b[2 * n + n - 1] == n - 1, "Waitall: the third receive has wrong data");
            /* Waitany: the error comes back from the call, with the index */
            for (int t = 0; t < 3; t++)
                T_MPI(MPI_Irecv(b + (size_t)t * n, t == 2 ? 1 : n, MPI_INT, 1, 60 + t, MPI_COMM_WORLD, &r[t]));
            int seen_err = 0;
            for (int k = 0; k < 3; k++) {
                int idx = -1;
                MPI_Status st;
                rc = MPI_Waitany(3, r, &idx, &st);
                if (rc != MPI_SUCCESS) {
                    MPI_Error_class(rc, &cl);
                    T_CHECK(idx == 2 && cl == MPI_ERR_TRUNCATE, "Waitany: error %d (class %d) at index %d", rc, cl, idx);
                    seen_err++;
                }
                T_CHECK(idx >= 0 && idx < 3 && r[idx] == MPI_REQUEST_NULL, "Waitany: index %d not freed", idx);
            }
            T_CHECK(seen_err == 1, "Waitany reported the truncation %d times", seen_err);
            /* Testall until done */
            for (int t = 0; t < 3; t++)
                T_MPI(MPI_Irecv(b + (size_t)t * n, t == 0 ? n - 1 : n, MPI_INT, 1, 60 + t, MPI_COMM_WORLD, &r[t]));
            int flag = 0;
            double t0 = MPI_Wtime();
            rc = MPI_SUCCESS;
            while (!flag && MPI_Wtime() - t0 < 30)
                rc = MPI_Testall(3, r, &flag, sts);
            MPI_Error_class(rc, &cl);
            T_CHECK(flag && cl == MPI_ERR_IN_STATUS, "Testall with a truncated receive: flag %d rc %d (class %d)", flag,
                    rc, cl);
            MPI_Error_class(sts[0].MPI_ERROR, &cl);
            T_CHECK(cl == MPI_ERR_TRUNCATE, "Testall: status[0].MPI_ERROR class %d", cl);
            free(b);
        }
    }
    T_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    test_proc_null();
    if (t_size >= 2) {
        test_wildcards();
        MPI_Barrier(MPI_COMM_WORLD);
        test_counts();
        MPI_Barrier(MPI_COMM_WORLD);
        test_truncate();
        test_truncate_runs();
    }
    return t_finish();
}
