/*
 * ftiter_recover.c - what happens after a process failure.
 *
 * Survivors: a call fails (MPI_ERR_OTHER); ftiter_recover starts the FT-MPI
 * recovery with MPI_Comm_dup(MPI_COMM_WORLD, &tmp). As its last step the
 * library calls the delete functions of MPI_COMM_WORLD's attributes: ours,
 * ftiter_callback, runs ftiter_restore. The replacement's MPI_Init returns
 * MPI_INIT_RESTARTED_NODE at that moment; its ftiter_create makes its first
 * MPI_Comm_dup(MPI_COMM_WORLD) (the copy of the survivors' recovery dup, no
 * communication) and runs the same ftiter_restore. ftiter_restore makes the
 * same collective calls on both sides:
 *
 *   survivor (in the callback)          replacement (in ftiter_create)
 *   split(WORLD) -> ctl                 split(WORLD) -> ctl
 *   dckpt_restore(ctx, ctl)             dckpt_create(ctl) + setup + dckpt_restore
 *   ops->comm_rebuilt(data)             ops->comm_rebuilt(data)
 *   record agreement (3 collectives)    record agreement
 *
 * A failure during any of it makes the step return FTITER_RESTORE_AGAIN on
 * the ranks that see it; they run another MPI recovery, and the callback
 * restores again (dckpt_restore may be repeated).
 */
#include "ftiter_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ callback */

static int recover_callback(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    ftiter_t *sk = val;
    if (sk == NULL || sk->freeing)
        return MPI_SUCCESS;
    double t = ftiter_now(); /* the MPI recovery is complete: this is its last step */
    sk->cb_ran = 1;
    if (!sk->in_episode) {
        /* a recovery this rank did not start (the application recovered by
           itself): restore all the same, the other ranks expect it */
        sk->in_episode = 1;
        sk->t_detect = 0;
        sk->t_episode = t;
        sk->rounds = 0;
        sk->iter_detect = -1;
    }
    ftiter_restore(sk, t);
    return MPI_SUCCESS;
}

int ftiter_callback_attach(ftiter_t *sk)
{
    /* MPI_COMM_NULL_COPY_FN: the recovery's duplicate of MPI_COMM_WORLD (and
       any dup the application makes) must not carry the callback along */
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, recover_callback, &sk->keyval, NULL) !=
        MPI_SUCCESS)
        return FTITER_ERR_MPI;
    if (MPI_Comm_set_attr(MPI_COMM_WORLD, sk->keyval, sk) != MPI_SUCCESS)
        return FTITER_ERR_MPI;
    sk->attached = 1;
    return FTITER_SUCCESS;
}

void ftiter_callback_detach(ftiter_t *sk)
{
    sk->freeing = 1; /* deleting the attribute calls the delete function */
    if (sk->attached)
        MPI_Comm_delete_attr(MPI_COMM_WORLD, sk->keyval);
    if (sk->keyval != MPI_KEYVAL_INVALID)
        MPI_Comm_free_keyval(&sk->keyval);
    sk->attached = 0;
}

/* ------------------------------------------------------------------ record */

/*
 * Agree on what this recovery was (every rank ends with the same record and
 * history): the failed ranks (BOR of a bitmap of the replacements that have
 * not completed a restore yet), the times and counts (MAX; a
 * minimum travels negated), and the history of earlier recoveries, which a
 * replacement does not have (broadcast from the lowest surviving rank).
 * `status` is this rank's local error (0 none); the MAX comes back.
 */
