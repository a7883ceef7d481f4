/*
 * p2p_threads: MPI_Init_thread(MPI_THREAD_MULTIPLE) and two threads per
 * rank communicating at the same time. Thread t of rank r exchanges with
 * thread t of rank r^1 (tag t) using blocking Send/Recv, Isend/Irecv and
 * Sendrecv, at eager and rendezvous sizes; the two threads of a rank share
 * MPI_COMM_WORLD, so matching must keep their messages apart by tag. A
 * second phase has both threads receive with MPI_ANY_TAG from one peer on
 * separate duplicated communicators. A third phase has two threads of the
 * even rank take messages of one stream with MPI_Mprobe/MPI_Mrecv at once:
 * each message must be received exactly once, with its own size.
 */
#include "mpitest.h"

#include <pthread.h>

#define NTHREADS 2
#define ITERS 200

static const int tsizes[] = {8, 4096, 4097, 65536, 300000};
#define NT ((int)(sizeof tsizes / sizeof tsizes[0]))

static int peer;
static MPI_Comm dups[NTHREADS];
static int thread_errors[NTHREADS];

typedef struct { int t; } targ_t;

static int check(const char *buf, int n, unsigned seed, int t, int it, const char *what)
{
    long bad = t_verify(buf, (size_t)n, seed);
    if (bad >= 0) {
        fprintf(stderr, "FAIL [p2p_threads rank %d thread %d] %s iteration %d, %d bytes: byte %ld wrong\n",
                t_rank, t, what, it, n, bad);
        return 1;
    }
    return 0;
}

