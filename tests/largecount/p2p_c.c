/*
 * The large-count point-to-point functions (MPI_Send_c ... MPI_Isendrecv_replace_c,
 * MPI_Buffer_attach_c/detach_c, MPI_Status_set_elements_c), each called with
 * its answer checked, between ranks 0 and 1. Counts beyond INT_MAX without
 * the memory: a receive of 3e9 bytes that a 5-byte message fills (the
 * count reaches the library as a wrapper type), a send of 3e9 elements of a
 * type of size 0, a status set to 3e9 elements. Negative counts:
 * MPI_ERR_COUNT.
 */
#include "../mpi/mpitest.h"

#define BIG 3000000000LL

static int peer;

/* Ranks 0 and 1 swap 5 ints through the pair of calls given. */
static void check5(const int *in, int from, const char *what)
{
    for (int i = 0; i < 5; i++)
        T_CHECK(in[i] == from * 100 + i, "%s: in[%d] = %d", what, i, in[i]);
}

static void fill5(int *out)
{
    for (int i = 0; i < 5; i++)
        out[i] = t_rank * 100 + i;
}

static void count_is(const MPI_Status *st, MPI_Count want, const char *what)
{
    MPI_Count n = -1;
    T_MPI(MPI_Get_count_c(st, MPI_INT, &n));
    T_CHECK(n == want, "%s: Get_count_c = %lld, want %lld", what, n, want);
}

static void blocking_modes(void)
{
    int out[5], in[5] = {0};
    MPI_Status st;
    fill5(out);
    int bsize = 5 * sizeof(int) + MPI_BSEND_OVERHEAD + 64; /* room for the rounding */
    char *bbuf = malloc((size_t)bsize);
    T_MPI(MPI_Buffer_attach_c(bbuf, bsize));
    if (t_rank == 0) {
        T_MPI(MPI_Send_c(out, 5, MPI_INT, peer, 1, MPI_COMM_WORLD));
        T_MPI(MPI_Bsend_c(out, 5, MPI_INT, peer, 2, MPI_COMM_WORLD));
        T_MPI(MPI_Ssend_c(out, 5, MPI_INT, peer, 3, MPI_COMM_WORLD));
        T_MPI(MPI_Recv_c(in, 5, MPI_INT, peer, 4, MPI_COMM_WORLD, &st)); /* ready below */
        T_MPI(MPI_Rsend_c(out, 5, MPI_INT, peer, 5, MPI_COMM_WORLD));
    } else {
        for (int tag = 1; tag <= 3; tag++) {
            memset(in, 0, sizeof in);
            T_MPI(MPI_Recv_c(in, 5, MPI_INT, peer, tag, MPI_COMM_WORLD, &st));
            check5(in, peer, "Send_c/Bsend_c/Ssend_c");
            count_is(&st, 5, "Recv_c");
        }
        MPI_Request r;
        T_MPI(MPI_Irecv_c(in, 5, MPI_INT, peer, 5, MPI_COMM_WORLD, &r));
        T_MPI(MPI_Send_c(out, 0, MPI_INT, peer, 4, MPI_COMM_WORLD));
        T_MPI(MPI_Wait(&r, &st));
        check5(in, peer, "Rsend_c");
    }
    void *addr = NULL;
    MPI_Count size = -1;
    T_MPI(MPI_Buffer_detach_c(&addr, &size));
    T_CHECK(addr == bbuf && size == bsize, "Buffer_detach_c: %p %lld", addr, size);
    free(bbuf);
}

