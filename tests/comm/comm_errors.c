/*
 * comm_errors: error classes of the communicator functions, and that
 * errors reach the right error handler.
 *  - invalid communicators (MPI_COMM_NULL, a made-up handle, a freed one):
 *    MPI_ERR_COMM; freeing a predefined one: MPI_ERR_COMM
 *  - intracommunicator where an intercommunicator is needed and back:
 *    MPI_ERR_COMM; bad colors: MPI_ERR_ARG; bad groups: MPI_ERR_GROUP;
 *    bad leaders: MPI_ERR_RANK; bad tags: MPI_ERR_TAG; bad split types:
 *    MPI_ERR_ARG; bad info: MPI_ERR_INFO
 *  - a handler set on a communicator is called with the communicator and
 *    the code; derived communicators inherit it
 */
#include "mpitest.h"

static int calls, last_code;
static MPI_Comm last_comm;

static void handler(MPI_Comm *c, int *code, ...)
{
    calls++;
    last_code = *code;
    last_comm = *c;
}

static void test_handles(void)
{
    int n, res, flag;
    MPI_Comm c = MPI_COMM_NULL, bogus = (MPI_Comm)0x4000777, d;
    T_MPI_CLASS(MPI_Comm_size(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Comm_rank(bogus, &n), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &res), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Comm_test_inter(bogus, &flag), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Comm_dup(MPI_COMM_NULL, &d), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Comm_free(&c), MPI_ERR_COMM);
    c = MPI_COMM_WORLD;
    T_MPI_CLASS(MPI_Comm_free(&c), MPI_ERR_COMM);
    c = MPI_COMM_SELF;
    T_MPI_CLASS(MPI_Comm_free(&c), MPI_ERR_COMM);
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    MPI_Comm saved = d;
    T_MPI(MPI_Comm_free(&d));
    T_MPI_CLASS(MPI_Comm_size(saved, &n), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    MPI_Request r;
    T_MPI_CLASS(MPI_Comm_idup(MPI_COMM_NULL, &d, &r), MPI_ERR_COMM);
    MPI_Group g;
    T_MPI_CLASS(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM);
}

static void test_arguments(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Group g;
    int n;
    T_MPI_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &n), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
    T_MPI_CLASS(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &c), MPI_ERR_GROUP);
    if (t_size > 1) {
        /* the world group is not a subgroup of MPI_COMM_SELF */
        MPI_Comm_group(MPI_COMM_WORLD, &g);
        T_MPI_CLASS(MPI_Comm_create(MPI_COMM_SELF, g, &c), MPI_ERR_GROUP);
        T_MPI_CLASS(MPI_Comm_create_group(MPI_COMM_SELF, g, 1, &c), MPI_ERR_GROUP);
        MPI_Group_free(&g);
    }
    MPI_Comm_group(MPI_COMM_SELF, &g);
    T_MPI_CLASS(MPI_Comm_create_group(MPI_COMM_SELF, g, -1, &c), MPI_ERR_TAG);
    MPI_Group_free(&g);
    T_MPI_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &c), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, (MPI_Info)77, &c),
                MPI_ERR_INFO);
    T_MPI_CLASS(MPI_Intercomm_create(MPI_COMM_SELF, 1, MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, t_size, 0, &c),
                MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_NULL, 0, 0, &c), MPI_ERR_COMM);
    T_MPI_CLASS(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 0, -3, &c), MPI_ERR_TAG);
    T_MPI_CLASS(MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, 0, 0, &c), MPI_ERR_COMM);
    T_CHECK(c == MPI_COMM_NULL, "a failed call wrote its output handle");
    if (t_size >= 2) {
        MPI_Comm half, ic, x;
        MPI_Comm_split(MPI_COMM_WORLD, t_rank % 2, 0, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, t_rank % 2 ? 0 : 1, 3, &ic);
        MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);
        T_MPI_CLASS(MPI_Intercomm_create(ic, 0, MPI_COMM_WORLD, 0, 0, &x), MPI_ERR_COMM);
        T_MPI_CLASS(MPI_Comm_create_group(ic, MPI_GROUP_EMPTY, 0, &x), MPI_ERR_COMM);
        T_MPI_CLASS(MPI_Cart_create(ic, 1, (int[]){1}, (int[]){0}, 0, &x), MPI_ERR_COMM);
        T_MPI_CLASS(MPI_Comm_split_type(ic, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &x),
                    MPI_ERR_COMM);
        /* a rank of the local group that is beyond the remote group */
        int rs, v = 0;
        MPI_Comm_remote_size(ic, &rs);
        T_MPI_CLASS(MPI_Send(&v, 1, MPI_INT, rs, 0, ic), MPI_ERR_RANK);
        MPI_Comm_free(&ic);
        MPI_Comm_free(&half);
    }
}

static void test_handler(void)
{
    MPI_Errhandler eh;
    MPI_Comm d, e;
    T_MPI(MPI_Comm_create_errhandler(handler, &eh));
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    T_MPI(MPI_Comm_set_errhandler(d, eh));
    T_MPI(MPI_Comm_split(d, 0, 0, &e)); /* inherits the handler */
    calls = 0;
    MPI_Comm out;
    int rc = MPI_Comm_split(e, -9, 0, &out);
    T_CHECK(calls == 1 && last_comm == e, "handler called %d times on %d (expected %d)", calls,
            (int)last_comm, (int)e);
    int cls = -1;
    MPI_Error_class(last_code, &cls);
    T_CHECK(cls == MPI_ERR_ARG && rc == last_code, "handler got class %d (rc %d)", cls, rc);
    MPI_Comm_free(&e);
    MPI_Comm_free(&d);
    MPI_Errhandler_free(&eh);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    test_handles();
    test_arguments();
    test_handler();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return t_finish();
}
