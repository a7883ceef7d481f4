/*
 * ATOMIC collectives without the head (docs/ft.md, "ATOMIC without the
 * head"). Two scenarios:
 *
 *   ft_atomic fast | head
 *     No failure. After one collective per communicator (which makes the
 *     shared decision slots through the head), a loop of Allreduce, Bcast,
 *     Barrier and Allgather on MPI_COMM_WORLD, a dup and a split, with the
 *     results checked. "fast": the MPI_T counter ftmpi_ft_atomic_head_votes
 *     must not move during the loop and ftmpi_ft_atomic_local must count
 *     every call; "head" (run with FTMPI_ATOMIC_SLOTS=0): the opposite.
 *
 *   ft_atomic kill
 *     A loop of Allreduce on MPI_COMM_WORLD; the launcher kills a rank at a
 *     fault point (--kill-at): atomic_iter=N (the program's own, before the
 *     N-th iteration's Allreduce: the others are inside it),
 *     atomic_before_vote=N or atomic_after_vote=N (the library's, around
 *     the vote of the N-th decision through the slots: iteration N). Every
 *     survivor must see the same first failing iteration, with its receive
 *     buffer untouched; FT_EXPECT_FAIL lists the iterations allowed (e.g.
 *     "5" or "5,6"). After the recovery (MANUAL) a few more Allreduce calls
 *     must succeed on every live rank (replacements included).
 *
 *   ft_atomic elsewhere   (np 4, --recovery=none --kill-at atomic_iter=3@3)
 *     A loop of Allreduce on the halves of a split: the half without the
 *     victim succeeds throughout without a head vote, the other fails at
 *     iteration 3.
 * Prints "ft_atomic: rank R: ok" when every check held on this rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;
#define CHECK(cond, ...)                                            \
    do {                                                            \
        if (!(cond)) {                                              \
            fprintf(stderr, "ft_atomic: check failed: " __VA_ARGS__); \
            fprintf(stderr, "\n");                                  \
            fails++;                                                \
        }                                                           \
    } while (0)

static MPI_T_pvar_session session;

static MPI_T_pvar_handle counter(const char *name)
{
    int i = -1, n = 0;
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &i) == MPI_SUCCESS, "no pvar %s",
          name);
    CHECK(MPI_T_pvar_handle_alloc(session, i, NULL, &h, &n) == MPI_SUCCESS, "alloc %s", name);
    MPI_T_pvar_start(session, h); /* may be continuous: no start needed */
    return h;
}

static unsigned long long read_counter(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    CHECK(MPI_T_pvar_read(session, h, &v) == MPI_SUCCESS, "pvar read");
    return v;
}

/* One round of the four collectives on c, results checked. */
static void round_of(MPI_Comm c, int it)
{
    int rank, size;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    int in = rank + 1, sum = 0;
    CHECK(MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, c) == MPI_SUCCESS, "allreduce");
    CHECK(sum == size * (size + 1) / 2, "allreduce sum %d", sum);
    int b = rank == it % size ? 1000 + it : -1;
    CHECK(MPI_Bcast(&b, 1, MPI_INT, it % size, c) == MPI_SUCCESS, "bcast");
    CHECK(b == 1000 + it, "bcast got %d", b);
    CHECK(MPI_Barrier(c) == MPI_SUCCESS, "barrier");
    int all[64];
    CHECK(MPI_Allgather(&in, 1, MPI_INT, all, 1, MPI_INT, c) == MPI_SUCCESS, "allgather");
    for (int k = 0; k < size && k < 64; k++)
        CHECK(all[k] == k + 1, "allgather slot %d: %d", k, all[k]);
}

static void fast(int slots, int rank)
{
    enum { ITERS = 50 };
    MPI_Comm comms[3];
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &comms[2]);
    comms[0] = MPI_COMM_WORLD;
    for (int i = 0; i < 3; i++)
        round_of(comms[i], 0); /* the slots are made through the head */
    MPI_T_pvar_handle head = counter("ftmpi_ft_atomic_head_votes");
    MPI_T_pvar_handle local = counter("ftmpi_ft_atomic_local");
    unsigned long long h0 = read_counter(head), l0 = read_counter(local);
    for (int it = 1; it <= ITERS; it++)
        for (int i = 0; i < 3; i++)
            round_of(comms[i], it);
    unsigned long long dh = read_counter(head) - h0, dl = read_counter(local) - l0;
    /* A split of one member decides alone: neither counter moves. */
    int one = 0, sz;
    MPI_Comm_size(comms[2], &sz);
    one = sz == 1;
    unsigned long long calls = 4ull * ITERS * (unsigned long long)(3 - one);
    if (slots)
        CHECK(dh == 0 && dl == calls, "rank %d: %llu head votes, %llu local (want 0, %llu)", rank,
              dh, dl, calls);
    else
        CHECK(dh == calls && dl == 0, "rank %d: %llu head votes, %llu local (want %llu, 0)",
              rank, dh, dl, calls);
    printf("ft_atomic: rank %d: %llu calls, %llu head votes, %llu decided locally\n", rank, calls,
           dh, dl);
    MPI_Comm_free(&comms[1]);
    MPI_Comm_free(&comms[2]);
}

