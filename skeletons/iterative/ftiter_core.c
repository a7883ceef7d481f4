/*
 * ftiter_core.c - the skeleton's life cycle: create (fresh start or
 * replacement), registration, free, queries, error strings.
 */
#include "ftiter_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double ftiter_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void ftiter_log(const ftiter_t *sk, const char *fmt, ...)
{
    if (!sk->par.verbose || sk->world_rank != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("ftiter: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    va_end(ap);
}

int ftiter_mpi_failed(const ftiter_t *sk, const char *call, int mpi_rc)
{
    /* Say which MPI call failed and why: under ftmpi the library's recorded
       cause (e.g. "no recovery: a process has called MPI_Finalize"), with
       another MPI the error string of the code. */
    char why[MPI_MAX_ERROR_STRING + 1] = "";
    int len = 0;
#ifdef MPI_INIT_RESTARTED_NODE
    (void)mpi_rc;
    FTMPI_Error_cause(why, &len);
#else
    MPI_Error_string(mpi_rc, why, &len);
#endif
    fprintf(stderr, "ftiter: rank %d: %s failed: %s\n", sk->world_rank, call,
            len > 0 ? why : "(no reason given)");
    fflush(stderr);
    return FTITER_ERR_MPI;
}

void ftiter_fault_point(const char *name, int64_t value)
{
#ifdef MPI_INIT_RESTARTED_NODE
    FTMPI_Fault_point(name, (long)value);
#else
    (void)name;
    (void)value;
#endif
}

int ftiter_from_dckpt(int rc)
{
    switch (rc) {
    case DCKPT_SUCCESS:
        return FTITER_SUCCESS;
    case DCKPT_ERR_ARG:
        return FTITER_ERR_ARG;
    case DCKPT_ERR_NOMEM:
        return FTITER_ERR_NOMEM;
    case DCKPT_ERR_MPI:
        return FTITER_ERR_MPI;
    case DCKPT_ERR_UNRECOVERABLE:
        return FTITER_ERR_UNRECOVERABLE;
    default:
        return FTITER_ERR_CKPT;
    }
}

int ftiter_ctl_build(ftiter_t *sk)
{
    if (sk->ctl != MPI_COMM_NULL)
        MPI_Comm_free(&sk->ctl); /* destroyed by a recovery: freeing is allowed */
    sk->ctl = MPI_COMM_NULL;
    /* A split, not MPI_Comm_dup(MPI_COMM_WORLD): this runs inside the
       recovery callback, where a dup of MPI_COMM_WORLD is the recovery's
       own duplicate (docs/skeleton.md, "Pitfalls"). */
    int rc = MPI_Comm_split(MPI_COMM_WORLD, 0, sk->world_rank, &sk->ctl);
    if (rc != MPI_SUCCESS) {
        sk->ctl = MPI_COMM_NULL;
        return rc;
    }
    MPI_Comm_set_errhandler(sk->ctl, MPI_ERRORS_RETURN);
    return MPI_SUCCESS;
}

int ftiter_setup_app(ftiter_t *sk)
{
    if (!sk->is_data || sk->setup_done)
        return FTITER_SUCCESS;
    sk->setup_done = 1;
    int rc = sk->ops.setup(sk->app, sk, dckpt_data_comm(sk->ckpt));
    if (rc != MPI_SUCCESS)
        return rc < 0 ? rc : FTITER_ERR_APP;
    return FTITER_SUCCESS;
}

static int core_check_args(const ftiter_params_t *p, const ftiter_ops_t *ops)
{
    if (p == NULL || ops == NULL)
        return FTITER_ERR_ARG;
    if (ops->setup == NULL || ops->init == NULL || ops->iterate == NULL ||
        ops->converged == NULL)
        return FTITER_ERR_ARG;
    if ((ops->save == NULL) != (ops->load == NULL))
        return FTITER_ERR_ARG;
    if (p->ckpt_interval < 0 || p->max_iter < 0)
        return FTITER_ERR_ARG;
    return FTITER_SUCCESS;
}

/* FT-MPI: the skeleton restores ranks in place, which needs REBUILD. */
static int core_check_mode(void)
{
#ifdef MPI_INIT_RESTARTED_NODE
    int *mode, flag = 0;
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &mode, &flag) == MPI_SUCCESS &&
        flag && (*mode == FTMPI_COMM_MODE_SHRINK || *mode == FTMPI_COMM_MODE_BLANK))
        return FTITER_ERR_ARG;
#endif
    return FTITER_SUCCESS;
}

/* Fresh start: communicators, context, registration. An MPI error here is a
   failure during start-up: recover like anywhere else. */
static int core_start(ftiter_t *sk)
{
    int rc = ftiter_ctl_build(sk);
    if (rc == MPI_SUCCESS) {
        int drc = dckpt_create(sk->ctl, &sk->par.ckpt, &sk->ckpt);
        if (drc == DCKPT_ERR_MPI)
            rc = MPI_ERR_OTHER;
        else if (drc != DCKPT_SUCCESS)
            return ftiter_from_dckpt(drc);
    }
    if (rc != MPI_SUCCESS)
        return ftiter_recover(sk, rc);
    dckpt_layout(sk->ckpt, &sk->lay);
    sk->is_data = !sk->lay.is_checksum;
    sk->need_init = sk->need_rebuild = sk->is_data;
    rc = ftiter_setup_app(sk);
    if (rc != FTITER_SUCCESS || sk->par.ckpt_interval <= 0)
        return rc;
    /* the checkpoint halves, touched before the loop (dckpt_prefault) */
    ftiter_fault_point("prefault", 0);
    double t0 = MPI_Wtime();
    int drc = dckpt_prefault(sk->ckpt);
    sk->st.prefault_s = MPI_Wtime() - t0;
    if (drc == DCKPT_ERR_MPI)
        return ftiter_recover(sk, MPI_ERR_OTHER);
    return FTITER_SUCCESS; /* out of memory: the checkpoint tries again and says so */
}

