/*
 * rma_modes: one-sided communication in every synchronization mode, on a
 * window of the flavor named by argv[1]:
 *   create    MPI_Win_create over user memory (messages to the target)
 *   allocate  MPI_Win_allocate (messages to the target)
 *   shared    MPI_Win_allocate_shared (loads and stores in one segment)
 *   dynamic   MPI_Win_create_dynamic + MPI_Win_attach
 * Modes: fence, post-start-complete-wait, lock/unlock (shared and
 * exclusive), lock_all with flush; ops: Put, Get, Accumulate (predefined
 * and derived types, MPI_REPLACE, MPI_NO_OP), Get_accumulate,
 * Fetch_and_op, Compare_and_swap, Rput/Rget/Raccumulate/Rget_accumulate.
 * Every value is checked.
 */
#include "../mpi/mpitest.h"

#define N 64

static MPI_Win win;
static long *mem;          /* this rank's window: N longs */
static MPI_Aint *addr;     /* dynamic: every rank's base address */
static int dynamic;

static MPI_Aint D(int target, int i) { return dynamic ? addr[target] + i * (MPI_Aint)sizeof(long) : i; }

static void reset(long v)
{
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t_rank, 0, win);
    for (int i = 0; i < N; i++)
        mem[i] = v;
    MPI_Win_unlock(t_rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_fence(void)
{
    int right = (t_rank + 1) % t_size, left = (t_rank + t_size - 1) % t_size;
    reset(-1);
    long v[N], got[N];
    for (int i = 0; i < N; i++)
        v[i] = 1000 * t_rank + i;
    T_MPI(MPI_Win_fence(0, win));
    T_MPI(MPI_Put(v, N, MPI_LONG, right, D(right, 0), N, MPI_LONG, win));
    T_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++) /* slot 5 of rank 0: others may accumulate already */
        if (!(t_rank == 0 && i == 5))
            T_CHECK(mem[i] == 1000 * left + i, "fence put: mem[%d]=%ld", i, mem[i]);
    T_MPI(MPI_Get(got, N, MPI_LONG, left, D(left, 0), N, MPI_LONG, win));
    long one = 1;
    T_MPI(MPI_Accumulate(&one, 1, MPI_LONG, 0, D(0, 5), 1, MPI_LONG, MPI_SUM, win));
    T_MPI(MPI_Win_fence(0, win));
    int lleft = (left + t_size - 1) % t_size;
    for (int i = 0; i < N; i++)
        if (!(t_rank == 0 && i == 5) && !(left == 0 && i == 5))
            T_CHECK(got[i] == 1000 * lleft + i, "fence get: got[%d]=%ld", i, got[i]);
    if (t_rank == 0)
        T_CHECK(mem[5] == 1000 * left + 5 + t_size, "fence acc: %ld", mem[5]);
    T_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
}

