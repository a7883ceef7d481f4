/* Entry points: mw_init, mw_config_init, mw_run. */
#include "mw_int.h"

#include <stdlib.h>
#include <string.h>

static int init_seen, init_restarted;

void mw_note_init(int mpi_init_rc)
{
    init_seen = 1;
#ifdef MPI_INIT_RESTARTED_NODE
    init_restarted = mpi_init_rc == MPI_INIT_RESTARTED_NODE;
#else
    (void)mpi_init_rc;
    init_restarted = 0;
#endif
}

int mw_init(int *argc, char ***argv)
{
    int rc = MPI_Init(argc, argv);
    mw_note_init(rc);
#ifdef MPI_INIT_RESTARTED_NODE
    if (rc == MPI_INIT_RESTARTED_NODE)
        return MPI_SUCCESS;
#endif
    return rc;
}

/* Without mw_init / mw_note_init: a process that has been through a
 * recovery before mw_run can only be a replacement. */
static int is_restarted(void)
{
    if (init_seen)
        return init_restarted;
#ifdef FTMPI_NUM_FAILED_PROCS
    int *nf = NULL, flag = 0;
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_NUM_FAILED_PROCS, &nf, &flag) == MPI_SUCCESS &&
        flag && nf && *nf > 0)
        return 1;
#endif
    return 0;
}

void mw_config_init(mw_config_t *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->ntasks = -1;
    cfg->depth = 2;
    cfg->progress = MW_PROGRESS_AUTO;
    cfg->progress_interval = 5.0;
    cfg->verbose = 1;
    cfg->linger_s = 5.0;
}

int mw_run(const mw_ops_t *ops, const mw_config_t *cfg_in, mw_stats_t *stats)
{
    if (stats)
        memset(stats, 0, sizeof(*stats));
    if (!ops || !ops->generate || !ops->work || !ops->consume)
        return MW_ERR_ARG;
    mw_config_t cfg;
    if (cfg_in)
        cfg = *cfg_in;
    else
        mw_config_init(&cfg);
    if (cfg.depth < 1)
        return MW_ERR_ARG;
    const char *e = getenv("MW_LINGER_S");
    if (e && atof(e) > 0)
        cfg.linger_s = atof(e);
    if (cfg.linger_s <= 0)
        cfg.linger_s = 5.0;
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag) {
        fprintf(stderr, "mw: mw_run called before MPI_Init (use mw_init)\n");
        return MW_ERR_ARG;
    }
    double t0 = mw_now();
    mw_net_t n;
    memset(&n, 0, sizeof(n));
    n.verbose = cfg.verbose;
    int rc = mw_net_open(&n, is_restarted());
    init_seen = 1; /* a second mw_run in this process is not a restart */
    init_restarted = 0;
    if (rc == MW_OK) {
        if (n.id == 0 && n.master_failed) {
            /* The master's REBUILD replacement: the ledger died with it. */
            fprintf(stderr,
                    "mw: the master (launch rank 0) failed; it is the single point of failure of "
                    "the master-worker skeleton (comm mode %s): stopping. Results consumed before "
                    "its failure were consumed once; the others were not.\n",
                    mw_mode_name(n.mode));
            rc = MW_ERR_MASTER_LOST;
        } else if (n.id == 0) {
            rc = mw_master_run(&n, ops, &cfg, stats);
        } else {
            rc = mw_worker_run(&n, ops, &cfg, stats);
        }
    } else if (rc == MW_FAIL) {
        rc = MW_ERR_RECOVERY;
    }
    if (stats) {
        stats->recoveries = n.recoveries;
        stats->failed_procs = n.failed_procs;
        stats->seconds = mw_now() - t0;
    }
    if (rc == MW_ERR_MPI || rc == MW_ERR_RECOVERY || rc == MW_ERR_NOMEM) {
        /* The others cannot finish without this process: end the job. */
        fprintf(stderr, "mw: launch rank %d: %s; aborting the job\n", n.id, mw_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 70);
    }
    mw_net_close(&n);
    return rc;
}