int ftiter_create(const ftiter_params_t *params, const ftiter_ops_t *ops, void *app,
                  int init_rc, ftiter_t **sk_p)
{
    if (sk_p == NULL)
        return FTITER_ERR_ARG;
    *sk_p = NULL;
    int rc = core_check_args(params, ops);
    if (rc == FTITER_SUCCESS)
        rc = core_check_mode();
    if (rc != FTITER_SUCCESS)
        return rc;
    /* the encoding's own arguments are checked identically on every rank */
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (dckpt_plan(size, &params->ckpt, NULL, NULL) != DCKPT_SUCCESS)
        return FTITER_ERR_ARG;

    ftiter_t *sk = calloc(1, sizeof(*sk));
    if (sk == NULL)
        return FTITER_ERR_NOMEM;
    sk->par = *params;
    sk->ops = *ops;
    sk->app = app;
    sk->ctl = MPI_COMM_NULL;
    sk->keyval = MPI_KEYVAL_INVALID;
    sk->ckpt_iter = -1;
    sk->iter_detect = -1;
    sk->world_size = size;
    MPI_Comm_rank(MPI_COMM_WORLD, &sk->world_rank);
#ifdef MPI_INIT_RESTARTED_NODE
    sk->restarted = init_rc == MPI_INIT_RESTARTED_NODE;
#else
    (void)init_rc;
#endif
    if (sk->restarted) {
        rc = ftiter_join(sk); /* attaches the callback itself, after its first dup */
    } else {
        rc = ftiter_callback_attach(sk);
        if (rc == FTITER_SUCCESS)
            rc = core_start(sk);
    }
    if (rc != FTITER_SUCCESS) {
        ftiter_free(&sk);
        return rc;
    }
    *sk_p = sk;
    return FTITER_SUCCESS;
}

int ftiter_register(ftiter_t *sk, void *ptr, size_t bytes)
{
    if (sk == NULL || sk->ckpt == NULL)
        return FTITER_ERR_ARG;
    int rc = dckpt_register(sk->ckpt, ptr, bytes);
    if (rc == DCKPT_SUCCESS)
        sk->st.ckpt_bytes += bytes;
    return ftiter_from_dckpt(rc);
}

int ftiter_register_serial(ftiter_t *sk, size_t max_bytes)
{
    if (sk == NULL || sk->ckpt == NULL || sk->blob != NULL || sk->ops.save == NULL)
        return FTITER_ERR_ARG;
    size_t total = sizeof(ftiter_blob_hdr_t) + max_bytes;
    sk->blob = calloc(1, total);
    if (sk->blob == NULL)
        return FTITER_ERR_NOMEM;
    sk->blob_cap = max_bytes;
    return ftiter_register(sk, sk->blob, total);
}

int ftiter_free(ftiter_t **sk_p)
{
    if (sk_p == NULL || *sk_p == NULL)
        return FTITER_ERR_ARG;
    ftiter_t *sk = *sk_p;
    ftiter_callback_detach(sk);
    if (sk->ckpt)
        dckpt_free(&sk->ckpt);
    if (sk->ctl != MPI_COMM_NULL)
        MPI_Comm_free(&sk->ctl);
    free(sk->blob);
    free(sk);
    *sk_p = NULL;
    return FTITER_SUCCESS;
}

int ftiter_is_data_rank(const ftiter_t *sk)
{
    return sk ? sk->is_data : 0;
}

MPI_Comm ftiter_data_comm(const ftiter_t *sk)
{
    return sk && sk->ckpt ? dckpt_data_comm(sk->ckpt) : MPI_COMM_NULL;
}

int ftiter_layout(const ftiter_t *sk, dckpt_layout_t *lay)
{
    if (sk == NULL || lay == NULL)
        return FTITER_ERR_ARG;
    *lay = sk->lay;
    return FTITER_SUCCESS;
}

const ftiter_stats_t *ftiter_stats(const ftiter_t *sk)
{
    return sk ? &sk->st : NULL;
}

int ftiter_restarted(const ftiter_t *sk)
{
    return sk ? sk->restarted : 0;
}

const char *ftiter_strerror(int code)
{
    switch (code) {
    case FTITER_SUCCESS:
        return "success";
    case FTITER_ERR_ARG:
        return "invalid argument (or a communicator mode other than REBUILD/ABORT)";
    case FTITER_ERR_NOMEM:
        return "out of memory";
    case FTITER_ERR_APP:
        return "an application callback failed";
    case FTITER_ERR_MPI:
        return "an MPI call failed, and not because of a process failure the skeleton "
               "could recover from";
    case FTITER_ERR_UNRECOVERABLE:
        return "unrecoverable: more ranks failed in a checkpoint group than it has checksum "
               "ranks";
    case FTITER_ERR_CKPT:
        return "the checkpoint library failed";
    default:
        if (code < 0 && code >= DCKPT_ERR_CORRUPT)
            return dckpt_strerror(code);
        return "unknown error";
    }
}
