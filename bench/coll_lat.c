/*
 * coll_lat: latency of MPI_Bcast, MPI_Allreduce, MPI_Alltoall,
 * MPI_Allgather and MPI_Barrier on MPI_COMM_WORLD.
 *
 * A plain MPI program: it builds unmodified against any MPI, so that
 * bench/compare.sh can run it under ftmpi, Open MPI and MPICH side by side.
 *
 *   bcast      <size> = message bytes (root 0)
 *   allreduce  <size> = vector bytes (MPI_DOUBLE, MPI_SUM)
 *   alltoall   <size> = bytes per pair of ranks (MPI_BYTE)
 *   allgather  <size> = bytes per rank (MPI_BYTE)
 *   barrier    reported once, as size 0
 * and, with --ops (for tools/ftmpi_tune): reduce (vector bytes, root 0),
 * gather and scatter (bytes per rank, root 0), reduce_scatter (bytes per
 * rank, MPI_Reduce_scatter_block), scan (vector bytes).
 *
 * Sizes run from 8 B to --max-size (default 1 MiB) by powers of 2 (by 4
 * with --quick). For every point: one checked call, warm-up calls, a batch
 * length chosen by rank 0 so that a batch takes about --batch-ms, then
 * --reps sweeps over all points timing one batch each; a batch's time is
 * the slowest rank's, and the MEDIAN batch of each point is reported, in
 * microseconds per call.
 *
 * Output (rank 0): "<metric> <bytes> <usec>" lines, and
 * "# unit <metric> usec lower".
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CL_MAX_REPS 51
#define CL_MAX_POINTS 128

enum { OP_BCAST, OP_ALLREDUCE, OP_ALLTOALL, OP_ALLGATHER, OP_BARRIER, OP_REDUCE, OP_GATHER,
       OP_SCATTER, OP_REDUCE_SCATTER, OP_SCAN, OP_N };
static const char *op_names[OP_N] = {"bcast", "allreduce", "alltoall", "allgather", "barrier",
                                     "reduce", "gather", "scatter", "reduce_scatter", "scan"};
#define OP_DEFAULT 5 /* the first five are measured unless --ops says otherwise */

typedef struct {
    long min_size, max_size;
    int step;            /* size multiplier */
    int reps;
    double batch_s;
    int warmup;
    int max_iters;
    int ops[OP_N];
} cl_opts_t;

typedef struct {
    int op;
    long size;
    int iters;
    double t[CL_MAX_REPS];
} cl_point_t;

static int rank, nranks;
static char *sbuf, *rbuf;

static long parse_size(const char *s)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0)
        return -1;
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    return *end ? -1 : v;
}

static void usage(const char *prog)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: %s [--quick] [--min-size B] [--max-size B] [--reps N] [--batch-ms MS]\n"
                "          [--ops bcast,allreduce,alltoall,allgather,barrier,reduce,gather,\n"
                "                 scatter,reduce_scatter,scan]\n",
                prog);
}

static int parse_opts(int argc, char **argv, cl_opts_t *o)
{
    *o = (cl_opts_t){8, 1L << 20, 2, 7, 0.010, 5, 20000, {0}};
    for (int k = 0; k < OP_DEFAULT; k++)
        o->ops[k] = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) {
            o->step = 4;
            o->reps = 5;
            o->batch_s = 0.004;
            o->warmup = 2;
        } else if (!strcmp(a, "--min-size") && v) {
            o->min_size = parse_size(v), i++;
        } else if (!strcmp(a, "--max-size") && v) {
            o->max_size = parse_size(v), i++;
        } else if (!strcmp(a, "--reps") && v) {
            o->reps = atoi(v), i++;
        } else if (!strcmp(a, "--batch-ms") && v) {
            o->batch_s = atof(v) / 1000.0, i++;
        } else if (!strcmp(a, "--ops") && v) {
            memset(o->ops, 0, sizeof(o->ops));
            char *copy = strdup(v), *save = NULL;
            for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                int k;
                for (k = 0; k < OP_N && strcmp(t, op_names[k]); k++)
                    ;
                if (k == OP_N) {
                    free(copy);
                    return -1;
                }
                o->ops[k] = 1;
            }
            free(copy);
            i++;
        } else {
            return -1;
        }
    }
    if (o->min_size < 1 || o->max_size < o->min_size || o->reps < 1 || o->reps > CL_MAX_REPS ||
        o->batch_s <= 0)
        return -1;
    return 0;
}

