/*
 * Collective algorithms: one builder per file, each appending its
 * operations to a schedule (sched.h). Builders see the communicator through
 * s->comm (rank, size); in "local mode" (s->local_mode, intercommunicator
 * collectives) their messages go over the local intracommunicator.
 *
 * Conventions: counts are in elements of the datatype given; `seg` is a
 * segment size in bytes (0: the algorithm's default); MPI_IN_PLACE is
 * resolved by the entry points before a builder runs unless a builder says
 * otherwise. Builders return MPI_SUCCESS or an MPI error class.
 */
#ifndef FTMPI_COLL_ALGS_H
#define FTMPI_COLL_ALGS_H

#include "coll/sched.h"

/* ---- helpers -------------------------------------------------------------- */
static inline char *coll_at(const void *buf, const dt_t *dt, size_t i)
{
    return (char *)buf + (MPI_Aint)i * dt->extent;
}
static inline int coll_p(const sched_t *s) { return s->comm->size; }
static inline int coll_me(const sched_t *s) { return s->comm->rank; }
/* Elements per segment of `seg` bytes (at least 1). */
static inline size_t coll_segcount(const dt_t *dt, size_t seg, size_t def)
{
    if (!seg)
        seg = def;
    size_t n = dt->size ? seg / dt->size : seg;
    return n ? n : 1;
}
static inline int coll_pof2(int p)
{
    int k = 1;
    while (k * 2 <= p)
        k *= 2;
    return k;
}

/* Per-peer blocks for the v/w variants: buffer, count, type of each peer's
 * piece (coll_blocks.c builds them from counts and displacements). */
typedef struct {
    const void **sp;
    size_t *sc;
    dt_t **sd;
    void **rp;
    size_t *rc;
    dt_t **rd;
} coll_blocks_t;

/* ---- barrier ---- */
int barrier_dissemination(sched_t *s);

/* ---- bcast ---- */
int bcast_binomial(sched_t *s, void *buf, size_t count, dt_t *dt, int root);
int bcast_pipeline(sched_t *s, void *buf, size_t count, dt_t *dt, int root, size_t seg);
int bcast_bintree(sched_t *s, void *buf, size_t count, dt_t *dt, int root, size_t seg);
int bcast_scatter_allgather(sched_t *s, void *buf, size_t count, dt_t *dt, int root);

/* ---- reduce (sbuf may be rbuf's contents: sbuf == MPI_IN_PLACE at root) ---- */
int reduce_binomial(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                    int root);
int reduce_pipeline(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                    int root, size_t seg);

/* ---- allreduce (rbuf already holds this rank's contribution) ---- */
int allreduce_recdbl(sched_t *s, void *rbuf, size_t count, dt_t *dt, op_t *op);
int allreduce_rabenseifner(sched_t *s, void *rbuf, size_t count, dt_t *dt, op_t *op);
int allreduce_ring(sched_t *s, void *rbuf, size_t count, dt_t *dt, op_t *op, size_t seg);
int allreduce_reduce_bcast(sched_t *s, void *rbuf, size_t count, dt_t *dt, op_t *op);

/* ---- gather / scatter (root-side types only significant at the root) ---- */
int gather_linear(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                  size_t rcount, dt_t *rdt, int root);
int gather_binomial(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                    size_t rcount, dt_t *rdt, int root);
int gatherv_linear(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                   const int *rcounts, const int *displs, dt_t *rdt, int root);
int scatter_linear(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                   size_t rcount, dt_t *rdt, int root);
int scatter_binomial(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                     size_t rcount, dt_t *rdt, int root);
int scatterv_linear(sched_t *s, const void *sbuf, const int *scounts, const int *displs,
                    dt_t *sdt, void *rbuf, size_t rcount, dt_t *rdt, int root);

/* ---- allgather (rbuf already holds this rank's block) ---- */
int allgather_ring(sched_t *s, void *rbuf, size_t rcount, dt_t *rdt);
int allgather_recdbl(sched_t *s, void *rbuf, size_t rcount, dt_t *rdt);
int allgather_bruck(sched_t *s, void *rbuf, size_t rcount, dt_t *rdt);
int allgatherv_ring(sched_t *s, void *rbuf, const int *rcounts, const int *displs, dt_t *rdt);
int allgatherv_linear(sched_t *s, void *rbuf, const int *rcounts, const int *displs, dt_t *rdt);

/* ---- alltoall ---- */
int alltoall_linear(sched_t *s, const coll_blocks_t *b);
int alltoall_pairwise(sched_t *s, const coll_blocks_t *b);
int alltoall_bruck(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                   size_t rcount, dt_t *rdt);

/* ---- reduce_scatter (sbuf: the full input vector, never MPI_IN_PLACE) ---- */
int reduce_scatter_reduce_scatterv(sched_t *s, const void *sbuf, void *rbuf, const int *rcounts,
                                   dt_t *dt, op_t *op);
int reduce_scatter_ring(sched_t *s, const void *sbuf, void *rbuf, const int *rcounts, dt_t *dt,
                        op_t *op);

/* ---- scan / exscan (sbuf never MPI_IN_PLACE) ---- */
int scan_linear(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                int exclusive);
int scan_recdbl(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                int exclusive);

/* ---- intercommunicators (inter.c, inter_reduce.c) ---- */
int inter_barrier(sched_t *s);
int inter_bcast(sched_t *s, void *buf, size_t count, dt_t *dt, int root);
int inter_gatherv(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                  const int *rcounts, const int *displs, int rcount, dt_t *rdt, int root);
int inter_scatterv(sched_t *s, const void *sbuf, const int *scounts, const int *displs,
                   int scount, dt_t *sdt, void *rbuf, size_t rcount, dt_t *rdt, int root);
int inter_alltoallw(sched_t *s, const coll_blocks_t *b);
int inter_reduce(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                 int root);
int inter_allreduce(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op);
int inter_reduce_scatter(sched_t *s, const void *sbuf, void *rbuf, const int *rcounts, dt_t *dt,
                         op_t *op);

#endif
