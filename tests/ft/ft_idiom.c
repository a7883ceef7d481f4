/*
 * The FT-MPI idiom of docs/ft.md, run under each communicator mode.
 * Ranks listed in FT_VICTIMS (e.g. "1" or "1,2") kill themselves with
 * SIGKILL at iteration FT_KILL_ITER (all at once: several simultaneous
 * failures); with FT_KILL_AGAIN=1 the replacement of the first victim is
 * killed too at its first iteration (REBUILD: a killed replacement).
 * After every recovery the survivors agree on the iteration to resume
 * from (the smallest one, as a checkpointing solver would) and check:
 *   SHRINK:  size = launch size - failures so far, ranks contiguous;
 *   REBUILD: size = launch size, replacements saw MPI_INIT_RESTARTED_NODE;
 *   both:    recovery callbacks ran once per recovery, in attachment order
 *            (the first one deletes and sets again a third attribute: its
 *            delete callback runs for that deletion, and not again),
 *            FTMPI_NUM_FAILED_PROCS and FTMPI_ERROR_FAILURE describe it,
 *            derived communicators were destroyed (MPI_ERR_COMM).
 * Exit 0 only if every check held on every rank.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 6
static int order[8], norder;   /* which callback ran, in order */
static int fails;              /* checks that failed on this rank */

#define CHECK(cond, ...)                                           \
    do {                                                           \
        if (!(cond)) {                                             \
            fprintf(stderr, "ft_idiom: check failed: " __VA_ARGS__); \
            fprintf(stderr, "\n");                                 \
            fails++;                                               \
        }                                                          \
    } while (0)

static int in_recovery, kc, c_val[64], nrec;
static int cb_a(MPI_Comm c, int k, void *v, void *e) { if (norder < 8) order[norder++] = 1; return MPI_SUCCESS; }
static int cb_c(MPI_Comm c, int k, void *v, void *e) { if (norder < 8) order[norder++] = 3; return MPI_SUCCESS; }
static int cb_b(MPI_Comm c, int k, void *v, void *e)
{
    if (norder < 8)
        order[norder++] = 2;
    if (in_recovery) { /* change the attribute list under the walk */
        MPI_Comm_delete_attr(c, kc);
        MPI_Comm_set_attr(c, kc, &c_val[++nrec % 64]);
    }
    return MPI_SUCCESS;
}

