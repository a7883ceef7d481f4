/*
 * pingpong: point-to-point latency and bandwidth between ranks 0 and 1.
 *
 * A plain MPI-1 program: it builds unmodified against any MPI (ftmpi, Open MPI,
 * MPICH), so the numbers of different implementations can be compared.
 *
 *   latency   ping-pong, rank 0 -> 1 -> 0; reported value is half the round
 *             trip, in microseconds, for 0 B and 1 B .. max-size (powers of 2)
 *   bandwidth rank 0 posts a window of non-blocking sends, rank 1 a window of
 *             receives, then rank 1 answers with a 0-byte ack; reported value
 *             is payload bytes / time in MB/s (1 MB = 10^6 bytes), for
 *             1 KiB .. max-size
 *
 * For every size first an untimed exchange that checks the data, warm-up
 * rounds, and a batch length (rounds) chosen so that one batch takes about
 * --batch-ms. Then --reps sweeps over all sizes time one batch per size each,
 * and the MEDIAN batch of each size is reported: machines are noisy, and a
 * slow phase costs every size one batch instead of ruining a few sizes.
 *
 * Output (stdout, rank 0 only), one line per measurement:
 *   latency <bytes> <usec>
 *   bandwidth <bytes> <MB/s>
 * Lines starting with '#' are comments (configuration, units) that tools skip;
 * "# unit <metric> <unit> <lower|higher>" says how a metric reads.
 *
 * Ranks other than 0 and 1 take no part and wait in the final barrier.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PP_TAG_PING 1
#define PP_TAG_PONG 2
#define PP_TAG_CTRL 3
#define PP_TAG_DATA 4
#define PP_TAG_ACK 5

#define PP_MAX_REPS 51
#define PP_MAX_WINDOW 64
/* Bytes one side keeps in flight in the bandwidth window at most. */
#define PP_WINDOW_BYTES (32L << 20)

typedef struct {
    long max_size;     /* largest message, bytes */
    long min_bw_size;  /* smallest bandwidth message, bytes */
    int reps;          /* timed batches per size */
    double batch_s;    /* target duration of one batch */
    int warmup;        /* warm-up rounds per size */
    int max_iters;     /* cap on rounds per batch */
    int do_latency;
    int do_bandwidth;
} pp_opts_t;

typedef struct {
    int rank;
    char *sbuf;        /* PP_WINDOW_BYTES or max_size, whichever is larger */
    char *rbuf;
    long buf_size;
} pp_ctx_t;

static void pp_usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [--quick] [--max-size BYTES] [--reps N] [--batch-ms MS]\n"
            "          [--latency-only | --bandwidth-only]\n"
            "  --quick           short run (fewer reps, shorter batches, up to 1 MiB)\n"
            "  --max-size BYTES  largest message (default 4194304; suffix K or M allowed)\n"
            "  --reps N          timed batches per size, median reported (default 9)\n"
            "  --batch-ms MS     target duration of one batch (default 20)\n",
            prog);
}

static long pp_parse_size(const char *s)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0)
        return -1;
    if (*end == 'K' || *end == 'k') {
        v <<= 10;
        end++;
    } else if (*end == 'M' || *end == 'm') {
        v <<= 20;
        end++;
    }
    return *end == '\0' ? v : -1;
}

