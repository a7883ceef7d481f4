/*
 * errors: argument errors and error handlers.
 *  - with MPI_ERRORS_RETURN on MPI_COMM_WORLD: invalid rank -> MPI_ERR_RANK,
 *    invalid tag -> MPI_ERR_TAG, negative count -> MPI_ERR_COUNT, invalid
 *    datatype -> MPI_ERR_TYPE, invalid communicator -> MPI_ERR_COMM, on
 *    blocking, non-blocking and persistent calls;
 *  - a user error handler (MPI_Comm_create_errhandler) on a duplicate is
 *    called with the communicator and the right code, and the call then
 *    returns that code; MPI_Comm_call_errhandler calls it too;
 *    Comm_get_errhandler gives back what was set;
 *  - MPI_Error_string / MPI_Error_class for every class 0..MPI_ERR_LASTCODE
 *    (class of a class is itself; string non-empty, length right), and
 *    MPI_Error_class of a code that does not exist -> error.
 */
#include "mpitest.h"

static int handler_calls;
static int handler_code;
static MPI_Comm handler_comm;

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

static void arg_errors(void)
{
    int buf[4] = {0};
    MPI_Request r;
    MPI_Comm c = MPI_COMM_WORLD;
    int bad_rank[] = {t_size, t_size + 5, -5};
    for (int i = 0; i < 3; i++) {
        int d = bad_rank[i];
        T_MPI_CLASS(MPI_Send(buf, 1, MPI_INT, d, 0, c), MPI_ERR_RANK);
        T_MPI_CLASS(MPI_Ssend(buf, 1, MPI_INT, d, 0, c), MPI_ERR_RANK);
        T_MPI_CLASS(MPI_Isend(buf, 1, MPI_INT, d, 0, c, &r), MPI_ERR_RANK);
        T_MPI_CLASS(MPI_Recv(buf, 1, MPI_INT, d, 0, c, MPI_STATUS_IGNORE), MPI_ERR_RANK);
        T_MPI_CLASS(MPI_Irecv(buf, 1, MPI_INT, d, 0, c, &r), MPI_ERR_RANK);
        T_MPI_CLASS(MPI_Send_init(buf, 1, MPI_INT, d, 0, c, &r), MPI_ERR_RANK);
        T_MPI_CLASS(MPI_Probe(d, 0, c, MPI_STATUS_IGNORE), MPI_ERR_RANK);
    }
    /* MPI_ANY_SOURCE is not a valid destination */
    T_MPI_CLASS(MPI_Send(buf, 1, MPI_INT, MPI_ANY_SOURCE, 0, c), MPI_ERR_RANK);

    T_MPI_CLASS(MPI_Send(buf, 1, MPI_INT, 0, -5, c), MPI_ERR_TAG);
    T_MPI_CLASS(MPI_Send(buf, 1, MPI_INT, 0, MPI_ANY_TAG, c), MPI_ERR_TAG);
    T_MPI_CLASS(MPI_Isend(buf, 1, MPI_INT, 0, -2, c, &r), MPI_ERR_TAG);
    T_MPI_CLASS(MPI_Recv(buf, 1, MPI_INT, 0, -5, c, MPI_STATUS_IGNORE), MPI_ERR_TAG);
    T_MPI_CLASS(MPI_Irecv(buf, 1, MPI_INT, 0, -5, c, &r), MPI_ERR_TAG);
    int *tag_ub = NULL, flag = 0;
    T_MPI(MPI_Comm_get_attr(c, MPI_TAG_UB, &tag_ub, &flag));
    T_CHECK(flag && tag_ub && *tag_ub >= 32767, "MPI_TAG_UB attribute missing or below 32767");
    if (flag && tag_ub && *tag_ub < 0x7fffffff)
        T_MPI_CLASS(MPI_Send(buf, 1, MPI_INT, 0, *tag_ub + 1, c), MPI_ERR_TAG);

    T_MPI_CLASS(MPI_Send(buf, -1, MPI_INT, 0, 0, c), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Recv(buf, -1, MPI_INT, 0, 0, c, MPI_STATUS_IGNORE), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Isend(buf, -3, MPI_INT, 0, 0, c, &r), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Bcast(buf, -1, MPI_INT, 0, c), MPI_ERR_COUNT);

    T_MPI_CLASS(MPI_Send(buf, 1, MPI_DATATYPE_NULL, 0, 0, c), MPI_ERR_TYPE);
    T_MPI_CLASS(MPI_Send(buf, 1, (MPI_Datatype)12345, 0, 0, c), MPI_ERR_TYPE);
    T_MPI_CLASS(MPI_Recv(buf, 1, MPI_DATATYPE_NULL, 0, 0, c, MPI_STATUS_IGNORE), MPI_ERR_TYPE);
    T_MPI_CLASS(MPI_Irecv(buf, 1, (MPI_Datatype)MPI_COMM_WORLD, 0, 0, c, &r), MPI_ERR_TYPE);

    T_MPI_CLASS(MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Send(buf, 1, MPI_INT, 0, 0, (MPI_Comm)12345), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_NULL, MPI_STATUS_IGNORE), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Isend(buf, 1, MPI_INT, 0, 0, (MPI_Comm)MPI_INT, &r), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    int sz;
    T_MPI_CLASS(MPI_Comm_size(MPI_COMM_NULL, &sz), MPI_ERR_COMM);

    /* invalid requests */
    MPI_Request bogus = (MPI_Request)777;
    T_MPI_CLASS(MPI_Wait(&bogus, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    /* invalid op on a reduction */
    int x = 1, y;
    T_MPI_CLASS(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, c), MPI_ERR_OP);
    double dx = 1, dy;
    int cl = -1;
    int rc = MPI_Allreduce(&dx, &dy, 1, MPI_DOUBLE, MPI_BAND, c);
    MPI_Error_class(rc, &cl);
    T_CHECK(rc != MPI_SUCCESS && (cl == MPI_ERR_OP || cl == MPI_ERR_TYPE),
            "Allreduce(MPI_DOUBLE, MPI_BAND) returned %d (class %d), expected MPI_ERR_OP", rc, cl);
    /* buffered send without an attached buffer, and with one too small */
    T_MPI_CLASS(MPI_Bsend(buf, 1, MPI_INT, t_rank, 0, c), MPI_ERR_BUFFER);
    {
        static char small[MPI_BSEND_OVERHEAD + 16];
        static int big[1000];
        void *p;
        int sz;
        T_MPI(MPI_Buffer_attach(small, sizeof small));
        T_MPI_CLASS(MPI_Bsend(big, 1000, MPI_INT, t_rank, 0, c), MPI_ERR_BUFFER);
        T_MPI_CLASS(MPI_Ibsend(big, 1000, MPI_INT, t_rank, 0, c, &r), MPI_ERR_BUFFER);
        T_MPI(MPI_Buffer_detach(&p, &sz));
        T_CHECK(p == small && sz == (int)sizeof small, "Buffer_detach: (%p, %d)", p, sz);
    }
    /* an invalid root */
    T_MPI_CLASS(MPI_Bcast(buf, 1, MPI_INT, t_size, c), MPI_ERR_ROOT);
}

static void user_handler(void)
{
    MPI_Comm dup;
    MPI_Errhandler eh, got;
    int buf = 0;
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    T_MPI(MPI_Comm_create_errhandler(my_handler, &eh));
    T_MPI(MPI_Comm_set_errhandler(dup, eh));
    T_MPI(MPI_Comm_get_errhandler(dup, &got));
    T_CHECK(got == eh, "Comm_get_errhandler gives %d, set %d", got, eh);
    if (got != MPI_ERRHANDLER_NULL && got != eh)
        MPI_Errhandler_free(&got);
    else if (got == eh)
        MPI_Errhandler_free(&got); /* the reference Comm_get_errhandler gave */

    handler_calls = 0;
    int rc = MPI_Send(&buf, 1, MPI_INT, t_size + 1, 0, dup);
    int cl = -1;
    MPI_Error_class(handler_code, &cl);
    T_CHECK(handler_calls == 1, "user error handler called %d times, expected 1", handler_calls);
    T_CHECK(cl == MPI_ERR_RANK, "user error handler got code %d (class %d), expected MPI_ERR_RANK", handler_code, cl);
    T_CHECK(handler_comm == dup, "user error handler got communicator %d, expected the dup %d", handler_comm, dup);
    T_CHECK(rc == handler_code, "the call returned %d, the handler saw %d", rc, handler_code);

    handler_calls = 0;
    rc = MPI_Recv(&buf, 1, MPI_INT, 0, -7, dup, MPI_STATUS_IGNORE);
    MPI_Error_class(handler_code, &cl);
    T_CHECK(handler_calls == 1 && cl == MPI_ERR_TAG, "user handler for a bad tag: %d calls, class %d", handler_calls, cl);

    handler_calls = 0;
    T_MPI(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
    T_CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_comm == dup,
            "Comm_call_errhandler: %d calls, code %d", handler_calls, handler_code);

    /* the handler of MPI_COMM_WORLD is not involved */
    MPI_Errhandler weh;
    T_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &weh));
    T_CHECK(weh == MPI_ERRORS_RETURN, "MPI_COMM_WORLD's handler changed");

    T_MPI(MPI_Errhandler_free(&eh));
    T_CHECK(eh == MPI_ERRHANDLER_NULL, "Errhandler_free did not set MPI_ERRHANDLER_NULL");
    /* still attached to dup: must keep working */
    handler_calls = 0;
    MPI_Send(&buf, 1, MPI_INT, -9, 0, dup);
    T_CHECK(handler_calls == 1, "handler freed while attached: %d calls", handler_calls);
    T_MPI(MPI_Comm_free(&dup));
}