/* Is iteration it in the comma-separated FT_EXPECT_FAIL (unset: any)? */
static int allowed(int it)
{
    const char *e = getenv("FT_EXPECT_FAIL");
    char list[80], item[16];
    snprintf(list, sizeof list, ",%s,", e ? e : "");
    snprintf(item, sizeof item, ",%d,", it);
    return !e || strstr(list, item) != NULL;
}

static void after_recovery(int fail_iter)
{
    int rank, size, *mode, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &mode, &flag);
    /* Every survivor saw the same first failing iteration (replacements
     * have none: -1; BLANK gaps leave their slot at -2). */
    int all[64];
    for (int k = 0; k < 64; k++)
        all[k] = -2;
    CHECK(MPI_Allgather(&fail_iter, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS,
          "allgather after the recovery");
    int live = 0;
    for (int k = 0; k < size && k < 64; k++) {
        if (all[k] == -2)
            continue;
        live++;
        CHECK(all[k] == -1 || all[k] == fail_iter || fail_iter == -1,
              "rank %d: failed at iteration %d, rank %d at %d", rank, fail_iter, k, all[k]);
    }
    for (int i = 0; i < 3; i++) {
        int one = 1, sum = 0;
        CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS,
              "allreduce after the recovery");
        CHECK(sum == live, "sum %d after the recovery, %d live", sum, live);
    }
}

static void kill_loop(int rank)
{
    enum { ITERS = 10, N = 4 };
    int fail_iter = -1;
    for (int it = 0; it < ITERS && fail_iter < 0; it++) {
        FTMPI_Fault_point("atomic_iter", it);
        int in[N] = {1, it, rank, 7}, out[N] = {-7, -7, -7, -7}, size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        int rc = MPI_Allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS) {
            CHECK(out[0] == size && out[1] == it * size && out[3] == 7 * size,
                  "rank %d iteration %d: %d %d %d", rank, it, out[0], out[1], out[3]);
            continue;
        }
        CHECK(rc == MPI_ERR_OTHER, "rank %d: the failure gave %d", rank, rc);
        CHECK(out[0] == -7 && out[1] == -7 && out[2] == -7 && out[3] == -7,
              "rank %d: receive buffer touched by a failed ATOMIC Allreduce", rank);
        CHECK(allowed(it), "rank %d: first failure at iteration %d, not in FT_EXPECT_FAIL=%s",
              rank, it, getenv("FT_EXPECT_FAIL"));
        fail_iter = it;
        printf("ft_atomic: rank %d: first failure at iteration %d\n", rank, it);
    }
    CHECK(fail_iter >= 0, "rank %d: no collective failed", rank);
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &nc) == MPI_SUCCESS, "recovery");
    if (nc != MPI_COMM_NULL && nc != FT_MPI_CHECK_RECOVER)
        MPI_Comm_free(&nc);
    after_recovery(fail_iter);
}

/* --recovery=none, rank 3 killed: the half of a split without it keeps
 * deciding in its slots (no head vote), the other half's call fails. */
static void elsewhere(int rank)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int one = 1, sum = 0, failed = -1;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half) == MPI_SUCCESS, "first call");
    MPI_T_pvar_handle head = counter("ftmpi_ft_atomic_head_votes");
    unsigned long long h0 = read_counter(head);
    for (int it = 0; it < 10 && failed < 0; it++) {
        FTMPI_Fault_point("atomic_iter", it);
        sum = -7;
        int rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
        if (rc == MPI_SUCCESS)
            CHECK(sum == 2, "rank %d iteration %d: sum %d", rank, it, sum);
        else
            failed = it;
    }
    unsigned long long dh = read_counter(head) - h0;
    if (rank % 2 == 0)
        CHECK(failed < 0 && dh == 0, "rank %d: failed at %d, %llu head votes", rank, failed, dh);
    else
        CHECK(failed == 3, "rank %d: first failure at %d, want 3", rank, failed);
    printf("ft_atomic: rank %d: %llu head votes after the first call, first failure %d\n", rank,
           dh, failed);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int provided;
    int rc = MPI_Init(&argc, &argv);
    int restarted = rc == MPI_INIT_RESTARTED_NODE;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&session);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *what = argc > 1 ? argv[1] : "fast";
    if (!strcmp(what, "elsewhere"))
        elsewhere(rank);
    else if (!strcmp(what, "kill"))
        restarted ? after_recovery(-1) : kill_loop(rank);
    else
        fast(strcmp(what, "head") != 0, rank);
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    if (fails == 0)
        printf("ft_atomic: rank %d: ok\n", rank);
    MPI_Finalize();
    return fails != 0;
}
