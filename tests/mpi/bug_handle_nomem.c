/*
 * A non-blocking call that fails for want of memory for its request handle
 * must leave nothing behind: no receive still posted (it would swallow a
 * later message), no send on its way (the caller was told it failed), no
 * probed message consumed (the caller still holds it and may retry).
 *
 * The handle table grows with realloc when it is full. This program
 * defines realloc itself (it wins over the C library's for the ftmpi
 * library too) and makes it fail while `fail_realloc` is set; it fills the
 * request table to the brim with posted receives, then arms the failure
 * for one more MPI_Irecv, MPI_Isend and MPI_Imrecv. One process, messages
 * to itself. Exit 0 only if every check held.
 */
#include "mpitest.h"

extern void *__libc_realloc(void *p, size_t n);
static volatile int fail_realloc;

void *realloc(void *p, size_t n)
{
    if (fail_realloc)
        return NULL;
    return __libc_realloc(p, n);
}


#define MAXREQ 4096
static MPI_Request filler[MAXREQ];
static int nfill, fill_buf;

/* Post receives (tag 1000, never sent) until the next handle needs the
 * table to grow: that one fails. Returns with the table full. The pool of
 * request objects has room for more than the first table (it was filled
 * before, by warm_pool), so the failure is the handle's. */
static void fill_table(void)
{
    for (;;) {
        MPI_Request r;
        fail_realloc = 1;
        int rc = MPI_Irecv(&fill_buf, 1, MPI_INT, 0, 1000, MPI_COMM_WORLD, &r);
        fail_realloc = 0;
        if (rc != MPI_SUCCESS) {
            if (nfill < 8) {
                fprintf(stderr, "bug_handle_nomem: only %d requests before a failure\n", nfill);
                exit(2);
            }
            return;
        }
        if (nfill == MAXREQ) {
            fprintf(stderr, "bug_handle_nomem: the request table never grows\n");
            exit(2);
        }
        filler[nfill++] = r;
    }
}

/* Requests come from a pool grown in chunks (with realloc too): have one
 * chunk before the failures are armed. */
static void warm_pool(void)
{
    int a = 1, b = 0;
    MPI_Sendrecv(&a, 1, MPI_INT, 0, 2, &b, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void empty_table(void)
{
    for (int i = 0; i < nfill; i++) {
        MPI_Cancel(&filler[i]);
        MPI_Wait(&filler[i], MPI_STATUS_IGNORE);
    }
    nfill = 0;
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc, cls, flag, x, v = 42;
    MPI_Request r = MPI_REQUEST_NULL;

    /* 1. MPI_Irecv: the receive must not stay posted. */
    warm_pool();
    fill_table();
    x = -1;
    fail_realloc = 1;
    rc = MPI_Irecv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r);
    fail_realloc = 0;
    MPI_Error_class(rc, &cls);
    T_CHECK(cls == MPI_ERR_NO_MEM && r == MPI_REQUEST_NULL, "Irecv: class %d, request %s", cls,
          r == MPI_REQUEST_NULL ? "null" : "set");
    MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    T_CHECK(flag && x == -1, "Irecv: the failed receive took the next message (%d)", x);
    if (flag)
        MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    /* 2. MPI_Isend (eager and rendezvous): no message may go out. */
    int n = 1 << 18;
    int *big = calloc((size_t)n, sizeof(int));
    int sizes[2] = {1, n};
    for (int k = 0; k < 2; k++) {
        r = MPI_REQUEST_NULL;
        fail_realloc = 1;
        rc = MPI_Isend(big, sizes[k], MPI_INT, 0, 6 + k, MPI_COMM_WORLD, &r);
        fail_realloc = 0;
        MPI_Error_class(rc, &cls);
        T_CHECK(cls == MPI_ERR_NO_MEM && r == MPI_REQUEST_NULL, "Isend %d: class %d", sizes[k], cls);
        MPI_Iprobe(0, 6 + k, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        T_CHECK(!flag, "Isend of %d ints failed but its message was sent", sizes[k]);
    }

    /* 3. MPI_Imrecv: the message stays the caller's; a retry receives it. */
    empty_table();
    MPI_Message msg;
    MPI_Send(&v, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
    MPI_Improbe(0, 8, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
    T_CHECK(flag, "Improbe found nothing");
    fill_table();
    x = -1;
    r = MPI_REQUEST_NULL;
    fail_realloc = 1;
    rc = MPI_Imrecv(&x, 1, MPI_INT, &msg, &r);
    fail_realloc = 0;
    MPI_Error_class(rc, &cls);
    T_CHECK(cls == MPI_ERR_NO_MEM && msg != MPI_MESSAGE_NULL && x == -1,
          "Imrecv: class %d, message %s, buffer %d", cls,
          msg == MPI_MESSAGE_NULL ? "consumed" : "kept", x);
    empty_table();
    if (msg != MPI_MESSAGE_NULL) {
        rc = MPI_Imrecv(&x, 1, MPI_INT, &msg, &r);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        T_CHECK(rc == MPI_SUCCESS && x == 42, "Imrecv retry: rc %d value %d", rc, x);
    }
    empty_table();
    free(big);
    return t_finish();
}
