/*
 * dtype_bw: bandwidth of non-contiguous data: ping-pong between ranks 0 and
 * 1 with a derived datatype on both sides, and MPI_Pack/MPI_Unpack
 * throughput, for the layouts real codes send:
 *
 *   vector   every other double (MPI_Type_vector(n, 1, 2, MPI_DOUBLE))
 *   face     a halo face of a 3-D array of doubles (MPI_Type_create_subarray),
 *            the face across the fastest dimension: one double per row
 *   blocks   a tile of a row-major matrix: rows of 512 doubles (4 KiB runs)
 *            out of rows of 640 (MPI_Type_vector(n, 512, 640, MPI_DOUBLE)),
 *            the long runs that single copy moves in place
 *   struct   an array of a 90-field struct of mixed types (doubles, floats,
 *            ints, shorts, chars, with C's padding), like FT-MPI's fluid
 *            dynamics test type, resized to sizeof(struct)
 *
 * Sizes are bytes of data per message (the packed size): 12 KiB and 100 KB
 * by default (--sizes a,b,... to change; --layouts a,b,... to measure only
 * some layouts: a face of a few MB lives in an array of gigabytes). Metrics,
 * one line each:
 *
 *   <layout>_pingpong <bytes> <MB/s>   ranks 0 -> 1 -> 0, same type both ways;
 *                                      bytes / half the round trip
 *   <layout>_pack <bytes> <MB/s>       MPI_Pack of one message on rank 0
 *   <layout>_unpack <bytes> <MB/s>     MPI_Unpack of one message on rank 0
 *
 * 1 MB = 10^6 bytes. Every point first checks the data once (what arrives
 * is what the type selects, nothing else in the buffer changes); then
 * --reps timed batches of about --batch-ms each, interleaved over all
 * points, and the median batch is reported. A plain MPI-2 program: it builds
 * unmodified against ftmpi, Open MPI and MPICH (bench/compare.sh).
 */
#include <mpi.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_MAX_REPS 51
#define DB_MAX_SIZES 8
#define DB_TAG 7

/* ---- the 90-field struct ------------------------------------------------ */

#define DB_FIELDS(X)                                                              \
    X(double, rho) X(double, u) X(double, v) X(double, w) X(double, p)            \
    X(double, e) X(int, flag) X(float, t0) X(char, phase) X(double, mu)           \
    X(short, zone) X(double, k) X(double, eps) X(int, bc) X(float, y1)            \
    X(float, y2) X(char, c1) X(char, c2) X(double, gx) X(double, gy)              \
    X(double, gz) X(int, owner) X(float, vol) X(double, area) X(short, lvl)       \
    X(char, tag) X(double, q0) X(double, q1) X(double, q2) X(double, q3)          \
    X(int, n0) X(int, n1) X(int, n2) X(float, f0) X(float, f1) X(char, m0)        \
    X(double, s0) X(double, s1) X(short, h0) X(short, h1) X(double, r0)           \
    X(float, r1) X(int, r2) X(double, r3) X(char, r4) X(double, a0)               \
    X(double, a1) X(double, a2) X(int, i0) X(float, b0) X(double, b1)             \
    X(char, b2) X(char, b3) X(char, b4) X(double, d0) X(int, d1) X(double, d2)    \
    X(float, d3) X(float, d4) X(double, d5) X(short, d6) X(double, x0)            \
    X(double, x1) X(double, x2) X(int, x3) X(int, x4) X(char, x5) X(double, x6)   \
    X(float, x7) X(double, x8) X(double, z0) X(double, z1) X(short, z2)           \
    X(int, z3) X(double, z4) X(float, z5) X(char, z6) X(double, z7) X(double, z8) \
    X(double, o0) X(int, o1) X(double, o2) X(double, o3) X(float, o4)             \
    X(double, o5) X(char, o6) X(double, o7) X(int, o8) X(double, o9) X(int, o10)

#define DB_DECL(T, N) T N;
typedef struct {
    DB_FIELDS(DB_DECL)
} db_cell_t;

#define DB_COUNT1(T, N) +1
enum { DB_NFIELDS = 0 DB_FIELDS(DB_COUNT1) };

