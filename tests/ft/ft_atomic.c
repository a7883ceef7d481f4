/*
 * ATOMIC collectives without the head (docs/ft.md, "ATOMIC without the
 * head"). Three scenarios:
 *
 *   ft_atomic fast | head | hosts
 *     No failure. After one collective per communicator (which makes the
 *     shared decision slots through the head), a loop of Allreduce, Bcast,
 *     Barrier and Allgather on MPI_COMM_WORLD, a dup and a split, with the
 *     results checked. "fast": the MPI_T counter ftmpi_ft_atomic_head_votes
 *     must not move during the loop and ftmpi_ft_atomic_local must count
 *     every call; "head" (run with FTMPI_ATOMIC_SLOTS=0): the opposite;
 *     "hosts" (np 4 on two hosts): the split is one per host and decides
 *     in its slots, MPI_COMM_WORLD and the dup span both and use the head.
 *
 *   ft_atomic kill
 *     A loop of Allreduce on MPI_COMM_WORLD; the launcher kills a rank at a
 *     fault point (--kill-at): atomic_iter=N (the program's own, before the
 *     N-th iteration's Allreduce: the others are inside it),
 *     atomic_before_vote=N or atomic_after_vote=N (the library's, around
 *     the vote of the N-th decision through the slots: iteration N), or
 *     atomic_head_before_vote=N / atomic_head_after_vote=N (the same
 *     around the N-th head vote: iteration N-1, on two hosts). Every
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
#include "atomic_common.h"

#include <stdlib.h>
#include <string.h>

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

/* slots: 1 every call decides in the slots ("fast"), 0 every call at the
 * head ("head", FTMPI_ATOMIC_SLOTS=0), 2 ("hosts", np 4 on two hosts of
 * two ranks): MPI_COMM_WORLD and its dup at the head, the split (one per
 * host) in its slots. */
static void fast(int slots, int rank)
{
    enum { ITERS = 50 };
    MPI_Comm comms[3];
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
    MPI_Comm_split(MPI_COMM_WORLD, slots == 2 ? rank / 2 : rank % 2, rank, &comms[2]);
    comms[0] = MPI_COMM_WORLD;
    for (int i = 0; i < 3; i++)
        round_of(comms[i], 0); /* the slots are made through the head */
    MPI_T_pvar_handle head = atomic_counter("ftmpi_ft_atomic_head_votes");
    MPI_T_pvar_handle local = atomic_counter("ftmpi_ft_atomic_local");
    unsigned long long h0 = atomic_read(head), l0 = atomic_read(local);
    for (int it = 1; it <= ITERS; it++)
        for (int i = 0; i < 3; i++)
            round_of(comms[i], it);
    unsigned long long dh = atomic_read(head) - h0, dl = atomic_read(local) - l0;
    /* A split of one member decides alone: neither counter moves. */
    int sz;
    MPI_Comm_size(comms[2], &sz);
    unsigned long long per = 4ull * ITERS, split = sz == 1 ? 0 : per;
    unsigned long long want_h = slots == 1 ? 0 : slots == 0 ? 2 * per + split : 2 * per;
    unsigned long long want_l = slots == 1 ? 2 * per + split : slots == 0 ? 0 : split;
    CHECK(dh == want_h && dl == want_l, "rank %d: %llu head votes, %llu local (want %llu, %llu)",
          rank, dh, dl, want_h, want_l);
    printf("ft_atomic: rank %d: %llu calls, %llu head votes, %llu decided locally\n", rank,
           2 * per + split, dh, dl);
    MPI_Comm_free(&comms[1]);
    MPI_Comm_free(&comms[2]);
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
        atomic_check_failure(rank, it, rc, out, N, -7);
        fail_iter = it;
    }
    CHECK(fail_iter >= 0, "rank %d: no collective failed", rank);
    atomic_recover();
    atomic_after_recovery(fail_iter);
}

/* --recovery=none, rank 3 killed: the half of a split without it keeps
 * deciding in its slots (no head vote), the other half's call fails. */
static void elsewhere(int rank)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int one = 1, sum = 0, failed = -1;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half) == MPI_SUCCESS, "first call");
    MPI_T_pvar_handle head = atomic_counter("ftmpi_ft_atomic_head_votes");
    unsigned long long h0 = atomic_read(head);
    for (int it = 0; it < 10 && failed < 0; it++) {
        FTMPI_Fault_point("atomic_iter", it);
        sum = -7;
        int rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
        if (rc == MPI_SUCCESS)
            CHECK(sum == 2, "rank %d iteration %d: sum %d", rank, it, sum);
        else
            failed = it;
    }
    unsigned long long dh = atomic_read(head) - h0;
    if (rank % 2 == 0)
        CHECK(failed < 0 && dh == 0, "rank %d: failed at %d, %llu head votes", rank, failed, dh);
    else
        CHECK(failed == 3, "rank %d: first failure at %d, want 3", rank, failed);
    printf("ft_atomic: rank %d: %llu head votes after the first call, first failure %d\n", rank,
           dh, failed);
}

int main(int argc, char **argv)
{
    int rank;
    int restarted = atomic_init(&argc, &argv, &rank);
    const char *what = argc > 1 ? argv[1] : "fast";
    if (!strcmp(what, "elsewhere"))
        elsewhere(rank);
    else if (!strcmp(what, "kill"))
        restarted ? atomic_after_recovery(-1) : kill_loop(rank);
    else
        fast(!strcmp(what, "head") ? 0 : !strcmp(what, "hosts") ? 2 : 1, rank);
    return atomic_finish(rank);
}