/* Returns 0, or -1 on a bad argument (message printed by rank 0). */
static int pp_opts_parse(int argc, char **argv, int rank, pp_opts_t *o)
{
    o->max_size = 4L << 20;
    o->min_bw_size = 1024;
    o->reps = 9;
    o->batch_s = 0.020;
    o->warmup = 10;
    o->max_iters = 100000;
    o->do_latency = 1;
    o->do_bandwidth = 1;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (strcmp(a, "--quick") == 0) {
            o->max_size = 1L << 20;
            o->reps = 5;
            o->batch_s = 0.004;
            o->warmup = 3;
        } else if (strcmp(a, "--max-size") == 0 && val) {
            o->max_size = pp_parse_size(val);
            i++;
            if (o->max_size < 1 || o->max_size > (1L << 30))
                goto bad;
        } else if (strcmp(a, "--reps") == 0 && val) {
            o->reps = atoi(val);
            i++;
            if (o->reps < 1 || o->reps > PP_MAX_REPS)
                goto bad;
        } else if (strcmp(a, "--batch-ms") == 0 && val) {
            o->batch_s = atof(val) / 1000.0;
            i++;
            if (o->batch_s <= 0.0)
                goto bad;
        } else if (strcmp(a, "--latency-only") == 0) {
            o->do_bandwidth = 0;
        } else if (strcmp(a, "--bandwidth-only") == 0) {
            o->do_latency = 0;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            goto bad;
        } else {
            if (rank == 0)
                fprintf(stderr, "pingpong: unknown or incomplete argument '%s'\n", a);
            goto bad;
        }
    }
    return 0;
bad:
    if (rank == 0)
        pp_usage(argv[0]);
    return -1;
}

static int pp_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double pp_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), pp_cmp_double);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static unsigned char pp_pattern(long size, long i)
{
    return (unsigned char)((i * 131 + size * 7 + 1) & 0xff);
}

static void pp_fill(char *buf, long size)
{
    for (long i = 0; i < size; i++)
        buf[i] = (char)pp_pattern(size, i);
}

/* Returns the index of the first wrong byte, or -1 when the buffer is right. */
static long pp_check(const char *buf, long size)
{
    for (long i = 0; i < size; i++)
        if ((unsigned char)buf[i] != pp_pattern(size, i))
            return i;
    return -1;
}

