/*
 * ULFM respawn (docs/ulfm.md, "Respawn"; docs/dynamic.md): a 1-D Jacobi
 * solver that keeps its size through failures: on an error the survivors
 * revoke, shrink, spawn as many processes as were lost, merge with them
 * (MPI_Intercomm_merge) and renumber (MPI_Comm_split) so that each new
 * process takes a lost rank; everyone rolls back to the last committed
 * checkpoint (the whole vector, agreed with MPIX_Comm_agree), which rank 0
 * broadcasts to the newcomers, and the loop goes on with the original
 * size.
 *
 * Victims: ULFM_VICTIMS="r1,r2,..." are ranks of the solver's
 * communicator; victim k kills itself (SIGKILL) at iteration 50 + 120 k
 * after exactly k recoveries, so a respawned process can be a later
 * victim. The result is compared exactly with a serial computation.
 * Run with ftmpirun --with-ft ulfm --universe np + number of victims.
 */
#include "../ulfm/jacobi_1d.h"

static int recoveries, victims[8], nv;

/* Victim k dies at iteration 50 + 120 k, once k recoveries are behind. */
static void die(int it, int rank)
{
    for (int k = 0; k < nv; k++)
        if (victims[k] == rank && it == 50 + 120 * k && recoveries == k)
            u_die();
}

/* Everyone in merged: the rank each takes (survivors keep theirs), then
 * the solver's state from the new rank 0. `slot` is the old rank of a
 * survivor, -1 for a newcomer. */
static void renumber(MPI_Comm merged, int slot, int size, MPI_Comm *comm)
{
    int m, mr;
    MPI_Comm_size(merged, &m);
    MPI_Comm_rank(merged, &mr);
    int *slots = malloc((size_t)m * sizeof(int));
    CHECK(MPI_Allgather(&slot, 1, MPI_INT, slots, 1, MPI_INT, merged) == MPI_SUCCESS,
          "allgather of the slots");
    /* newcomers (the last m - survivors merged ranks) take the free slots
     * in increasing order */
    int key = slot;
    if (slot < 0) {
        int nth = 0;
        for (int k = 0; k < mr; k++)
            nth += slots[k] < 0;
        for (int s = 0, free_seen = 0; s < size; s++) {
            int used = 0;
            for (int k = 0; k < m; k++)
                used |= slots[k] == s;
            if (!used && free_seen++ == nth) {
                key = s;
                break;
            }
        }
    }
    free(slots);
    CHECK(MPI_Comm_split(merged, 0, key, comm) == MPI_SUCCESS, "split");
    MPI_Comm_set_errhandler(*comm, MPI_ERRORS_RETURN);
    int st[2] = {ck_it, recoveries};
    CHECK(MPI_Bcast(st, 2, MPI_INT, 0, *comm) == MPI_SUCCESS, "bcast of the state");
    CHECK(MPI_Bcast(ck, N + 2, MPI_DOUBLE, 0, *comm) == MPI_SUCCESS, "bcast of the checkpoint");
    ck_it = st[0];
    recoveries = st[1];
    int r;
    MPI_Comm_rank(*comm, &r);
    CHECK(slot < 0 || r == slot, "survivor kept rank %d, got %d", slot, r);
}

/* Survivors: revoke, shrink, spawn the lost count, merge, renumber. */
static void respawn(MPI_Comm *comm, int rc, const char *self, int size)
{
    int slot;
    MPI_Comm_rank(*comm, &slot);
    u_revoke_shrink(comm, rc);
    int alive;
    MPI_Comm_size(*comm, &alive);
    MPI_Comm inter, merged;
    int errs[8];
    rc = MPI_Comm_spawn(self, (char *[]){"respawned", NULL}, size - alive, MPI_INFO_NULL, 0,
                        *comm, &inter, errs);
    CHECK(rc == MPI_SUCCESS, "spawn of %d processes: class %d", size - alive, u_class(rc));
    CHECK(MPI_Intercomm_merge(inter, 0, &merged) == MPI_SUCCESS, "merge");
    MPI_Comm_free(&inter);
    MPI_Comm_free(comm);
    recoveries++;
    renumber(merged, slot, size, comm);
    MPI_Comm_free(&merged);
}

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    nv = jacobi_victims(victims);
    MPI_Comm comm, parent;
    MPI_Comm_get_parent(&parent);
    int size;
    if (parent != MPI_COMM_NULL) {
        /* a newcomer: merge on the high side, then take a lost rank */
        MPI_Comm merged;
        MPI_Comm_set_errhandler(parent, MPI_ERRORS_RETURN);
        CHECK(MPI_Intercomm_merge(parent, 1, &merged) == MPI_SUCCESS, "merge (newcomer)");
        MPI_Comm_size(merged, &size);
        renumber(merged, -1, size, &comm);
        MPI_Comm_free(&merged);
        MPI_Comm_free(&parent);
    } else {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        size = u_size;
        memset(ck, 0, sizeof ck);
        ck[0] = 1.0;
        ck_it = 0;
    }
restart:;
    int p;
    MPI_Comm_size(comm, &p);
    CHECK(p == size, "size %d, want the original %d", p, size);
    int rc = jacobi_run(comm, die);
    if (rc != MPI_SUCCESS) {
        respawn(&comm, rc, argv[0], size);
        goto restart;
    }
    jacobi_check();
    CHECK(recoveries == nv, "%d recoveries, want %d", recoveries, nv);
    MPI_Comm_free(&comm);
    return u_finish();
}