static int is_victim(int orig)
{
    const char *v = getenv("FT_VICTIMS");
    if (!v)
        return 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
        if (atoi(t) == orig)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int rc = MPI_Init(&argc, &argv);
    int restarted = rc == MPI_INIT_RESTARTED_NODE;
    int rank, size, launch, ka, kb, *mode, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    launch = size;
    int orig = rank;
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &mode, &flag);
    CHECK(flag, "FTMPI_COMM_MODE attribute missing");
    int kill_iter = getenv("FT_KILL_ITER") ? atoi(getenv("FT_KILL_ITER")) : 2;
    int kill_again = getenv("FT_KILL_AGAIN") ? atoi(getenv("FT_KILL_AGAIN")) : 0;
    /* FT_DIE_IN_RECOVERY=R: rank R dies while the others are recovering. */
    int die_in_rec = getenv("FT_DIE_IN_RECOVERY") ? atoi(getenv("FT_DIE_IN_RECOVERY")) : -1;
    /* Two recovery callbacks: b attached first, then a; b replaced later
     * keeps its place, so the order must be b, a. */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cb_b, &kb, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cb_a, &ka, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kb, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, ka, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kb, &kb);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cb_c, &kc, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kc, &c_val[0]);
    MPI_Comm derived;
    MPI_Comm_dup(MPI_COMM_WORLD, &derived);
    /* Nobody dies before every process has made its setup dup: a dup of
     * MPI_COMM_WORLD that meets an unrecovered failure IS the recovery
     * (docs/ft.md), and this program's recovery path is in the loop below.
     * (A barrier that a later failure makes fail is fine: the loop's first
     * collective fails too and recovers.) */
    if (!restarted)
        MPI_Barrier(MPI_COMM_WORLD);
    int failures = 0, recoveries = 0;
    int iter = 0;
    if (restarted) {
        /* A replacement joins the survivors' recovery path: agree on the
         * iteration to resume from (it has none of its own). */
        int mine = ITERS + 1, resume, latest, none = -1;
        MPI_Allreduce(&mine, &resume, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&none, &latest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        iter = resume;
        printf("ft_idiom: replacement rank %d resumes at iteration %d\n", rank, iter);
    }
    for (; iter < ITERS; iter++) {
        if (!restarted && iter == kill_iter && is_victim(orig))
            raise(SIGKILL);
        /* FT_KILL_AGAIN=K: a replacement of a victim dies again as soon as
         * it runs, until its incarnation reaches K (K failures in a row). */
        const char *inc = getenv("FTMPI_INCARNATION");
        if (restarted && kill_again && is_victim(orig) && inc && atoi(inc) < kill_again)
            raise(SIGKILL);
        int one = 1, sum = 0;
        rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS) {
            /* BLANK: collectives run over the live members only. */
            int live = *mode == FTMPI_COMM_MODE_BLANK ? launch - failures : size;
            CHECK(sum == live, "rank %d iter %d: sum %d != %d", rank, iter, sum, live);
            continue;
        }
        CHECK(rc == MPI_ERR_OTHER, "rank %d: a failure gave %d, not MPI_ERR_OTHER", rank, rc);
        MPI_Comm newcomm = FT_MPI_CHECK_RECOVER;
        if (orig == die_in_rec && recoveries == 0)
            raise(SIGKILL);
        norder = 0;
        in_recovery = 1;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &newcomm);
        in_recovery = 0;
        CHECK(rc == MPI_SUCCESS, "recovery dup returned %d", rc);
        recoveries++;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        int *nf, *ec;
        MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_NUM_FAILED_PROCS, &nf, &flag);
        CHECK(flag && *nf >= 1, "FTMPI_NUM_FAILED_PROCS");
        failures += *nf;
        MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_ERROR_FAILURE, &ec, &flag);
        char s[MPI_MAX_ERROR_STRING];
        int len, cls;
        MPI_Error_string(*ec, s, &len);
        MPI_Error_class(*ec, &cls);
        CHECK(cls == MPI_ERR_OTHER && strstr(s, "failed ranks"), "FTMPI_ERROR_FAILURE: %s", s);
        CHECK(norder == 3 && order[0] == 2 && order[1] == 3 && order[2] == 1,
              "callbacks ran %d times, order %d %d %d %d", norder, order[0], order[1], order[2],
              order[3]);
        if (*mode == FTMPI_COMM_MODE_SHRINK)
            CHECK(size == launch - failures, "SHRINK size %d, want %d", size, launch - failures);
        else
            CHECK(size == launch, "size %d after recovery, want %d", size, launch);
        int dummy;
        MPI_Comm_set_errhandler(derived, MPI_ERRORS_RETURN);
        rc = MPI_Comm_rank(derived, &dummy);
        CHECK(rc == MPI_ERR_COMM, "derived communicator still usable (rc %d)", rc);
        MPI_Comm_free(&derived);
        derived = newcomm; /* the recovery's duplicate of MPI_COMM_WORLD */
        /* Roll back to an iteration everyone has reached. */
        int resume, latest, *cm;
        MPI_Allreduce(&iter, &resume, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(&iter, &latest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COLL_MODE, &cm, &flag);
        /* ATOMIC: the failed collective failed on every survivor alike. */
        if (*cm == FTMPI_COLL_MODE_ATOMIC && !restarted)
            CHECK(resume == latest, "ATOMIC: the failure was seen at iterations %d..%d", resume, latest);
        iter = resume - 1;
    }
    int all_fails = 0;
    MPI_Allreduce(&fails, &all_fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ft_idiom: size %d, recoveries %d, failed checks %d, replacement %d\n", size,
               recoveries, all_fails, restarted);
    MPI_Comm_free(&derived);
    printf("ft_idiom rank %d%s: %s\n", rank, restarted ? " (replacement)" : "",
           all_fails ? "FAILED" : "ok");
    MPI_Finalize();
    return all_fails ? 1 : 0;
}
