/*
 * Joining an FT-MPI recovery (docs/ft.md, contract section 6): every live process
 * calls MPI_Comm_dup(MPI_COMM_WORLD, &newcomm); the duplicate replaces the
 * skeleton's communicator. Who failed comes from the FTMPI_ERROR_FAILURE
 * attribute (the failed MPI_COMM_WORLD ranks, numbered as before the
 * recovery). The master is launch rank 0, which is rank 0 before every
 * recovery while it lives (SHRINK keeps the survivors' order), so "0 is in
 * the list" means "the master failed".
 */
#include "mw_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *mw_mode_name(int mode)
{
#ifdef FTMPI_COMM_MODE
    switch (mode) {
    case FTMPI_COMM_MODE_ABORT:
        return "ABORT";
    case FTMPI_COMM_MODE_BLANK:
        return "BLANK";
    case FTMPI_COMM_MODE_SHRINK:
        return "SHRINK";
    case FTMPI_COMM_MODE_REBUILD:
        return "REBUILD";
    }
#endif
    (void)mode;
    return "none";
}

void mw_fault_point(const char *name, long value)
{
#ifdef FTMPI_COMM_MODE
    FTMPI_Fault_point(name, value);
#else
    (void)name;
    (void)value;
#endif
}

/* The failed MPI_COMM_WORLD ranks (before the recovery) listed in the
 * error string of FTMPI_ERROR_FAILURE. Returns a malloc'ed array. */
static int *parse_failed(int *count_p)
{
    *count_p = 0;
#ifdef FTMPI_ERROR_FAILURE
    int *ec = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_ERROR_FAILURE, &ec, &flag);
    if (!flag || !ec)
        return NULL;
    char s[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    if (MPI_Error_string(*ec, s, &len) != MPI_SUCCESS)
        return NULL;
    s[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING] = 0;
    const char *p = strstr(s, "failed ranks:");
    p = p ? p + strlen("failed ranks:") : strrchr(s, ':');
    if (!p)
        return NULL;
    int *list = malloc(sizeof(int) * (strlen(p) / 2 + 1));
    if (!list)
        return NULL;
    while (*p) {
        if (!isdigit((unsigned char)*p)) {
            p++;
            continue;
        }
        char *end;
        list[(*count_p)++] = (int)strtol(p, &end, 10);
        p = end;
    }
    return list;
#else
    return NULL;
#endif
}

/* Record one failed process (launch rank `id`, rank `r` before the recovery). */
static void note_failed(mw_net_t *n, int i, int id, int r)
{
    n->failed_ids[i] = id;
    if (i < (int)(sizeof(n->failed_last) / sizeof(n->failed_last[0])))
        n->failed_last[i] = id;
    if (id == 0)
        n->master_failed = 1;
    if (n->mode == FTMPI_COMM_MODE_BLANK && r >= 0 && r < n->size)
        n->gap[r] = 1;
}

/*
 * Apply what the latest recovery says: who failed (n->failed_last and
 * n->failed_ids hold launch ranks; n->master_failed), the gaps (BLANK) and,
 * under SHRINK, the launch rank of every new rank. MW_FAIL when a process
 * failed meanwhile: the caller recovers again.
 *
 * REBUILD and BLANK never renumber, so the failed ranks that
 * FTMPI_ERROR_FAILURE lists are launch ranks. SHRINK does, and the list's
 * numbering after a first SHRINK is not to be relied on (docs, "Library
 * issues"): there the survivors exchange their launch ranks instead
 * (MPI_Allgather on the new communicator; they have all just recovered
 * together, and SHRINK leaves no gap), and whoever is missing failed.
 */
int mw_read_failures(mw_net_t *n)
{
    int oldsize = n->nids;
    int count = 0;
    int *failed = NULL;
    int *newt = NULL;
    if (n->mode == FTMPI_COMM_MODE_SHRINK) {
        newt = malloc(sizeof(int) * (size_t)n->size);
        if (!newt)
            return MW_ERR_NOMEM;
        int rc = MPI_Allgather(&n->id, 1, MPI_INT, newt, 1, MPI_INT, n->comm);
        if (rc != MPI_SUCCESS) {
            free(newt);
            return mw_net_classify(n, rc, "MPI_Allgather (launch ranks)");
        }
        count = oldsize - n->size;
        if (count < 0)
            count = 0;
    } else {
        failed = parse_failed(&count);
        if (!failed && count == 0) {
            int *nf = NULL, flag = 0;
#ifdef FTMPI_NUM_FAILED_PROCS
            MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_NUM_FAILED_PROCS, &nf, &flag);
#endif
            if (!flag || !nf || *nf > 0)
                return MW_ERR_RECOVERY; /* failures we cannot name */
        }
    }
    free(n->failed_ids);
    n->failed_ids = malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (!n->failed_ids) {
        free(failed);
        free(newt);
        return MW_ERR_NOMEM;
    }
    n->master_failed = 0;
    n->nfailed_last = count;
    n->failed_procs += count;
    if (newt) {
        int k = 0;
        for (int r = 0; r < oldsize && k < count; r++) {
            int id = n->id_of_rank[r], alive = 0;
            for (int j = 0; j < n->size && !alive; j++)
                alive = newt[j] == id;
            if (!alive)
                note_failed(n, k++, id, r);
        }
        n->nfailed_last = k;
        memcpy(n->id_of_rank, newt, sizeof(int) * (size_t)n->size);
        n->nids = n->size;
    } else {
        for (int i = 0; i < count; i++)
            note_failed(n, i, failed[i], failed[i]);
    }
    free(newt);
    free(failed);
    return MW_OK;
}