static MPI_Datatype db_mpi_of_size(size_t size, int is_float)
{
    if (is_float)
        return size == 8 ? MPI_DOUBLE : MPI_FLOAT;
    switch (size) {
    case 1: return MPI_CHAR;
    case 2: return MPI_SHORT;
    default: return MPI_INT;
    }
}

static MPI_Datatype db_struct_type(void)
{
    int bl[DB_NFIELDS];
    MPI_Aint disp[DB_NFIELDS];
    MPI_Datatype ty[DB_NFIELDS];
    int i = 0;
#define DB_ENTRY(T, N)                                                        \
    bl[i] = 1;                                                                \
    disp[i] = offsetof(db_cell_t, N);                                         \
    ty[i] = db_mpi_of_size(sizeof(T), (T)0.5 != 0);                           \
    i++;
    DB_FIELDS(DB_ENTRY)
    MPI_Datatype s, r;
    MPI_Type_create_struct(DB_NFIELDS, bl, disp, ty, &s);
    MPI_Type_create_resized(s, 0, sizeof(db_cell_t), &r);
    MPI_Type_free(&s);
    return r;
}

/* ---- layouts --------------------------------------------------------- */

enum { L_VECTOR, L_FACE, L_BLOCKS, L_STRUCT, L_COUNT };
static const char *const db_layout_name[L_COUNT] = {"vector", "face", "blocks", "struct"};

typedef struct {
    int layout;
    long bytes;          /* data bytes per message */
    MPI_Datatype type;   /* committed */
    int count;           /* elements of type per message */
    size_t span;         /* buffer bytes the message lives in */
    char *sbuf, *rbuf, *packed;
} db_msg_t;

/* The type and count for `bytes` of data of a layout (rounded down to whole
 * doubles / rows / structs). */