#define TCALL(call)                                                                          \
    do {                                                                                     \
        int rc_ = (call);                                                                    \
        if (rc_ != MPI_SUCCESS) {                                                            \
            fprintf(stderr, "FAIL [p2p_threads rank %d thread %d] %s returned %d\n", t_rank, \
                    t, #call, rc_);                                                          \
            errs++;                                                                          \
        }                                                                                    \
    } while (0)

static void *worker(void *arg)
{
    int t = ((targ_t *)arg)->t;
    int errs = 0;
    int maxn = tsizes[NT - 1];
    char *sb = malloc((size_t)maxn), *rb = malloc((size_t)maxn);
    int even = !(t_rank & 1);
    for (int it = 0; it < ITERS && errs < 5; it++) {
        int n = tsizes[(it + t) % NT];
        unsigned mine = (unsigned)((t_rank * 16 + t) * 100000 + it);
        unsigned theirs = (unsigned)((peer * 16 + t) * 100000 + it);
        t_fill(sb, (size_t)n, mine);
        memset(rb, 0, (size_t)n);
        MPI_Status st;
        switch (it % 3) {
        case 0:
            if (even) {
                TCALL(MPI_Send(sb, n, MPI_BYTE, peer, t, MPI_COMM_WORLD));
                TCALL(MPI_Recv(rb, n, MPI_BYTE, peer, t, MPI_COMM_WORLD, &st));
            } else {
                TCALL(MPI_Recv(rb, n, MPI_BYTE, peer, t, MPI_COMM_WORLD, &st));
                TCALL(MPI_Send(sb, n, MPI_BYTE, peer, t, MPI_COMM_WORLD));
            }
            break;
        case 1: {
            MPI_Request r[2];
            MPI_Status sts[2];
            TCALL(MPI_Irecv(rb, n, MPI_BYTE, peer, t, MPI_COMM_WORLD, &r[0]));
            TCALL(MPI_Isend(sb, n, MPI_BYTE, peer, t, MPI_COMM_WORLD, &r[1]));
            TCALL(MPI_Waitall(2, r, sts));
            st = sts[0];
            break;
        }
        default:
            TCALL(MPI_Sendrecv(sb, n, MPI_BYTE, peer, t, rb, n, MPI_BYTE, peer, t, MPI_COMM_WORLD, &st));
        }
        if (st.MPI_TAG != t || st.MPI_SOURCE != peer) {
            fprintf(stderr, "FAIL [p2p_threads rank %d thread %d] iteration %d: status (%d, %d)\n",
                    t_rank, t, it, st.MPI_SOURCE, st.MPI_TAG);
            errs++;
        }
        errs += check(rb, n, theirs, t, it, "exchange");
    }
    /* phase 2: ANY_TAG on a communicator of this thread's own */
    for (int it = 0; it < 50 && errs < 5; it++) {
        int n = tsizes[it % NT];
        unsigned mine = (unsigned)(t_rank * 1000 + it), theirs = (unsigned)(peer * 1000 + it);
        MPI_Status st;
        t_fill(sb, (size_t)n, mine);
        TCALL(MPI_Sendrecv(sb, n, MPI_BYTE, peer, it, rb, n, MPI_BYTE, peer, MPI_ANY_TAG, dups[t], &st));
        if (st.MPI_TAG != it) {
            fprintf(stderr, "FAIL [p2p_threads rank %d thread %d] dup comm: tag %d, expected %d\n",
                    t_rank, t, st.MPI_TAG, it);
            errs++;
        }
        errs += check(rb, n, theirs, t, it, "dup comm exchange");
    }
    free(sb);
    free(rb);
    thread_errors[t] = errs;
    return NULL;
}

#define NMP 300
static int mp_seen[2 * NMP];
static int mp_bad;
static int mp_size(int id) { return id % 3 == 0 ? 9000 : 16; }

static void *mprobe_worker(void *arg)
{
    (void)arg;
    for (int k = 0; k < NMP; k++) {
        MPI_Message m;
        MPI_Status st;
        int cnt = -1, id = -1;
        MPI_Mprobe(peer, 5, MPI_COMM_WORLD, &m, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        char *b = malloc(cnt > 4 ? (size_t)cnt : 4);
        MPI_Mrecv(b, cnt, MPI_BYTE, &m, &st);
        memcpy(&id, b, 4);
        if (id < 0 || id >= 2 * NMP || __atomic_fetch_add(&mp_seen[id], 1, __ATOMIC_SEQ_CST) != 0 ||
            cnt != mp_size(id)) {
            fprintf(stderr, "FAIL [p2p_threads rank %d] Mprobe/Mrecv in two threads: message %d "
                    "(%d bytes) wrong or received twice\n", t_rank, id, cnt);
            __atomic_fetch_add(&mp_bad, 1, __ATOMIC_SEQ_CST);
        }
        free(b);
    }
    return NULL;
}

static void mprobe_phase(void)
{
    if (t_rank & 1) {
        char *buf = t_malloc((size_t)2 * NMP * 9000);
        MPI_Request *q = t_malloc(2 * NMP * sizeof(MPI_Request));
        for (int i = 0; i < 2 * NMP; i++) {
            memcpy(buf + (size_t)i * 9000, &i, 4);
            T_MPI(MPI_Isend(buf + (size_t)i * 9000, mp_size(i), MPI_BYTE, peer, 5, MPI_COMM_WORLD, &q[i]));
        }
        T_MPI(MPI_Waitall(2 * NMP, q, MPI_STATUSES_IGNORE));
        free(buf);
        free(q);
    } else {
        pthread_t th[2];
        for (int t = 0; t < 2; t++)
            pthread_create(&th[t], NULL, mprobe_worker, NULL);
        for (int t = 0; t < 2; t++)
            pthread_join(th[t], NULL);
        t_errors += mp_bad;
        for (int i = 0; i < 2 * NMP; i++)
            T_CHECK(mp_seen[i] == 1, "Mprobe/Mrecv in two threads: message %d received %d times", i, mp_seen[i]);
    }
}

int main(int argc, char **argv)
{
    int provided = -1;
    t_set_name(argv[0]);
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "FAIL [p2p_threads] MPI_Init_thread failed\n");
        return 2;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    T_CHECK(provided == MPI_THREAD_MULTIPLE, "provided thread level %d, expected MPI_THREAD_MULTIPLE", provided);
    int q = -1, main_flag = 0;
    T_MPI(MPI_Query_thread(&q));
    T_CHECK(q == provided, "MPI_Query_thread gives %d, Init_thread gave %d", q, provided);
    T_MPI(MPI_Is_thread_main(&main_flag));
    T_CHECK(main_flag, "MPI_Is_thread_main false on the main thread");
    t_need(2);
    peer = t_rank ^ 1;
    for (int t = 0; t < NTHREADS; t++)
        T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dups[t]));
    if (peer < t_size && provided == MPI_THREAD_MULTIPLE) {
        pthread_t th[NTHREADS];
        targ_t args[NTHREADS];
        for (int t = 0; t < NTHREADS; t++) {
            args[t].t = t;
            pthread_create(&th[t], NULL, worker, &args[t]);
        }
        for (int t = 0; t < NTHREADS; t++) {
            pthread_join(th[t], NULL);
            t_errors += thread_errors[t];
        }
        mprobe_phase();
    }
    for (int t = 0; t < NTHREADS; t++)
        T_MPI(MPI_Comm_free(&dups[t]));
    return t_finish();
}
