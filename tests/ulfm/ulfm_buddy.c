/*
 * The buddy checkpoint of the ULFM tutorials, written from their
 * description. There are as many tasks as world ranks; task t evolves
 * x <- x * 1.001 + t. Every CK steps each process sends the states of its
 * tasks to its right neighbour (its buddy), which keeps them, and keeps
 * its own; MPIX_Comm_agree commits the checkpoint on every survivor. World
 * rank 3 dies at step 25: the survivors revoke, shrink, roll back to the
 * committed checkpoint, and the buddy of the dead process (the one it sent
 * its tasks to) adopts them. At the end the sum over all tasks must equal
 * a serial computation: no task lost, none counted twice.
 */
#include "ulfm_test.h"

#define STEPS 60
#define CK 10
#define VICTIM 3
#define MAXT 64

typedef struct { int n; int id[MAXT]; double x[MAXT]; } tasks_t;

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    tasks_t mine = {1, {u_rank}, {0.0}}, saved = mine, buddy = {0, {0}, {0}};
    int buddy_of = -1; /* world rank whose tasks `buddy` holds */
    int step = 0, ck_step = 0, recoveries = 0;
    for (;;) {
        int p, r, rc = MPI_SUCCESS;
        MPI_Comm_size(comm, &p);
        MPI_Comm_rank(comm, &r);
        MPI_Group cg, wg;
        MPI_Comm_group(comm, &cg);
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        int right = (r + 1) % p, left = (r + p - 1) % p, lw;
        MPI_Group_translate_ranks(cg, 1, &left, wg, &lw);
        MPI_Group_free(&cg);
        MPI_Group_free(&wg);
        while (step < STEPS) {
            if (u_rank == VICTIM && step == 25)
                u_die();
            for (int i = 0; i < mine.n; i++)
                mine.x[i] = mine.x[i] * 1.001 + mine.id[i];
            step++;
            if (step % CK)
                continue;
            tasks_t in;
            rc = MPI_Sendrecv(&mine, sizeof mine, MPI_BYTE, right, 1, &in, sizeof in, MPI_BYTE,
                              left, 1, comm, MPI_STATUS_IGNORE);
            int ok = rc == MPI_SUCCESS;
            rc = MPIX_Comm_agree(comm, &ok);
            if (rc != MPI_SUCCESS || !ok) {
                rc = rc != MPI_SUCCESS ? rc : MPIX_ERR_PROC_FAILED;
                break;
            }
            saved = mine;
            buddy = in;
            buddy_of = lw;
            ck_step = step;
        }
        if (rc == MPI_SUCCESS)
            break;
        MPIX_Comm_revoke(comm);
        MPI_Comm nc;
        CHECK(MPIX_Comm_shrink(comm, &nc) == MPI_SUCCESS, "shrink");
        /* Did the process whose tasks we hold fail? Then we adopt them. */
        MPI_Group fg, wg2;
        MPIX_Comm_get_failed(comm, &fg);
        MPI_Comm_group(MPI_COMM_WORLD, &wg2);
        int nf;
        MPI_Group_size(fg, &nf);
        mine = saved;
        for (int k = 0; k < nf; k++) {
            int w;
            MPI_Group_translate_ranks(fg, 1, &k, wg2, &w);
            if (w == buddy_of)
                for (int i = 0; i < buddy.n && mine.n < MAXT; i++) {
                    mine.id[mine.n] = buddy.id[i];
                    mine.x[mine.n++] = buddy.x[i];
                }
        }
        MPI_Group_free(&fg);
        MPI_Group_free(&wg2);
        MPI_Comm_free(&comm);
        comm = nc;
        step = ck_step;
        recoveries++;
    }
    double sum = 0, ref = 0;
    for (int i = 0; i < mine.n; i++)
        sum += mine.x[i];
    double all = 0;
    CHECK(MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, comm) == MPI_SUCCESS, "allreduce");
    for (int t = 0; t < u_size; t++) {
        double x = 0;
        for (int s = 0; s < STEPS; s++)
            x = x * 1.001 + t;
        ref += x;
    }
    CHECK(all > ref * (1 - 1e-12) && all < ref * (1 + 1e-12), "sum %.15g, serial %.15g", all, ref);
    CHECK(recoveries == 1, "%d recoveries", recoveries);
    MPI_Comm_free(&comm);
    return u_finish();
}