static void db_msg_make(db_msg_t *m, int layout, long bytes)
{
    m->layout = layout;
    m->count = 1;
    if (layout == L_VECTOR) {
        int n = (int)(bytes / 8);
        MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &m->type);
        m->span = (size_t)n * 16;
    } else if (layout == L_FACE) {
        /* an x-face of an n x n x n array: n*n doubles, stride n */
        int f = (int)(bytes / 8), n = 1;
        while ((long)(n + 1) * (n + 1) <= f)
            n++;
        int sizes[3] = {n, n, n}, sub[3] = {n, n, 1}, start[3] = {0, 0, n / 2};
        MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &m->type);
        m->span = (size_t)n * n * n * 8;
    } else if (layout == L_BLOCKS) {
        int rows = (int)(bytes / 4096) > 0 ? (int)(bytes / 4096) : 1;
        MPI_Type_vector(rows, 512, 640, MPI_DOUBLE, &m->type);
        m->span = (size_t)rows * 640 * 8;
    } else {
        int size;
        m->type = db_struct_type();
        MPI_Type_size(m->type, &size);
        m->count = (int)(bytes / size) > 0 ? (int)(bytes / size) : 1;
        m->span = (size_t)m->count * sizeof(db_cell_t);
    }
    MPI_Type_commit(&m->type);
    int size;
    MPI_Type_size(m->type, &size);
    m->bytes = (long)size * m->count;
    m->sbuf = malloc(m->span);
    m->rbuf = malloc(m->span);
    m->packed = malloc((size_t)m->bytes + 64);
    if (!m->sbuf || !m->rbuf || !m->packed) {
        fprintf(stderr, "dtype_bw: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < m->span; i++)
        m->sbuf[i] = (char)(i * 7 + 3);
    memset(m->rbuf, 0, m->span);
}

static void db_msg_free(db_msg_t *m)
{
    MPI_Type_free(&m->type);
    free(m->sbuf);
    free(m->rbuf);
    free(m->packed);
}

/* ---- measurements --------------------------------------------------------- */

enum { K_PINGPONG, K_PACK, K_UNPACK, K_COUNT };
static const char *const db_kind_name[K_COUNT] = {"pingpong", "pack", "unpack"};

typedef struct {
    db_msg_t *msg;
    int kind;
    int iters;
    double t[DB_MAX_REPS];
} db_point_t;

static double db_rounds(const db_point_t *p, int rank, int iters)
{
    db_msg_t *m = p->msg;
    MPI_Status st;
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (p->kind == K_PINGPONG) {
            if (rank == 0) {
                MPI_Send(m->sbuf, m->count, m->type, 1, DB_TAG, MPI_COMM_WORLD);
                MPI_Recv(m->rbuf, m->count, m->type, 1, DB_TAG, MPI_COMM_WORLD, &st);
            } else {
                MPI_Recv(m->rbuf, m->count, m->type, 0, DB_TAG, MPI_COMM_WORLD, &st);
                MPI_Send(m->rbuf, m->count, m->type, 0, DB_TAG, MPI_COMM_WORLD);
            }
        } else if (rank == 0) {
            int pos = 0;
            if (p->kind == K_PACK)
                MPI_Pack(m->sbuf, m->count, m->type, m->packed, (int)m->bytes + 64, &pos,
                         MPI_COMM_WORLD);
            else
                MPI_Unpack(m->packed, (int)m->bytes + 64, &pos, m->rbuf, m->count, m->type,
                           MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - t0;
}

/* Data check: after a ping-pong, rank 0's receive buffer equals its send
 * buffer where the type selects data and is untouched (zero) elsewhere;
 * the pack/unpack pair reproduces the same. */
static void db_verify(db_msg_t *m, int rank)
{
    MPI_Status st;
    char *mask = malloc(m->span), *ones = malloc((size_t)m->bytes + 1);
    memset(mask, 0, m->span);
    memset(ones, 1, (size_t)m->bytes + 1);
    int pos = 0;
    MPI_Unpack(ones, (int)m->bytes, &pos, mask, m->count, m->type, MPI_COMM_WORLD);
    memset(m->rbuf, 0, m->span);
    if (rank == 0) {
        MPI_Send(m->sbuf, m->count, m->type, 1, DB_TAG, MPI_COMM_WORLD);
        MPI_Recv(m->rbuf, m->count, m->type, 1, DB_TAG, MPI_COMM_WORLD, &st);
    } else {
        MPI_Recv(m->rbuf, m->count, m->type, 0, DB_TAG, MPI_COMM_WORLD, &st);
        MPI_Send(m->rbuf, m->count, m->type, 0, DB_TAG, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        for (size_t i = 0; i < m->span; i++) {
            char want = mask[i] ? m->sbuf[i] : 0;
            if (m->rbuf[i] != want) {
                fprintf(stderr, "dtype_bw: %s %ld: byte %zu of the buffer wrong after the "
                        "ping-pong\n", db_layout_name[m->layout], m->bytes, i);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
        }
        memset(m->rbuf, 0, m->span);
        pos = 0;
        MPI_Pack(m->sbuf, m->count, m->type, m->packed, (int)m->bytes + 64, &pos,
                 MPI_COMM_WORLD);
        pos = 0;
        MPI_Unpack(m->packed, (int)m->bytes + 64, &pos, m->rbuf, m->count, m->type,
                   MPI_COMM_WORLD);
        for (size_t i = 0; i < m->span; i++)
            if (m->rbuf[i] != (mask[i] ? m->sbuf[i] : 0)) {
                fprintf(stderr, "dtype_bw: %s %ld: byte %zu wrong after pack/unpack\n",
                        db_layout_name[m->layout], m->bytes, i);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
    }
    free(mask);
    free(ones);
}

/* Rank 0 decides the batch length; both ranks use it. */
static int db_iters_agree(MPI_Comm comm, int rank, double per_round, double batch_s)
{
    int iters = 0;
    if (rank == 0) {
        double n = per_round > 0 ? batch_s / per_round : 1e6;
        iters = n < 1 ? 1 : (n > 1e6 ? 1000000 : (int)n);
    }
    MPI_Bcast(&iters, 1, MPI_INT, 0, comm);
    return iters;
}

static int db_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- main ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    long sizes[DB_MAX_SIZES] = {12288, 102400};
    int nsizes = 2, reps = 9, warm = 20, want[L_COUNT] = {1, 1, 1, 1};
    double batch_s = 0.02;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            reps = 3;
            batch_s = 0.005;
            warm = 5;
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--batch-ms") == 0 && i + 1 < argc) {
            batch_s = atof(argv[++i]) / 1000.0;
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            nsizes = 0;
            for (char *s = strtok(argv[++i], ","); s && nsizes < DB_MAX_SIZES;
                 s = strtok(NULL, ","))
                sizes[nsizes++] = atol(s);
        } else if (strcmp(argv[i], "--layouts") == 0 && i + 1 < argc) {
            memset(want, 0, sizeof want);
            for (char *s = strtok(argv[++i], ","); s; s = strtok(NULL, ",")) {
                int l = 0;
                while (l < L_COUNT && strcmp(s, db_layout_name[l]) != 0)
                    l++;
                if (l == L_COUNT) {
                    if (rank == 0)
                        fprintf(stderr, "dtype_bw: unknown layout '%s'\n", s);
                    MPI_Finalize();
                    return 2;
                }
                want[l] = 1;
            }
        } else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [--quick] [--reps N] [--batch-ms MS] "
                                "[--sizes B1,B2,...] [--layouts L1,L2,...]\n", argv[0]);
            MPI_Finalize();
            return 2;
        }
    }
    if (reps < 1 || reps > DB_MAX_REPS || batch_s <= 0 || nsizes < 1) {
        if (rank == 0)
            fprintf(stderr, "dtype_bw: bad --reps, --batch-ms or --sizes\n");
        MPI_Finalize();
        return 2;
    }
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "dtype_bw: needs 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Comm comm01;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &comm01);

    if (rank < 2) {
        static db_msg_t msgs[L_COUNT * DB_MAX_SIZES];
        static db_point_t pts[L_COUNT * DB_MAX_SIZES * K_COUNT];
        int nm = 0, np = 0;
        for (int l = 0; l < L_COUNT; l++)
            for (int s = 0; s < nsizes && want[l]; s++) {
                db_msg_t *m = &msgs[nm++];
                db_msg_make(m, l, sizes[s]);
                db_verify(m, rank);
                for (int k = 0; k < K_COUNT; k++)
                    pts[np++] = (db_point_t){.msg = m, .kind = k};
            }
        if (rank == 0) {
            int v, sv;
            MPI_Get_version(&v, &sv);
            printf("# dtype_bw: MPI %d.%d, reps %d, batch %.1f ms; struct: %d fields, "
                   "%zu bytes\n", v, sv, reps, batch_s * 1e3, (int)DB_NFIELDS,
                   sizeof(db_cell_t));
            for (int l = 0; l < L_COUNT; l++)
                for (int k = 0; k < K_COUNT && want[l]; k++)
                    printf("# unit %s_%s MB/s higher\n", db_layout_name[l], db_kind_name[k]);
        }
        for (int i = 0; i < np; i++) {
            double t = db_rounds(&pts[i], rank, warm);
            MPI_Bcast(&t, 1, MPI_DOUBLE, 0, comm01);
            pts[i].iters = db_iters_agree(comm01, rank, t / warm, batch_s);
        }
        for (int r = 0; r < reps; r++)
            for (int i = 0; i < np; i++) {
                db_rounds(&pts[i], rank, 1);
                MPI_Barrier(comm01);
                pts[i].t[r] = db_rounds(&pts[i], rank, pts[i].iters);
            }
        if (rank == 0) {
            for (int i = 0; i < np; i++) {
                db_point_t *p = &pts[i];
                qsort(p->t, (size_t)reps, sizeof(double), db_cmp);
                double med = reps % 2 ? p->t[reps / 2]
                                      : 0.5 * (p->t[reps / 2 - 1] + p->t[reps / 2]);
                double per = med / p->iters;
                if (p->kind == K_PINGPONG)
                    per /= 2.0;
                printf("%s_%s %ld %.1f\n", db_layout_name[p->msg->layout],
                       db_kind_name[p->kind], p->msg->bytes, (double)p->msg->bytes / per / 1e6);
            }
            fflush(stdout);
        }
        for (int i = 0; i < nm; i++)
            db_msg_free(&msgs[i]);
        MPI_Comm_free(&comm01);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