static void run_op(int op, long size)
{
    int n = (int)size;
    switch (op) {
    case OP_BCAST:
        MPI_Bcast(sbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case OP_ALLREDUCE:
        MPI_Allreduce(sbuf, rbuf, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case OP_ALLTOALL:
        MPI_Alltoall(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case OP_ALLGATHER:
        MPI_Allgather(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case OP_REDUCE:
        MPI_Reduce(sbuf, rbuf, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case OP_GATHER:
        MPI_Gather(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case OP_SCATTER:
        MPI_Scatter(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case OP_REDUCE_SCATTER:
        MPI_Reduce_scatter_block(sbuf, rbuf, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM,
                                 MPI_COMM_WORLD);
        break;
    case OP_SCAN:
        MPI_Scan(sbuf, rbuf, n / (int)sizeof(double), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    default:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    }
}

/* Seconds of `iters` calls, the slowest rank's. */
static double time_batch(int op, long size, int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        run_op(op, size);
    double t = MPI_Wtime() - t0, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

/* One call with known data, checked everywhere. */
static void verify(int op, long size)
{
    long i, bad = -1;
    switch (op) {
    case OP_BCAST:
        for (i = 0; i < size; i++)
            sbuf[i] = rank == 0 ? (char)(i * 7 + 1) : 0;
        run_op(op, size);
        for (i = 0; i < size && bad < 0; i++)
            if (sbuf[i] != (char)(i * 7 + 1))
                bad = i;
        break;
    case OP_ALLREDUCE: {
        double *d = (double *)sbuf, *r = (double *)rbuf;
        long n = size / (long)sizeof(double);
        for (i = 0; i < n; i++)
            d[i] = rank + (double)(i % 100);
        run_op(op, size);
        double base = (double)nranks * (nranks - 1) / 2;
        for (i = 0; i < n && bad < 0; i++)
            if (r[i] != base + nranks * (double)(i % 100))
                bad = i;
        for (i = 0; i < n; i++)
            d[i] = 0;
        break;
    }
    case OP_ALLTOALL:
    case OP_ALLGATHER:
        for (int p = 0; p < nranks; p++)
            for (i = 0; i < size; i++)
                sbuf[p * size + i] = (char)(rank * 31 + (op == OP_ALLTOALL ? p : 0) + i);
        run_op(op, size);
        for (int p = 0; p < nranks && bad < 0; p++)
            for (i = 0; i < size && bad < 0; i++)
                if (rbuf[p * size + i] != (char)(p * 31 + (op == OP_ALLTOALL ? rank : 0) + i))
                    bad = p * size + i;
        break;
    default:
        run_op(op, size);
    }
    if (bad >= 0) {
        fprintf(stderr, "coll_lat: rank %d: %s of %ld bytes: wrong data at %ld\n", rank,
                op_names[op], size, bad);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    cl_opts_t o;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (parse_opts(argc, argv, &o) != 0) {
        usage(argv[0]);
        MPI_Finalize();
        return 2;
    }
    size_t bytes = (size_t)o.max_size * (size_t)nranks;
    sbuf = malloc(bytes);
    rbuf = malloc(bytes);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "coll_lat: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    memset(sbuf, 0, bytes);
    memset(rbuf, 0, bytes);

    static cl_point_t pts[CL_MAX_POINTS];
    int n = 0;
    for (int op = 0; op < OP_N; op++) {
        if (!o.ops[op])
            continue;
        if (op == OP_BARRIER) {
            pts[n++] = (cl_point_t){.op = op, .size = 0};
            continue;
        }
        for (long s = o.min_size; s <= o.max_size && n < CL_MAX_POINTS; s *= o.step)
            pts[n++] = (cl_point_t){.op = op, .size = s};
    }
    if (rank == 0) {
        int ver, sub;
        MPI_Get_version(&ver, &sub);
        printf("# coll_lat: %d ranks, MPI %d.%d, reps %d, batch %.1f ms\n", nranks, ver, sub,
               o.reps, o.batch_s * 1e3);
        for (int op = 0; op < OP_N; op++)
            if (o.ops[op])
                printf("# unit %s usec lower\n", op_names[op]);
        fflush(stdout);
    }
    for (int i = 0; i < n; i++) {
        cl_point_t *p = &pts[i];
        verify(p->op, p->size);
        double tw = time_batch(p->op, p->size, o.warmup) / o.warmup;
        int iters = tw > 0 ? (int)(o.batch_s / tw) : o.max_iters;
        if (iters < 1)
            iters = 1;
        if (iters > o.max_iters)
            iters = o.max_iters;
        MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
        p->iters = iters;
    }
    for (int r = 0; r < o.reps; r++)
        for (int i = 0; i < n; i++)
            pts[i].t[r] = time_batch(pts[i].op, pts[i].size, pts[i].iters);
    if (rank == 0) {
        for (int i = 0; i < n; i++) {
            qsort(pts[i].t, (size_t)o.reps, sizeof(double), cmp_double);
            double med = o.reps % 2 ? pts[i].t[o.reps / 2]
                                    : 0.5 * (pts[i].t[o.reps / 2 - 1] + pts[i].t[o.reps / 2]);
            printf("%s %ld %.3f\n", op_names[pts[i].op], pts[i].size, med / pts[i].iters * 1e6);
        }
        fflush(stdout);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
