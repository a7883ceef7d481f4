/*
 * Two ranks on two hosts (both on this machine: `--hosts localhost:1,h1:1
 * --launch-agent {cmd}`). There is no transport between hosts yet, so
 * point-to-point between the ranks cannot work: it must fail at once with
 * its own error, of class MPI_ERR_UNSUPPORTED_OPERATION and a message that
 * says why, not with MPI_ERR_OTHER (the class that means "a process
 * failed" and sends a fault-tolerant program into a recovery). Messages to
 * itself still work. Exit 0 only if every check held.
 */
#include "mpitest.h"

static int rank;

static void check_no_route(int rc, const char *what)
{
    int cls = -1, len = 0;
    char s[MPI_MAX_ERROR_STRING] = "";
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, s, &len);
    T_CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION && strstr(s, "host"),
          "%s: class %d (%s), want MPI_ERR_UNSUPPORTED_OPERATION", what, cls, s);
}

int main(int argc, char **argv)
{
    int size, x = 1, y = 0, big[2048] = {0};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    t_set_name(argv[0]);
    t_rank = rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "bug_no_route: run with 2 ranks on 2 hosts\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int peer = 1 - rank;
    check_no_route(MPI_Send(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD), "MPI_Send");
    check_no_route(MPI_Ssend(big, 2048, MPI_INT, peer, 0, MPI_COMM_WORLD), "MPI_Ssend (rendezvous)");
    check_no_route(MPI_Isend(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &r), "MPI_Isend");
    check_no_route(MPI_Recv(&y, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                   "MPI_Recv");
    int rc = MPI_Sendrecv(&x, 1, MPI_INT, rank, 3, &y, 1, MPI_INT, rank, 3, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
    T_CHECK(rc == MPI_SUCCESS && y == 1, "a message to itself: rc %d value %d", rc, y);
    /* no t_finish(): the two ranks have no route to combine their counts */
    printf("bug_no_route rank %d: %s\n", rank, t_errors ? "FAILED" : "ok");
    MPI_Finalize();
    return t_errors ? 1 : 0;
}
