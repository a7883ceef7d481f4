/* Helpers of the ATOMIC collective tests (atomic_common.h). */
#include "atomic_common.h"

#include <stdlib.h>
#include <string.h>

int atomic_fails;
static MPI_T_pvar_session session;

int atomic_init(int *argc, char ***argv, int *rank)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int provided;
    int rc = MPI_Init(argc, argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session_create(&session);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    return rc == MPI_INIT_RESTARTED_NODE;
}

int atomic_finish(int rank)
{
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    if (atomic_fails == 0)
        printf("ft_atomic: rank %d: ok\n", rank);
    MPI_Finalize();
    return atomic_fails != 0;
}

MPI_T_pvar_handle atomic_counter(const char *name)
{
    int i = -1, n = 0;
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    CHECK(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &i) == MPI_SUCCESS, "no pvar %s",
          name);
    CHECK(MPI_T_pvar_handle_alloc(session, i, NULL, &h, &n) == MPI_SUCCESS, "alloc %s", name);
    MPI_T_pvar_start(session, h); /* may be continuous: no start needed */
    return h;
}

unsigned long long atomic_read(MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    CHECK(MPI_T_pvar_read(session, h, &v) == MPI_SUCCESS, "pvar read");
    return v;
}

int atomic_allowed(int it)
{
    const char *e = getenv("FT_EXPECT_FAIL");
    char list[80], item[16];
    snprintf(list, sizeof list, ",%s,", e ? e : "");
    snprintf(item, sizeof item, ",%d,", it);
    return !e || strstr(list, item) != NULL;
}

void atomic_check_failure(int rank, int it, int rc, const int *buf, int n, int was)
{
    CHECK(rc == MPI_ERR_OTHER, "rank %d iteration %d: the failure gave %d, not MPI_ERR_OTHER (%d)",
          rank, it, rc, MPI_ERR_OTHER);
    for (int k = 0; k < n; k++)
        CHECK(buf[k] == was, "rank %d iteration %d: receive buffer touched by a failed ATOMIC call "
              "(element %d is %d)", rank, it, k, buf[k]);
    CHECK(atomic_allowed(it), "rank %d: first failure at iteration %d, not in FT_EXPECT_FAIL=%s",
          rank, it, getenv("FT_EXPECT_FAIL"));
    printf("ft_atomic: rank %d: first failure at iteration %d\n", rank, it);
}

void atomic_recover(void)
{
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &nc) == MPI_SUCCESS, "recovery");
    if (nc != MPI_COMM_NULL && nc != FT_MPI_CHECK_RECOVER)
        MPI_Comm_free(&nc);
}

void atomic_after_recovery(int fail_iter)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
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