static int record_agree(ftiter_t *sk, double t_rec, double call_s, int *status)
{
    int n = sk->world_size, rc;
    size_t nbytes = ((size_t)n + 7) / 8;
    unsigned char *map = calloc(2, nbytes);
    if (map == NULL)
        return MPI_ERR_NO_MEM;
    unsigned char *all = map + nbytes;
    if (sk->replacing)
        map[sk->world_rank / 8] |= (unsigned char)(1u << (sk->world_rank % 8));
    rc = MPI_Allreduce(map, all, (int)nbytes, MPI_BYTE, MPI_BOR, sk->ctl);

    double v[8], r[8];
    v[0] = sk->t_detect > 0 ? -sk->t_detect : -INFINITY; /* -> first detection */
    v[1] = sk->t_detect > 0 ? sk->t_detect : -INFINITY;  /* -> last detection */
    v[2] = t_rec > 0 ? t_rec : -INFINITY;                /* survivors' MPI recovery done */
    v[3] = ftiter_now();                                 /* restored */
    v[4] = call_s;
    v[5] = sk->t_detect > 0 && sk->is_data ? (double)sk->iter_detect : -1.0;
    v[6] = (double)sk->rounds;
    v[7] = (double)-*status; /* errors are negative: MAX of their magnitude */
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(v, r, 8, MPI_DOUBLE, MPI_MAX, sk->ctl);

    int root = 0;
    while (root < n && (all[root / 8] >> (root % 8)) & 1)
        root++;
    if (rc == MPI_SUCCESS && root < n) {
        /* the history: count and records, as bytes (same executable everywhere) */
        rc = MPI_Bcast(&sk->st.nrecoveries, 1, MPI_INT, root, sk->ctl);
        if (rc == MPI_SUCCESS)
            rc = MPI_Bcast(sk->st.rec, (int)sizeof(sk->st.rec), MPI_BYTE, root, sk->ctl);
    }
    if (rc != MPI_SUCCESS) {
        free(map);
        return rc;
    }

    ftiter_recovery_t rec;
    memset(&rec, 0, sizeof(rec));
    for (int i = 0; i < n; i++) {
        if (!((all[i / 8] >> (i % 8)) & 1))
            continue;
        if (rec.nfailed < FTITER_MAX_FAILED_LIST)
            rec.failed[rec.nfailed] = i;
        rec.nfailed++;
    }
    rec.t_detect_first = isfinite(r[0]) ? -r[0] : 0;
    rec.t_detect_last = isfinite(r[1]) ? r[1] : 0;
    rec.t_mpi_recovered = isfinite(r[2]) ? r[2] : 0;
    rec.t_restored = r[3];
    rec.restore_call_s = r[4];
    rec.iter_detect = (int64_t)r[5];
    rec.rounds = (int)r[6];
    rec.iter_resume = sk->iter;
    rec.epoch = dckpt_epoch(sk->ckpt);
    *status = -(int)r[7];
    free(map);
    if (sk->st.nrecoveries < FTITER_MAX_RECOVERIES)
        sk->st.rec[sk->st.nrecoveries] = rec;
    sk->st.nrecoveries++;
    char who[96] = "";
    for (int i = 0, len = 0; i < rec.nfailed && i < FTITER_MAX_FAILED_LIST && len < 80; i++)
        len += snprintf(who + len, sizeof(who) - (size_t)len, " %d", rec.failed[i]);
    ftiter_log(sk,
               "recovery %d: failed rank(s)%s%s, %d MPI recovery round(s); "
               "failure seen after %lld iterations, resumed from iteration %lld (epoch %lld); "
               "MPI recovery %.4f s, restore %.4f s",
               sk->st.nrecoveries, who, rec.nfailed > FTITER_MAX_FAILED_LIST ? " ..." : "",
               rec.rounds,
               (long long)rec.iter_detect, (long long)rec.iter_resume, (long long)rec.epoch,
               rec.t_detect_last > 0 ? rec.t_mpi_recovered - rec.t_detect_last : 0.0,
               rec.t_restored - rec.t_mpi_recovered);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ restore */

/* An MPI error or DCKPT_ERR_MPI means another failure: recover again. */
static int restore_again(ftiter_t *sk)
{
    sk->restore_rc = FTITER_RESTORE_AGAIN;
    return sk->restore_rc;
}

static int restore_fatal(ftiter_t *sk, int code)
{
    sk->restore_rc = code;
    sk->in_episode = 0;
    return code;
}

/* The context: a replacement (or a survivor that failed before it had one) creates it. */
static int restore_context(ftiter_t *sk)
{
    if (sk->ckpt != NULL)
        return FTITER_SUCCESS;
    int drc = dckpt_create(sk->ctl, &sk->par.ckpt, &sk->ckpt);
    if (drc == DCKPT_ERR_MPI)
        return FTITER_RESTORE_AGAIN;
    if (drc != DCKPT_SUCCESS)
        return ftiter_from_dckpt(drc);
    dckpt_layout(sk->ckpt, &sk->lay);
    sk->is_data = !sk->lay.is_checksum;
    /* a local failure here shows up as DCKPT_ERR_MISMATCH in the restore, on every rank */
    ftiter_setup_app(sk);
    return FTITER_SUCCESS;
}

/* Data rank: the serialized state back into the solver. 0 or an error. */
static int restore_load(ftiter_t *sk)
{
    if (sk->blob == NULL || !sk->is_data)
        return 0;
    ftiter_blob_hdr_t hdr;
    memcpy(&hdr, sk->blob, sizeof(hdr));
    if (hdr.len > sk->blob_cap)
        return FTITER_ERR_APP;
    int rc = sk->ops.load(sk->app, sk->blob + sizeof(hdr), (size_t)hdr.len);
    return rc == MPI_SUCCESS ? 0 : FTITER_ERR_APP;
}

int ftiter_restore(ftiter_t *sk, double t_mpi_recovered)
{
    sk->rounds++;
    if (ftiter_ctl_build(sk) != MPI_SUCCESS)
        return restore_again(sk);
    ftiter_fault_point("restore", 1);
    int rc = restore_context(sk);
    if (rc == FTITER_RESTORE_AGAIN)
        return restore_again(sk);
    if (rc != FTITER_SUCCESS)
        return restore_fatal(sk, rc); /* arguments: the same on every rank */

    dckpt_restore_info_t info;
    double t0 = ftiter_now();
    int drc = dckpt_restore(sk->ckpt, sk->ctl, 0, NULL, &info);
    double call_s = ftiter_now() - t0;
    ftiter_fault_point("restore", 2);
    int status = 0;
    if (drc == DCKPT_ERR_MPI)
        return restore_again(sk);
    if (drc == DCKPT_SUCCESS) {
        ftiter_meta_t meta;
        memset(&meta, 0, sizeof(meta));
        memcpy(&meta, info.meta, info.meta_len < sizeof(meta) ? info.meta_len : sizeof(meta));
        if (meta.magic != FTITER_META_MAGIC)
            status = FTITER_ERR_CKPT;
        sk->iter = meta.iter;
        sk->ckpt_iter = meta.iter;
        sk->need_init = 0;
        if (status == 0)
            status = restore_load(sk);
    } else if (drc == DCKPT_ERR_NO_CHECKPOINT) {
        /* the failure came before the first checkpoint: start over */
        sk->iter = 0;
        sk->ckpt_iter = -1;
        sk->need_init = sk->is_data;
    } else {
        /* agreed on every rank: too many losses, corrupt or mismatched data */
        sk->nlost = info.bad_lost;
        sk->bad_group = info.bad_group;
        return restore_fatal(sk, drc == DCKPT_ERR_UNRECOVERABLE ? FTITER_ERR_UNRECOVERABLE
                                                                : drc);
    }
    sk->need_rebuild = 0;
    if (sk->is_data && sk->ops.comm_rebuilt) {
        rc = sk->ops.comm_rebuilt(sk->app, dckpt_data_comm(sk->ckpt));
        if (rc > 0)
            return restore_again(sk);
        if (rc < 0 && status == 0)
            status = FTITER_ERR_APP;
    }
    ftiter_fault_point("restore", 3);
    if (record_agree(sk, t_mpi_recovered, call_s, &status) != MPI_SUCCESS)
        return restore_again(sk);
    if (status != 0)
        return restore_fatal(sk, status < 0 ? status : FTITER_ERR_APP);
    sk->st.recovery_s += ftiter_now() - sk->t_episode;
    sk->in_episode = 0;
    sk->t_detect = 0;
    sk->replacing = 0;
    sk->restore_rc = FTITER_RESTORE_OK;
    return sk->restore_rc;
}

/* ------------------------------------------------------------------ survivors */

int ftiter_recover(ftiter_t *sk, int mpi_rc)
{
#ifdef MPI_INIT_RESTARTED_NODE
    if (!sk->in_episode) {
        sk->in_episode = 1;
        sk->t_detect = ftiter_now();
        sk->t_episode = sk->t_detect;
        sk->iter_detect = sk->iter;
        sk->rounds = 0;
    }
    for (;;) {
        sk->cb_ran = 0;
        sk->restore_rc = FTITER_RESTORE_AGAIN;
        MPI_Comm tmp = FT_MPI_CHECK_RECOVER;
        int drc = MPI_Comm_dup(MPI_COMM_WORLD, &tmp);
        if (drc != MPI_SUCCESS)
            return sk->ending ? FTITER_ERR_MPI
                              : ftiter_mpi_failed(sk, "the recovery (MPI_Comm_dup)", drc);
        MPI_Comm_free(&tmp);
        if (!sk->cb_ran) {
            /* no process failure to recover from: a plain MPI error, whose
               cause is still the last one recorded */
            sk->in_episode = 0;
            return sk->ending ? FTITER_ERR_MPI
                              : ftiter_mpi_failed(sk, "an MPI call of the solver", mpi_rc);
        }
        if (sk->restore_rc != FTITER_RESTORE_AGAIN)
            break;
    }
    if (sk->restore_rc == FTITER_RESTORE_OK)
        return FTITER_SUCCESS;
    if (sk->restore_rc == FTITER_ERR_UNRECOVERABLE && sk->world_rank == 0)
        fprintf(stderr,
                "ftiter: unrecoverable failure: %d rank(s) lost, more than the %d checksum "
                "rank(s) of checkpoint group %d can rebuild\n",
                sk->nlost, sk->par.ckpt.m, sk->bad_group);
    return sk->restore_rc;
#else
    (void)sk;
    (void)mpi_rc;
    return FTITER_ERR_MPI; /* no FT-MPI: a failure ends the run */
#endif
}

/* ------------------------------------------------------------------ replacements */

int ftiter_join(ftiter_t *sk)
{
#ifdef MPI_INIT_RESTARTED_NODE
    /* Our first MPI_Comm_dup(MPI_COMM_WORLD) is the copy of the duplicate
       the survivors' recovery returns: no communication, and it keeps the
       context ids of both sides in step. */
    MPI_Comm tmp = MPI_COMM_NULL;
    int drc = MPI_Comm_dup(MPI_COMM_WORLD, &tmp);
    if (drc != MPI_SUCCESS)
        return ftiter_mpi_failed(sk, "joining the recovery as a replacement (MPI_Comm_dup)", drc);
    MPI_Comm_free(&tmp);
    int rc = ftiter_callback_attach(sk);
    if (rc != FTITER_SUCCESS)
        return rc;
    sk->replacing = 1;
    sk->in_episode = 1;
    sk->t_detect = 0; /* not a detector */
    sk->t_episode = ftiter_now();
    sk->rounds = 0;
    rc = ftiter_restore(sk, 0);
    if (rc == FTITER_RESTORE_AGAIN)
        return ftiter_recover(sk, MPI_ERR_OTHER); /* another failure: we are a survivor now */
    if (rc == FTITER_ERR_UNRECOVERABLE && sk->world_rank == 0)
        fprintf(stderr,
                "ftiter: unrecoverable failure: %d rank(s) lost, more than the %d checksum "
                "rank(s) of checkpoint group %d can rebuild\n",
                sk->nlost, sk->par.ckpt.m, sk->bad_group);
    return rc == FTITER_RESTORE_OK ? FTITER_SUCCESS : rc;
#else
    (void)sk;
    return FTITER_ERR_ARG;
#endif
}