static void nonblocking_modes(void)
{
    int out[5], in[4][5];
    MPI_Request r[4];
    MPI_Status st[4];
    if (t_rank >= 2) {
        T_MPI(MPI_Barrier(MPI_COMM_WORLD));
        return;
    }
    fill5(out);
    char *bbuf = malloc(5 * sizeof(int) + MPI_BSEND_OVERHEAD + 64);
    T_MPI(MPI_Buffer_attach(bbuf, 5 * sizeof(int) + MPI_BSEND_OVERHEAD + 64));
    if (t_rank == 1)
        for (int i = 0; i < 4; i++)
            T_MPI(MPI_Irecv_c(in[i], 5, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &r[i]));
    T_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the receives are posted: Irsend_c may go */
    if (t_rank == 0) {
        T_MPI(MPI_Isend_c(out, 5, MPI_INT, peer, 10, MPI_COMM_WORLD, &r[0]));
        T_MPI(MPI_Ibsend_c(out, 5, MPI_INT, peer, 11, MPI_COMM_WORLD, &r[1]));
        T_MPI(MPI_Issend_c(out, 5, MPI_INT, peer, 12, MPI_COMM_WORLD, &r[2]));
        T_MPI(MPI_Irsend_c(out, 5, MPI_INT, peer, 13, MPI_COMM_WORLD, &r[3]));
    }
    T_MPI(MPI_Waitall(4, r, st));
    if (t_rank == 1)
        for (int i = 0; i < 4; i++) {
            check5(in[i], peer, "Isend_c/Ibsend_c/Issend_c/Irsend_c + Irecv_c");
            count_is(&st[i], 5, "Irecv_c");
        }
    void *addr;
    int size;
    T_MPI(MPI_Buffer_detach(&addr, &size));
    free(bbuf);
}