static void strings(void)
{
    char s[MPI_MAX_ERROR_STRING];
    for (int code = 0; code <= MPI_ERR_LASTCODE; code++) {
        int cl = -1, len = -1;
        memset(s, 0, sizeof s);
        T_MPI(MPI_Error_class(code, &cl));
        T_CHECK(cl == code, "MPI_Error_class(%d) = %d: a class must be its own class", code, cl);
        T_MPI(MPI_Error_string(code, s, &len));
        T_CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && (size_t)len == strlen(s),
                "MPI_Error_string(%d): length %d, strlen %zu", code, len, strlen(s));
    }
    char s0[MPI_MAX_ERROR_STRING], s1[MPI_MAX_ERROR_STRING];
    int l0, l1;
    MPI_Error_string(MPI_SUCCESS, s0, &l0);
    MPI_Error_string(MPI_ERR_TRUNCATE, s1, &l1);
    T_CHECK(strcmp(s0, s1) != 0, "MPI_SUCCESS and MPI_ERR_TRUNCATE have the same string");
    int cl = 0;
    int rc = MPI_Error_class(MPI_ERR_LASTCODE + 100000, &cl);
    T_CHECK(rc != MPI_SUCCESS, "MPI_Error_class of an undefined code succeeded (class %d)", cl);
    rc = MPI_Error_class(-3, &cl);
    T_CHECK(rc != MPI_SUCCESS, "MPI_Error_class(-3) succeeded");
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    T_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    arg_errors();
    user_handler();
    strings();
    /* nothing was sent by the failed calls: the queue is empty */
    int flag = 1;
    T_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    T_CHECK(!flag, "a failed send left a message behind");
    return t_finish();
}
