/*
 * ftiter_loop.c - the iteration loop.
 *
 * Data ranks iterate on the data communicator. Every `ckpt_interval`
 * iterations, and once at the end, every rank of MPI_COMM_WORLD meets in a
 * CONTROL STEP: one MPI_Allreduce (MAX) of {phase, iteration, status} on
 * the skeleton's communicator. Checksum ranks do nothing else: they wait in
 * the control step, then take part in the checkpoint (phase CKPT) or leave
 * (phase DONE). So the only collective calls are, in this order, on every
 * rank:
 *
 *   data ranks:     [iterate+converged] x K, control, checkpoint, ... , finish, control
 *   checksum ranks:                          control, checkpoint, ... ,         control
 *
 * Any MPI error (a process failed) sends the rank into ftiter_recover; when
 * it returns, the state is the last checkpoint's and the loop goes on from
 * that iteration. Checksum ranks learn of a failure of a data rank in their
 * control step (or checkpoint); data ranks learn of a failure of a checksum
 * rank at the next control step, up to K iterations later.
 *
 * The end takes two control steps, DONE and LEAVE (ftiter_end). Collectives
 * are not atomic: a failure during DONE can leave some ranks with a
 * completed step and others with an error. Nobody leaves on DONE alone, so
 * those who completed it are still there, in LEAVE, when the others start
 * the recovery, and they recover too. A rank that completed DONE knows that
 * every rank called finish: if LEAVE fails and no recovery is possible any
 * more (someone completed LEAVE and left), the answer stands
 * (st.failed_after_end).
 */
#include "ftiter_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PHASE_NONE = 0, PHASE_CKPT = 1, PHASE_DONE = 2 };

/* A step's result: MPI_SUCCESS, an MPI error (> 0: recover), or an FTITER_ERR_ (< 0: stop). */

static int loop_control(ftiter_t *sk, int phase, int64_t iter, int status, long long out[3])
{
    long long in[3] = {phase, iter, -(long long)status};
    int rc = MPI_Allreduce(in, out, 3, MPI_LONG_LONG_INT, MPI_MAX, sk->ctl);
    out[2] = -out[2]; /* errors are negative: the largest magnitude won */
    return rc;
}

/* FTITER_CKPT_STATS=1: every rank prints where its checkpoint went (stderr) */
static void loop_ckpt_stats(const ftiter_t *sk, int64_t iter)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("FTITER_CKPT_STATS");
        on = e != NULL && e[0] == '1';
    }
    dckpt_stats_t d;
    if (!on || dckpt_last_stats(sk->ckpt, &d) != DCKPT_SUCCESS)
        return;
    fprintf(stderr,
            "ckpt_stats rank %d iter %lld overlapped %d wait %.4f records %.4f copy %.4f "
            "encode %.4f crc %.4f commit %.4f registered %zu copied %zu copied_frozen %zu "
            "encoded %zu\n",
            sk->world_rank, (long long)iter, d.overlapped, d.wait_s, d.records_s, d.copy_s,
            d.encode_s, d.crc_s, d.commit_s, d.registered, d.copied, d.copied_frozen,
            d.encoded);
}

static int loop_checkpoint(ftiter_t *sk, int64_t iter)
{
    ftiter_fault_point("ckpt", iter);
    ftiter_meta_t meta = {FTITER_META_MAGIC, 0, iter};
    int64_t epoch = 0;
    int drc = dckpt_checkpoint(sk->ckpt, &meta, sizeof(meta), &epoch);
    if (drc == DCKPT_ERR_MPI)
        return MPI_ERR_OTHER;
    if (drc == DCKPT_ERR_NOMEM) {
        /* agreed everywhere; the last epoch stands: go on, try again later */
        ftiter_log(sk, "checkpoint at iteration %lld skipped: out of memory", (long long)iter);
        sk->ckpt_iter = iter;
        return MPI_SUCCESS;
    }
    if (drc != DCKPT_SUCCESS)
        return ftiter_from_dckpt(drc);
    loop_ckpt_stats(sk, iter);
    sk->ckpt_iter = iter;
    sk->st.checkpoints++;
    sk->st.ckpt_memory = dckpt_memory_bytes(sk->ckpt);
    return MPI_SUCCESS;
}

/* Both kinds of rank, after a DONE step that completed with `status`: the
 * LEAVE step. An MPI error here is recovered like any other (sk->ending
 * tells ftiter_run that the answer is already complete). */
static int loop_leave(ftiter_t *sk, int status, int *finished)
{
    sk->ending = 1;
    sk->done_status = status;
    ftiter_fault_point("done", sk->iter);
    /* The last step also makes the statistics job-wide: a replacement has
     * seen only the checkpoints and the time since it started, and the
     * report may come from one (rank 0 replaced). */
    long long in[5] = {PHASE_DONE, sk->iter, 0, sk->st.checkpoints,
                       (long long)(1e6 * (ftiter_now() - sk->t_run))};
    long long out[5];
    int rc = MPI_Allreduce(in, out, 5, MPI_LONG_LONG_INT, MPI_MAX, sk->ctl);
    if (rc != MPI_SUCCESS)
        return rc;
    sk->st.checkpoints = out[3];
    sk->run_s_max = 1e-6 * (double)out[4];
    *finished = 1;
    return status;
}

/* Data rank: the solver's own checkpoint routine into the serialized buffer. */
static int loop_save(ftiter_t *sk)
{
    if (sk->blob == NULL)
        return 0;
    size_t len = 0;
    int rc = sk->ops.save(sk->app, sk->blob + sizeof(ftiter_blob_hdr_t), sk->blob_cap, &len);
    if (rc != MPI_SUCCESS || len > sk->blob_cap)
        return FTITER_ERR_APP;
    ftiter_blob_hdr_t hdr = {len, 0};
    memcpy(sk->blob, &hdr, sizeof(hdr));
    return 0;
}