static void test_pscw(void)
{
    int right = (t_rank + 1) % t_size, left = (t_rank + t_size - 1) % t_size;
    reset(0);
    MPI_Group world, gl, gr;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &gl);
    MPI_Group_incl(world, 1, &right, &gr);
    long v = 7 + t_rank;
    T_MPI(MPI_Win_post(gl, 0, win));        /* left writes into me */
    T_MPI(MPI_Win_start(gr, 0, win));       /* I write into right */
    T_MPI(MPI_Put(&v, 1, MPI_LONG, right, D(right, 3), 1, MPI_LONG, win));
    T_MPI(MPI_Accumulate(&v, 1, MPI_LONG, right, D(right, 4), 1, MPI_LONG, MPI_SUM, win));
    T_MPI(MPI_Win_complete(win));
    int flag = 0;
    while (!flag)
        T_MPI(MPI_Win_test(win, &flag));
    T_CHECK(mem[3] == 7 + left && mem[4] == 7 + left, "pscw: %ld %ld", mem[3], mem[4]);
    /* A second epoch, ended by MPI_Win_wait. */
    T_MPI(MPI_Win_post(gl, 0, win));
    T_MPI(MPI_Win_start(gr, 0, win));
    T_MPI(MPI_Put(&v, 1, MPI_LONG, right, D(right, 6), 1, MPI_LONG, win));
    T_MPI(MPI_Win_complete(win));
    T_MPI(MPI_Win_wait(win));
    T_CHECK(mem[6] == 7 + left, "pscw wait: %ld", mem[6]);
    MPI_Group_free(&gl);
    MPI_Group_free(&gr);
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_lock(void)
{
    reset(0);
    enum { REPS = 50 };
    long one = 1, old;
    for (int k = 0; k < REPS; k++) {
        T_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        T_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, D(0, 0), MPI_SUM, win));
        T_MPI(MPI_Win_unlock(0, win));
        /* exclusive: read-modify-write by hand is safe */
        T_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        long x;
        T_MPI(MPI_Get(&x, 1, MPI_LONG, 0, D(0, 1), 1, MPI_LONG, win));
        T_MPI(MPI_Win_flush(0, win));
        x += 2;
        T_MPI(MPI_Put(&x, 1, MPI_LONG, 0, D(0, 1), 1, MPI_LONG, win));
        T_MPI(MPI_Win_unlock(0, win));
    }
    /* compare and swap: exactly one rank takes slot 2 */
    long mine = t_rank + 1, cmp = 0, res = -1;
    T_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    T_MPI(MPI_Compare_and_swap(&mine, &cmp, &res, MPI_LONG, 0, D(0, 2), win));
    T_MPI(MPI_Win_unlock(0, win));
    int won = res == 0, winners = 0;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    T_CHECK(winners == 1, "cas winners %d", winners);
    if (t_rank == 0) {
        T_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        T_CHECK(mem[0] == (long)REPS * t_size, "fetch_and_op total %ld", mem[0]);
        T_CHECK(mem[1] == 2L * REPS * t_size, "exclusive rmw total %ld", mem[1]);
        T_CHECK(mem[2] >= 1 && mem[2] <= t_size, "cas value %ld", mem[2]);
        T_MPI(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_lock_all(void)
{
    reset(0);
    int right = (t_rank + 1) % t_size, left = (t_rank + t_size - 1) % t_size;
    MPI_Datatype vec; /* every other long: 8 of them */
    MPI_Type_vector(8, 1, 2, MPI_LONG, &vec);
    MPI_Type_commit(&vec);
    long src[8], res[8], got[N];
    for (int i = 0; i < 8; i++)
        src[i] = 100 * t_rank + i;
    MPI_Request rq[4];
    T_MPI(MPI_Win_lock_all(0, win));
    T_MPI(MPI_Rput(src, 8, MPI_LONG, right, D(right, 0), 1, vec, win, &rq[0]));
    T_MPI(MPI_Waitall(1, rq, MPI_STATUSES_IGNORE));
    T_MPI(MPI_Win_flush(right, win));
    long two[8];
    for (int i = 0; i < 8; i++)
        two[i] = 2;
    T_MPI(MPI_Raccumulate(two, 8, MPI_LONG, right, D(right, 0), 1, vec, MPI_PROD, win, &rq[0]));
    T_MPI(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    T_MPI(MPI_Win_flush_all(win));
    T_MPI(MPI_Rget_accumulate(NULL, 0, MPI_LONG, res, 8, MPI_LONG, right, D(right, 0), 1, vec,
                              MPI_NO_OP, win, &rq[1]));
    T_MPI(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
    for (int i = 0; i < 8; i++)
        T_CHECK(res[i] == 2 * (100 * t_rank + i), "vector put*2: res[%d]=%ld", i, res[i]);
    T_MPI(MPI_Get_accumulate(src, 8, MPI_LONG, res, 8, MPI_LONG, right, D(right, 0), 1, vec,
                             MPI_REPLACE, win));
    T_MPI(MPI_Win_flush_local(right, win));
    T_MPI(MPI_Win_flush_local_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_Win_sync(win));
    T_MPI(MPI_Rget(got, N, MPI_LONG, t_rank, D(t_rank, 0), N, MPI_LONG, win, &rq[2]));
    T_MPI(MPI_Wait(&rq[2], MPI_STATUS_IGNORE));
    for (int i = 0; i < 16; i++)
        T_CHECK(got[i] == (i % 2 ? 0 : 100 * left + i / 2), "lock_all: got[%d]=%ld", i, got[i]);
    T_MPI(MPI_Win_unlock_all(win));
    MPI_Type_free(&vec);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_attrs(const char *flavor)
{
    int *fl, *du, flag;
    MPI_Aint *sz;
    void *base;
    T_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag));
    int want = !strcmp(flavor, "create") ? MPI_WIN_FLAVOR_CREATE
             : !strcmp(flavor, "allocate") ? MPI_WIN_FLAVOR_ALLOCATE
             : !strcmp(flavor, "shared") ? MPI_WIN_FLAVOR_SHARED : MPI_WIN_FLAVOR_DYNAMIC;
    T_CHECK(flag && *fl == want, "flavor %d", flag ? *fl : -1);
    T_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag));
    T_CHECK(flag && *sz == (dynamic ? 0 : N * (MPI_Aint)sizeof(long)), "size");
    T_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    T_CHECK(flag && *du == (dynamic ? 1 : (int)sizeof(long)), "disp_unit %d", *du);
    T_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
    T_CHECK(flag && (dynamic ? base == NULL : base == mem), "base");
    T_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &fl, &flag));
    T_CHECK(flag && *fl == MPI_WIN_UNIFIED, "model");
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    T_MPI(MPI_Win_set_name(win, "rma_modes window"));
    T_MPI(MPI_Win_get_name(win, name, &len));
    T_CHECK(!strcmp(name, "rma_modes window") && len == 16, "name %s", name);
    MPI_Group g, wg;
    int cmp;
    T_MPI(MPI_Win_get_group(win, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    T_CHECK(cmp == MPI_IDENT, "group");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    int kv, *val, mark = 42;
    T_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kv, NULL));
    T_MPI(MPI_Win_set_attr(win, kv, &mark));
    T_MPI(MPI_Win_get_attr(win, kv, &val, &flag));
    T_CHECK(flag && *val == 42, "user attribute");
    T_MPI(MPI_Win_delete_attr(win, kv));
    T_MPI(MPI_Win_free_keyval(&kv));
}