/* The current rank of a launch rank, -1 if it failed (or is a gap). */
int mw_rank_of_id(const mw_net_t *n, int id)
{
    for (int r = 0; r < n->size; r++)
        if (n->id_of_rank[r] == id && !n->gap[r])
            return r;
    return -1;
}

int mw_id_failed_last(const mw_net_t *n, int id)
{
    for (int i = 0; i < n->nfailed_last; i++)
        if (n->failed_ids && n->failed_ids[i] == id)
            return 1;
    return 0;
}

/*
 * A process can learn of a new failure while it is still inside the
 * recovery (after the round it joined was closed): the library then marks
 * the failed process dead but hands back communicators that do not report
 * it, so a wildcard receive posted afterwards would wait for ever (see
 * docs/master_worker.md, "Library issues"). Look for such a failure: a
 * receive from a specific dead process fails at once; from a live one it
 * is posted and cancelled. Called after the header receives are posted,
 * so a failure announced from here on makes them fail as usual.
 */
static void check_pending(mw_net_t *n)
{
    static char dummy;
    for (int r = 0; r < n->size && !n->fail; r++) {
        if (r == n->rank || n->gap[r])
            continue;
        MPI_Request q = MPI_REQUEST_NULL;
        int rc = MPI_Irecv(&dummy, 0, MPI_BYTE, r, MW_TAG_HDR - 1, n->comm, &q);
        if (rc != MPI_SUCCESS) {
            mw_dbg(n, "rank %d failed during the recovery: recovering again", r);
            mw_net_classify(n, rc, "MPI_Irecv (probe)");
            break;
        }
        MPI_Cancel(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
}

int mw_recover(mw_net_t *n)
{
#ifndef FTMPI_COMM_MODE
    (void)n;
    return MW_ERR_RECOVERY; /* a process failed and this MPI cannot recover */
#else
    if (n->mode == FTMPI_COMM_MODE_ABORT || n->mode < 0)
        return MW_ERR_RECOVERY;
    /* Retire everything of the old communicator. */
    mw_net_retire_slots(n);
    mw_net_drop_queue(n, 1);
    mw_net_retire_outbox(n);
    /* The recovery proper, collective over every live process. It folds in
     * failures that happen while it runs; a failure right after it makes
     * the dup fail, and the next one recovers again. */
    int rc = MPI_ERR_OTHER;
    MPI_Comm c = MPI_COMM_NULL;
    for (int tries = 0; tries < 100 && rc != MPI_SUCCESS; tries++) {
        c = FT_MPI_CHECK_RECOVER;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &c);
        if (rc != MPI_SUCCESS) {
            int cls = rc;
            MPI_Error_class(rc, &cls);
            if (cls != MPI_ERR_OTHER)
                break;
        }
    }
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, s, &len);
        fprintf(stderr, "mw: launch rank %d: recovery (MPI_Comm_dup of MPI_COMM_WORLD) failed: %s\n",
                n->id, s);
        return MW_ERR_RECOVERY;
    }
    if (n->comm != MPI_COMM_NULL)
        MPI_Comm_free(&n->comm); /* destroyed by the recovery; this releases it */
    n->comm = c;
    n->fail = 0;
    n->recoveries++;
    mw_net_free_retired(n); /* nobody reads the old generation's messages now */
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int oldsize = n->size;
    MPI_Comm_rank(c, &n->rank);
    MPI_Comm_size(c, &n->size);
    if (n->size != oldsize) {
        int *g = calloc((size_t)(n->size > oldsize ? n->size : oldsize), sizeof(int));
        if (!g)
            return MW_ERR_NOMEM;
        free(n->gap);
        n->gap = g; /* gaps exist only under BLANK, where the size stays */
    }
    if ((rc = mw_read_failures(n)) == MW_FAIL) {
        mw_dbg(n, "a process failed during the recovery: recovering again");
        return MW_OK; /* n->fail is set: the caller's next call recovers */
    }
    if (rc != MW_OK)
        return rc;
    mw_dbg(n, "recovered: size %d, %d failed%s", n->size, n->nfailed_last,
           n->master_failed ? " (the master)" : "");
    if ((rc = mw_net_post(n)) != MW_OK || (rc = mw_net_repost_queue(n)) != MW_OK)
        return rc;
    check_pending(n);
    return MW_OK;
#endif
}