static void pp_fail(const char *what, long size, long at)
{
    fprintf(stderr, "pingpong: %s: data of a %ld-byte message wrong at byte %ld\n",
            what, size, at);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

/* Rank 0 decides how many rounds a batch has and tells rank 1. */
static int pp_iters_agree(const pp_ctx_t *c, const pp_opts_t *o, double per_round_s)
{
    int iters = 0;
    if (c->rank == 0) {
        double n = per_round_s > 0.0 ? o->batch_s / per_round_s : o->max_iters;
        iters = n < 1.0 ? 1 : (n > o->max_iters ? o->max_iters : (int)n);
        MPI_Send(&iters, 1, MPI_INT, 1, PP_TAG_CTRL, MPI_COMM_WORLD);
    } else {
        MPI_Status st;
        MPI_Recv(&iters, 1, MPI_INT, 0, PP_TAG_CTRL, MPI_COMM_WORLD, &st);
    }
    return iters;
}

/* ---- latency ---------------------------------------------------------- */

static double pp_lat_rounds(const pp_ctx_t *c, long size, int iters)
{
    MPI_Status st;
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (c->rank == 0) {
            MPI_Send(c->sbuf, (int)size, MPI_BYTE, 1, PP_TAG_PING, MPI_COMM_WORLD);
            MPI_Recv(c->rbuf, (int)size, MPI_BYTE, 1, PP_TAG_PONG, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(c->rbuf, (int)size, MPI_BYTE, 0, PP_TAG_PING, MPI_COMM_WORLD, &st);
            MPI_Send(c->sbuf, (int)size, MPI_BYTE, 0, PP_TAG_PONG, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}

/* Untimed round: rank 1 echoes what it got; both sides check. */
static void pp_lat_verify(const pp_ctx_t *c, long size)
{
    MPI_Status st;
    long bad;
    if (c->rank == 0) {
        pp_fill(c->sbuf, size);
        if (size > 0)
            memset(c->rbuf, 0, (size_t)size);
        MPI_Send(c->sbuf, (int)size, MPI_BYTE, 1, PP_TAG_PING, MPI_COMM_WORLD);
        MPI_Recv(c->rbuf, (int)size, MPI_BYTE, 1, PP_TAG_PONG, MPI_COMM_WORLD, &st);
        if ((bad = pp_check(c->rbuf, size)) >= 0)
            pp_fail("latency, echo at rank 0", size, bad);
    } else {
        if (size > 0)
            memset(c->rbuf, 0, (size_t)size);
        MPI_Recv(c->rbuf, (int)size, MPI_BYTE, 0, PP_TAG_PING, MPI_COMM_WORLD, &st);
        if ((bad = pp_check(c->rbuf, size)) >= 0)
            pp_fail("latency, at rank 1", size, bad);
        MPI_Send(c->rbuf, (int)size, MPI_BYTE, 0, PP_TAG_PONG, MPI_COMM_WORLD);
    }
}

/* ---- bandwidth -------------------------------------------------------- */

static int pp_bw_window(long size)
{
    long w = PP_WINDOW_BYTES / size;
    if (w > PP_MAX_WINDOW)
        w = PP_MAX_WINDOW;
    if (w < 2)
        w = 2;
    return (int)w;
}

/* One round = a window of messages from 0 to 1, then a 0-byte ack back.
 * Every message of a window has its own part of the buffer. */
static double pp_bw_rounds(const pp_ctx_t *c, long size, int window, int iters)
{
    MPI_Request req[PP_MAX_WINDOW];
    MPI_Status st[PP_MAX_WINDOW];
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (c->rank == 0) {
            for (int w = 0; w < window; w++)
                MPI_Isend(c->sbuf + (long)w * size, (int)size, MPI_BYTE, 1, PP_TAG_DATA,
                          MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(window, req, st);
            MPI_Recv(NULL, 0, MPI_BYTE, 1, PP_TAG_ACK, MPI_COMM_WORLD, &st[0]);
        } else {
            for (int w = 0; w < window; w++)
                MPI_Irecv(c->rbuf + (long)w * size, (int)size, MPI_BYTE, 0, PP_TAG_DATA,
                          MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(window, req, st);
            MPI_Send(NULL, 0, MPI_BYTE, 0, PP_TAG_ACK, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}

static void pp_bw_verify(const pp_ctx_t *c, long size, int window)
{
    long bad;
    for (int w = 0; w < window; w++) {
        if (c->rank == 0)
            pp_fill(c->sbuf + (long)w * size, size);
        else
            memset(c->rbuf + (long)w * size, 0, (size_t)size);
    }
    pp_bw_rounds(c, size, window, 1);
    if (c->rank == 1) {
        for (int w = 0; w < window; w++)
            if ((bad = pp_check(c->rbuf + (long)w * size, size)) >= 0)
                pp_fail("bandwidth, at rank 1", size, bad);
    }
}

/* ---- the sweep -------------------------------------------------------- */

enum { PP_LATENCY, PP_BANDWIDTH };

typedef struct {
    int kind;                /* PP_LATENCY or PP_BANDWIDTH */
    long size;
    int window;              /* bandwidth only */
    int iters;               /* rounds per timed batch */
    double t[PP_MAX_REPS];   /* seconds per batch */
} pp_point_t;

#define PP_MAX_POINTS 80

static double pp_point_rounds(const pp_ctx_t *c, const pp_point_t *p, int iters)
{
    if (p->kind == PP_LATENCY)
        return pp_lat_rounds(c, p->size, iters);
    return pp_bw_rounds(c, p->size, p->window, iters);
}

/* Check the data, warm up, and fix the batch length of one point. */
static void pp_point_prepare(const pp_ctx_t *c, const pp_opts_t *o, pp_point_t *p)
{
    int warm = o->warmup;
    if (p->kind == PP_LATENCY) {
        pp_lat_verify(c, p->size);
    } else {
        p->window = pp_bw_window(p->size);
        pp_bw_verify(c, p->size, p->window);
        warm = warm / 2 > 0 ? warm / 2 : 1;
    }
    double tw = pp_point_rounds(c, p, warm);
    p->iters = pp_iters_agree(c, o, tw / warm);
}

static void pp_point_print(const pp_opts_t *o, pp_point_t *p)
{
    double med = pp_median(p->t, o->reps);
    if (p->kind == PP_LATENCY)
        printf("latency %ld %.3f\n", p->size, med / p->iters * 1e6 / 2.0);
    else
        printf("bandwidth %ld %.1f\n", p->size,
               (double)p->size * p->window * p->iters / med / 1e6);
}

/*
 * Every size is prepared first; then each repetition sweeps over all sizes,
 * so that a slow phase of the machine costs every size one batch rather than
 * all batches of a few sizes.
 */
static void pp_sweep(const pp_ctx_t *c, const pp_opts_t *o)
{
    static pp_point_t pts[PP_MAX_POINTS];
    int n = 0;

    if (o->do_latency) {
        pts[n++] = (pp_point_t){ .kind = PP_LATENCY, .size = 0 };
        for (long s = 1; s <= o->max_size && n < PP_MAX_POINTS; s *= 2)
            pts[n++] = (pp_point_t){ .kind = PP_LATENCY, .size = s };
    }
    if (o->do_bandwidth)
        for (long s = o->min_bw_size; s <= o->max_size && n < PP_MAX_POINTS; s *= 2)
            pts[n++] = (pp_point_t){ .kind = PP_BANDWIDTH, .size = s };

    for (int i = 0; i < n; i++)
        pp_point_prepare(c, o, &pts[i]);
    for (int r = 0; r < o->reps; r++)
        for (int i = 0; i < n; i++) {
            pp_point_rounds(c, &pts[i], 1); /* untimed: caches and queues settle */
            pts[i].t[r] = pp_point_rounds(c, &pts[i], pts[i].iters);
        }
    if (c->rank == 0) {
        for (int i = 0; i < n; i++)
            pp_point_print(o, &pts[i]);
        fflush(stdout);
    }
}

/* ---- main ------------------------------------------------------------- */

static void pp_header(const pp_opts_t *o, int nranks)
{
    int ver = 0, sub = 0;
    MPI_Get_version(&ver, &sub);
    printf("# pingpong: ranks 0 and 1 of %d, MPI %d.%d, reps %d, batch %.1f ms, "
           "max size %ld\n",
           nranks, ver, sub, o->reps, o->batch_s * 1e3, o->max_size);
    printf("# bandwidth window: up to %d messages, at most %ld bytes in flight\n",
           PP_MAX_WINDOW, PP_WINDOW_BYTES);
    if (o->do_latency)
        printf("# unit latency usec lower\n");
    if (o->do_bandwidth)
        printf("# unit bandwidth MB/s higher\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    pp_opts_t o;
    pp_ctx_t c;
    int nranks;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    if (pp_opts_parse(argc, argv, c.rank, &o) != 0) {
        MPI_Finalize();
        return 2;
    }
    if (nranks < 2) {
        if (c.rank == 0)
            fprintf(stderr, "pingpong: needs at least 2 ranks (got %d)\n", nranks);
        MPI_Finalize();
        return 2;
    }

    if (c.rank <= 1) {
        c.buf_size = o.max_size > PP_WINDOW_BYTES ? o.max_size : PP_WINDOW_BYTES;
        if (o.do_bandwidth && o.max_size * 2 > c.buf_size)
            c.buf_size = o.max_size * 2; /* window of at least 2 */
        c.sbuf = malloc((size_t)c.buf_size);
        c.rbuf = malloc((size_t)c.buf_size);
        if (!c.sbuf || !c.rbuf) {
            fprintf(stderr, "pingpong: rank %d: out of memory (%ld bytes)\n", c.rank,
                    c.buf_size);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        memset(c.sbuf, 1, (size_t)c.buf_size);
        memset(c.rbuf, 0, (size_t)c.buf_size);

        if (c.rank == 0)
            pp_header(&o, nranks);
        pp_sweep(&c, &o);
        free(c.sbuf);
        free(c.rbuf);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