static void test_shared(void)
{
    /* Direct loads and stores in the neighbours' parts. */
    MPI_Aint sz;
    int du;
    long *peer;
    int right = (t_rank + 1) % t_size;
    T_MPI(MPI_Win_shared_query(win, right, &sz, &du, &peer));
    T_CHECK(sz == N * (MPI_Aint)sizeof(long) && du == sizeof(long), "shared_query");
    T_MPI(MPI_Win_lock_all(0, win));
    peer[N - 1] = 555 + t_rank;
    T_MPI(MPI_Win_sync(win));
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_Win_sync(win));
    int left = (t_rank + t_size - 1) % t_size;
    T_CHECK(mem[N - 1] == 555 + left, "shared store: %ld", mem[N - 1]);
    T_MPI(MPI_Win_unlock_all(win));
    long *r0;
    T_MPI(MPI_Win_shared_query(win, 0, &sz, &du, &r0));
    T_CHECK(r0 + t_rank * N == mem, "segment contiguous");
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    const char *flavor = argc > 1 ? argv[1] : "create";
    t_name = flavor;
    long *userbuf = NULL;
    MPI_Aint bytes = N * sizeof(long);
    if (!strcmp(flavor, "create")) {
        userbuf = malloc(bytes);
        mem = userbuf;
        T_MPI(MPI_Win_create(mem, bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    } else if (!strcmp(flavor, "allocate")) {
        T_MPI(MPI_Win_allocate(bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    } else if (!strcmp(flavor, "shared")) {
        T_MPI(MPI_Win_allocate_shared(bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                                      &win));
    } else {
        dynamic = 1;
        userbuf = malloc(bytes);
        mem = userbuf;
        T_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        T_MPI(MPI_Win_attach(win, mem, bytes));
        addr = malloc(t_size * sizeof(MPI_Aint));
        MPI_Aint me;
        MPI_Get_address(mem, &me);
        MPI_Allgather(&me, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
    }
    test_attrs(flavor);
    test_fence();
    test_pscw();
    test_lock();
    test_lock_all();
    if (!strcmp(flavor, "shared"))
        test_shared();
    if (dynamic) {
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_Win_detach(win, mem));
    }
    T_MPI(MPI_Win_free(&win));
    T_CHECK(win == MPI_WIN_NULL, "Win_free sets MPI_WIN_NULL");
    free(userbuf);
    free(addr);
    return t_finish();
}