static void persistent_and_matched(void)
{
    int out[5], in[5];
    MPI_Request r;
    MPI_Status st;
    fill5(out);
    char *bbuf = malloc(5 * sizeof(int) + MPI_BSEND_OVERHEAD + 64);
    T_MPI(MPI_Buffer_attach(bbuf, 5 * sizeof(int) + MPI_BSEND_OVERHEAD + 64));
    for (int mode = 0; mode < 4; mode++) {
        if (t_rank == 0) {
            T_MPI(MPI_Recv(NULL, 0, MPI_INT, peer, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (mode == 0)
                T_MPI(MPI_Send_init_c(out, 5, MPI_INT, peer, 20, MPI_COMM_WORLD, &r));
            else if (mode == 1)
                T_MPI(MPI_Bsend_init_c(out, 5, MPI_INT, peer, 20, MPI_COMM_WORLD, &r));
            else if (mode == 2)
                T_MPI(MPI_Ssend_init_c(out, 5, MPI_INT, peer, 20, MPI_COMM_WORLD, &r));
            else
                T_MPI(MPI_Rsend_init_c(out, 5, MPI_INT, peer, 20, MPI_COMM_WORLD, &r));
        } else {
            T_MPI(MPI_Recv_init_c(in, 5, MPI_INT, peer, 20, MPI_COMM_WORLD, &r));
            memset(in, 0, sizeof in);
        }
        T_MPI(MPI_Start(&r));
        if (t_rank == 1) /* posted: the ready send may go */
            T_MPI(MPI_Send(NULL, 0, MPI_INT, peer, 99, MPI_COMM_WORLD));
        T_MPI(MPI_Wait(&r, &st));
        if (t_rank == 1) {
            check5(in, peer, "*send_init_c + Recv_init_c");
            count_is(&st, 5, "Recv_init_c");
        }
        T_MPI(MPI_Request_free(&r));
    }
    void *addr;
    int size;
    T_MPI(MPI_Buffer_detach(&addr, &size));
    free(bbuf);

    /* matched probes: Mrecv_c, Imrecv_c */
    if (t_rank == 0) {
        T_MPI(MPI_Send(out, 5, MPI_INT, peer, 30, MPI_COMM_WORLD));
        T_MPI(MPI_Send(out, 5, MPI_INT, peer, 31, MPI_COMM_WORLD));
    } else {
        MPI_Message m;
        memset(in, 0, sizeof in);
        T_MPI(MPI_Mprobe(peer, 30, MPI_COMM_WORLD, &m, &st));
        T_MPI(MPI_Mrecv_c(in, 5, MPI_INT, &m, &st));
        check5(in, peer, "Mrecv_c");
        memset(in, 0, sizeof in);
        T_MPI(MPI_Mprobe(peer, 31, MPI_COMM_WORLD, &m, &st));
        T_MPI(MPI_Imrecv_c(in, 5, MPI_INT, &m, &r));
        T_MPI(MPI_Wait(&r, &st));
        check5(in, peer, "Imrecv_c");
        count_is(&st, 5, "Imrecv_c");
    }
}

static void sendrecv(void)
{
    int out[5], in[5] = {0}, rep[5];
    MPI_Status st;
    MPI_Request r;
    fill5(out);
    T_MPI(MPI_Sendrecv_c(out, 5, MPI_INT, peer, 40, in, 5, MPI_INT, peer, 40, MPI_COMM_WORLD, &st));
    check5(in, peer, "Sendrecv_c");
    fill5(rep);
    T_MPI(MPI_Sendrecv_replace_c(rep, 5, MPI_INT, peer, 41, peer, 41, MPI_COMM_WORLD, &st));
    check5(rep, peer, "Sendrecv_replace_c");
    memset(in, 0, sizeof in);
    T_MPI(MPI_Isendrecv_c(out, 5, MPI_INT, peer, 42, in, 5, MPI_INT, peer, 42, MPI_COMM_WORLD, &r));
    T_MPI(MPI_Wait(&r, &st));
    check5(in, peer, "Isendrecv_c");
    count_is(&st, 5, "Isendrecv_c");
    fill5(rep);
    T_MPI(MPI_Isendrecv_replace_c(rep, 5, MPI_INT, peer, 43, peer, 43, MPI_COMM_WORLD, &r));
    T_MPI(MPI_Wait(&r, &st));
    check5(rep, peer, "Isendrecv_replace_c");
}

/* Counts beyond INT_MAX, without the memory. */
static void beyond_int(void)
{
    char small[8] = {0};
    MPI_Status st;
    MPI_Count n = -1;
    int ni = 0;
    MPI_Datatype zero;
    T_MPI(MPI_Type_contiguous(0, MPI_INT, &zero));
    T_MPI(MPI_Type_commit(&zero));
    if (t_rank == 0) {
        T_MPI(MPI_Send_c("hello", 5, MPI_CHAR, peer, 50, MPI_COMM_WORLD));
        T_MPI(MPI_Send_c(small, BIG, zero, peer, 51, MPI_COMM_WORLD));
    } else {
        /* 3e9 bytes asked for, 5 arrive */
        T_MPI(MPI_Recv_c(small, BIG, MPI_CHAR, peer, 50, MPI_COMM_WORLD, &st));
        T_CHECK(memcmp(small, "hello", 5) == 0, "Recv_c with count 3e9: '%.5s'", small);
        T_MPI(MPI_Get_count_c(&st, MPI_CHAR, &n));
        T_CHECK(n == 5, "Get_count_c after a 3e9-count receive: %lld", n);
        T_MPI(MPI_Recv_c(small, BIG, zero, peer, 51, MPI_COMM_WORLD, &st));
        T_MPI(MPI_Get_count_c(&st, MPI_CHAR, &n));
        T_CHECK(n == 0, "3e9 elements of size 0 are 0 bytes: %lld", n);
    }
    /* a status that says 3e9 elements: the int queries give MPI_UNDEFINED */
    T_MPI(MPI_Status_set_elements_c(&st, MPI_CHAR, BIG));
    T_MPI(MPI_Get_elements_c(&st, MPI_CHAR, &n));
    T_CHECK(n == BIG, "Status_set_elements_c/Get_elements_c: %lld", n);
    T_MPI(MPI_Get_count_c(&st, MPI_CHAR, &n));
    T_CHECK(n == BIG, "Get_count_c of a 3e9 status: %lld", n);
    T_MPI(MPI_Get_count(&st, MPI_CHAR, &ni));
    T_CHECK(ni == MPI_UNDEFINED, "Get_count of a 3e9 status: %d", ni);
    T_MPI(MPI_Get_elements(&st, MPI_CHAR, &ni));
    T_CHECK(ni == MPI_UNDEFINED, "Get_elements of a 3e9 status: %d", ni);
    T_MPI(MPI_Type_free(&zero));
}

static void errors(void)
{
    int x = 0;
    MPI_Request r;
    T_MPI_CLASS(MPI_Send_c(&x, -1, MPI_INT, peer, 60, MPI_COMM_WORLD), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Irecv_c(&x, -5, MPI_INT, peer, 60, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Send_c(&x, BIG, MPI_DATATYPE_NULL, peer, 60, MPI_COMM_WORLD), MPI_ERR_TYPE);
    T_MPI_CLASS(MPI_Buffer_attach_c(&x, -1), MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    peer = 1 - t_rank;
    if (t_rank < 2) {
        blocking_modes();
        persistent_and_matched();
        sendrecv();
        beyond_int();
        errors();
    }
    nonblocking_modes(); /* every rank: it has a barrier */
    return t_finish();
}
