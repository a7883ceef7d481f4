/*
 * The ULFM draft's window calls (mpi-ext.h, docs/rma.md "Fault tolerance"):
 * MPIX_Win_revoke and MPIX_Win_get_failed, the window forms of
 * MPIX_Comm_revoke and MPIX_Comm_get_failed, on the window's own hidden
 * communicator. Open MPI 5 declares both in its mpi-ext.h but compiles them
 * out; these work. Revoke needs the ULFM mode; get_failed works in every
 * mode, as MPIX_Comm_get_failed does.
 */
#include "api/win_api.h"

#include <stdio.h>

#include "ft/ulfm.h"

#define API_XWEAK(name) API_ALIAS(MPIX_##name, PMPIX_##name)

/* Every member's pending and later operations and synchronizations on the
 * window end with MPIX_ERR_REVOKED; the window can then only be freed. */
API_XWEAK(Win_revoke)
int PMPIX_Win_revoke(MPI_Win win)
{
    API_BEGIN("MPIX_Win_revoke");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (!ulfm_enabled()) {
        fprintf(stderr, "ftmpi: MPIX_Win_revoke needs the ULFM mode (mpirun --with-ft ulfm)\n");
        API_FAIL(MPI_ERR_UNSUPPORTED_OPERATION);
    }
    rc = ulfm_revoke(w->comm);
    API_END_CLEANUP(WIN_RAISE(w));
}

/* The failed members of the window's group, in the order they failed. */
API_XWEAK(Win_get_failed)
int PMPIX_Win_get_failed(MPI_Win win, MPI_Group *failedgrp)
{
    API_BEGIN("MPIX_Win_get_failed");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(failedgrp);
    group_t *g;
    rc = ulfm_failed_group(w->comm, 0, &g);
    if (rc == MPI_SUCCESS)
        rc = api_group_out(g, failedgrp);
    API_END_CLEANUP(WIN_RAISE(w));
}