static int loop_ckpt_due(const ftiter_t *sk)
{
    if (sk->par.ckpt_interval <= 0)
        return 0;
    if (sk->ckpt_iter < 0) /* none yet (or restarted from init) */
        return !sk->par.skip_initial || sk->iter >= sk->par.ckpt_interval;
    return sk->iter - sk->ckpt_iter >= sk->par.ckpt_interval;
}

/* Data ranks until the end or an error. */
static int loop_data(ftiter_t *sk, int *finished)
{
    MPI_Comm data = dckpt_data_comm(sk->ckpt);
    int rc;
    long long out[3];
    if (sk->need_rebuild) {
        if (sk->ops.comm_rebuilt && (rc = sk->ops.comm_rebuilt(sk->app, data)) != MPI_SUCCESS)
            return rc;
        sk->need_rebuild = 0;
    }
    if (sk->need_init) {
        if ((rc = sk->ops.init(sk->app, data)) != MPI_SUCCESS)
            return rc;
        sk->need_init = 0;
        sk->iter = 0;
        sk->ckpt_iter = -1;
    }
    int done = 0;
    for (;;) {
        if (done) {
            int status = 0;
            if (sk->ops.finish) {
                rc = sk->ops.finish(sk->app, data, sk->iter, sk->st.converged);
                if (rc > 0)
                    return rc;
                status = rc;
            }
            if ((rc = loop_control(sk, PHASE_DONE, sk->iter, status, out)) != MPI_SUCCESS)
                return rc;
            return loop_leave(sk, (int)out[2], finished);
        }
        if (loop_ckpt_due(sk)) {
            double t0 = ftiter_now();
            int status = loop_save(sk);
            if ((rc = loop_control(sk, PHASE_CKPT, sk->iter, status, out)) != MPI_SUCCESS)
                return rc;
            if (out[2] != 0)
                return (int)out[2];
            if ((rc = loop_checkpoint(sk, sk->iter)) != MPI_SUCCESS)
                return rc;
            sk->st.ckpt_s += ftiter_now() - t0;
            ftiter_log(sk, "checkpoint %lld at iteration %lld: %.4f s",
                       (long long)sk->st.checkpoints, (long long)sk->iter, ftiter_now() - t0);
            if (sk->world_rank == 0) { /* for the event log and monitor */
                static const char *const keys[] = {"epoch", "iteration", "seconds"};
                double v[] = {(double)sk->st.checkpoints, (double)sk->iter, ftiter_now() - t0};
                FTMPI_Note("checkpoint", 3, keys, v);
            }
        }
        ftiter_fault_point("iter", sk->iter);
        double t0 = ftiter_now();
        if ((rc = sk->ops.iterate(sk->app, data, sk->iter)) != MPI_SUCCESS)
            return rc;
        sk->iter++;
        sk->st.iterations_run++;
        int conv = 0;
        if ((rc = sk->ops.converged(sk->app, data, sk->iter, &conv)) != MPI_SUCCESS)
            return rc;
        sk->st.iterate_s += ftiter_now() - t0;
        sk->st.converged = conv;
        done = conv || (sk->par.max_iter > 0 && sk->iter >= sk->par.max_iter);
    }
}

/* Checksum ranks: wait in the control step, checkpoint, until DONE. */
static int loop_checksum(ftiter_t *sk, int *finished)
{
    long long out[3];
    int rc;
    for (;;) {
        double t0 = ftiter_now();
        if ((rc = loop_control(sk, PHASE_NONE, -1, 0, out)) != MPI_SUCCESS)
            return rc;
        sk->iter = out[1];
        if (out[0] == PHASE_DONE)
            return loop_leave(sk, (int)out[2], finished);
        if (out[2] != 0)
            return (int)out[2];
        ftiter_fault_point("iter", sk->iter);
        if ((rc = loop_checkpoint(sk, sk->iter)) != MPI_SUCCESS)
            return rc;
        sk->st.ckpt_s += ftiter_now() - t0; /* includes the wait for the data ranks */
    }
}

int ftiter_run(ftiter_t *sk)
{
    if (sk == NULL || sk->ckpt == NULL)
        return FTITER_ERR_ARG;
    double t0 = ftiter_now();
    sk->t_run = t0;
    int rc;
    for (;;) {
        int finished = 0;
        rc = sk->is_data ? loop_data(sk, &finished) : loop_checksum(sk, &finished);
        if (finished || rc < 0)
            break;
        /* an MPI error: a process failed (or something else MPI reported) */
        rc = ftiter_recover(sk, rc);
        if (rc != FTITER_SUCCESS && sk->ending) {
            /* Past DONE, every rank has the answer; the recovery failed
               because ranks have left already (or too many failed at the
               very end): the answer stands. */
            ftiter_log(sk, "a process failed after the run ended; the answer stands");
            sk->st.failed_after_end = 1;
            rc = sk->done_status;
            break;
        }
        if (rc != FTITER_SUCCESS)
            break;
        sk->ending = 0; /* recovered: the loop goes on from the checkpoint */
    }
    if (rc > 0)
        rc = FTITER_ERR_MPI;
    sk->st.iterations = sk->iter; /* checksum ranks: from the last control step */
    sk->st.solve_s = ftiter_now() - t0;
    if (sk->run_s_max > sk->st.solve_s) /* a replacement: the job's, not its own */
        sk->st.solve_s = sk->run_s_max;
    return rc;
}
