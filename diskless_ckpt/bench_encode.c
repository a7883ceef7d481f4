/*
 * bench_encode.c - throughput of the checkpoint layer, printed as
 * "<metric> <value>" lines (GB/s are 1e9 bytes per second of DATA encoded).
 *
 *   dckpt_bench_encode --kernels [--mib 64]
 *       one process: memcpy, CRC-32, ISA-L Reed-Solomon encode (4+2, 7+1),
 *       the reference (_base) encoder, the streaming column update the chain
 *       uses, XOR parity (7+1): each on --mib MiB of data, single core.
 *   mpirun -n 8 dckpt_bench_encode [--mib 64] [--code rs|xor] [--m 2] [--k 0]
 *                                  [--chunk-kib 256] [--dir /tmp]
 *       dckpt_checkpoint and dckpt_restore (one data rank lost) with --mib MiB
 *       registered per data rank, and, for comparison, each data rank writing
 *       the same bytes to a file in --dir followed by fsync.
 */
#include "diskless_ckpt.h"
#include "dckpt_rs.h"
#include "dckpt_xor.h"

#include <fcntl.h>
#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint8_t *alloc_filled(size_t n, unsigned seed)
{
    uint8_t *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(1);
    }
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (uint8_t)(x >> 24);
    }
    return p;
}

/* best of `reps` runs of fn, as GB/s for `bytes` */
#define BEST_GBPS(reps, bytes, stmt)                                                           \
    ({                                                                                         \
        double best_ = 1e30;                                                                   \
        for (int r_ = 0; r_ < (reps); r_++) {                                                  \
            double t0_ = now();                                                                \
            stmt;                                                                              \
            double t_ = now() - t0_;                                                           \
            if (t_ < best_)                                                                    \
                best_ = t_;                                                                    \
        }                                                                                      \
        (double)(bytes) / best_ / 1e9;                                                         \
    })

static void bench_rs(int k, int m, size_t total, int base)
{
    size_t frag = total / (size_t)k;
    uint8_t *data[DCKPT_RS_MAX_FRAGS], *par[DCKPT_RS_MAX_FRAGS];
    dckpt_rs_t rs;
    if (dckpt_rs_init(&rs, k, m) != 0)
        exit(1);
    for (int i = 0; i < k; i++)
        data[i] = alloc_filled(frag, (unsigned)i);
    for (int j = 0; j < m; j++)
        par[j] = alloc_filled(frag, 100u + (unsigned)j);
    double g;
    if (base)
        g = BEST_GBPS(1, frag * k, dckpt_rs_encode_base(&rs, frag, data, par));
    else
        g = BEST_GBPS(3, frag * k, dckpt_rs_encode(&rs, frag, data, par));
    printf("%s_rs_%dp%d_encode_gbps %.3f\n", base ? "base" : "isal", k, m, g);

    if (!base) {
        /* what one chain stage does: fold a source into m partial rows, chunk by chunk */
        size_t chunk = DCKPT_DEFAULT_CHUNK;
        uint8_t col[DCKPT_RS_MAX_FRAGS], tbls[32 * DCKPT_RS_MAX_FRAGS];
        for (int j = 0; j < m; j++)
            col[j] = dckpt_rs_parity_row(&rs, j)[0];
        dckpt_rs_col_tables(m, col, tbls);
        g = BEST_GBPS(3, frag * k, {
            for (int i = 0; i < k; i++)
                for (size_t off = 0; off < frag; off += chunk) {
                    size_t n = frag - off < chunk ? frag - off : chunk;
                    uint8_t *rows[DCKPT_RS_MAX_FRAGS];
                    for (int j = 0; j < m; j++)
                        rows[j] = par[j] + off;
                    dckpt_rs_col_apply(n, m, tbls, data[i] + off, rows, 1);
                }
        });
        printf("isal_rs_m%d_stream_update_gbps %.3f\n", m, g);
    }
    for (int i = 0; i < k; i++)
        free(data[i]);
    for (int j = 0; j < m; j++)
        free(par[j]);
    dckpt_rs_fini(&rs);
}

static void bench_kernels(size_t total)
{
    uint8_t *a = alloc_filled(total, 1), *b = alloc_filled(total, 2);
    printf("memcpy_gbps %.3f\n", BEST_GBPS(3, total, memcpy(b, a, total)));
    volatile uint32_t sink = 0;
    printf("crc32_gbps %.3f\n", BEST_GBPS(3, total, sink += crc32_gzip_refl(0, a, total)));
    dckpt_simd_clean(); /* ISA-L leaves the vector registers dirty (dckpt_rs.h) */
    (void)sink;
    bench_rs(4, 2, total, 0);
    bench_rs(7, 1, total, 0);
    bench_rs(4, 2, total / 8, 1);

    int k = 7;
    size_t frag = total / (size_t)k;
    uint8_t *data[7];
    for (int i = 0; i < k; i++)
        data[i] = a + (size_t)i * frag;
    printf("xor_7p1_encode_gbps %.3f\n", BEST_GBPS(3, frag * k, dckpt_xor_encode(frag, k, data, b)));
    printf("xor_7p1_encode_base_gbps %.3f\n",
           BEST_GBPS(1, frag * k, dckpt_xor_encode_base(frag, k, data, b)));
    free(a);
    free(b);
}

/* ------------------------------------------------------------------ MPI part */

static double max_over(double t)
{
    double m;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

static void bench_mpi(size_t bytes, dckpt_params_t *par, const char *dir)
{
    int rank, size, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dckpt_ctx_t *ctx;
    if ((rc = dckpt_create(MPI_COMM_WORLD, par, &ctx)) != DCKPT_SUCCESS) {
        fprintf(stderr, "dckpt_create: %s\n", dckpt_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    dckpt_layout_t lay;
    dckpt_layout(ctx, &lay);
    uint8_t *state = NULL;
    if (!lay.is_checksum) {
        state = alloc_filled(bytes, (unsigned)rank);
        dckpt_register(ctx, state, bytes / 2);
        dckpt_register(ctx, state + bytes / 2, bytes - bytes / 2);
    }
    const char *code = par->code == DCKPT_CODE_XOR ? "xor" : "rs";

    /* first checkpoint allocates the double buffer: time it apart */
    double t0 = MPI_Wtime();
    rc = dckpt_checkpoint(ctx, NULL, 0, NULL);
    double first = max_over(MPI_Wtime() - t0);
    int reps = 3;
    double best = 1e30;
    for (int r = 0; r < reps && rc == DCKPT_SUCCESS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        rc = dckpt_checkpoint(ctx, NULL, 0, NULL);
        double t = max_over(MPI_Wtime() - t0);
        if (t < best)
            best = t;
    }
    if (rc != DCKPT_SUCCESS) {
        fprintf(stderr, "dckpt_checkpoint: %s\n", dckpt_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    size_t mem0 = dckpt_memory_bytes(ctx); /* both halves allocated by now */

    /* restore with data rank 0 of group 0 lost (simulated) */
    int lost = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    rc = dckpt_restore(ctx, MPI_COMM_WORLD, 1, &lost, NULL);
    double trest = max_over(MPI_Wtime() - t0);
    if (rc != DCKPT_SUCCESS) {
        fprintf(stderr, "dckpt_restore: %s\n", dckpt_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* the same bytes to a local file, with fsync */
    double tfile = 0;
    if (!lay.is_checksum) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/dckpt_bench_%d.bin", dir, rank);
        MPI_Barrier(dckpt_data_comm(ctx));
        t0 = MPI_Wtime();
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        size_t done = 0;
        while (fd >= 0 && done < bytes) {
            ssize_t w = write(fd, state + done, bytes - done);
            if (w <= 0)
                break;
            done += (size_t)w;
        }
        if (fd < 0 || done != bytes || fsync(fd) != 0) {
            perror(path);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        close(fd);
        tfile = MPI_Wtime() - t0;
        unlink(path);
    }
    tfile = max_over(tfile);

    if (rank == 0) {
        printf("ckpt_np %d\n", size);
        printf("ckpt_ngroups %d\n", lay.ngroups);
        printf("ckpt_data_ranks %d\n", lay.ndata);
        printf("ckpt_bytes_per_rank %zu\n", bytes);
        printf("ckpt_%s_m%d_first_seconds %.4f\n", code, par->m, first);
        printf("ckpt_%s_m%d_seconds %.4f\n", code, par->m, best);
        printf("ckpt_%s_m%d_per_rank_gbps %.3f\n", code, par->m, (double)bytes / best / 1e9);
        printf("restore_%s_m%d_1lost_seconds %.4f\n", code, par->m, trest);
        printf("restore_%s_m%d_per_rank_gbps %.3f\n", code, par->m, (double)bytes / trest / 1e9);
        printf("file_fsync_seconds %.4f\n", tfile);
        printf("file_fsync_per_rank_gbps %.3f\n", (double)bytes / tfile / 1e9);
        printf("ckpt_memory_bytes_rank0 %zu\n", mem0);
    }
    dckpt_free(&ctx);
    free(state);
}

int main(int argc, char **argv)
{
    size_t mib = 64;
    int kernels = 0;
    const char *dir = "/tmp";
    dckpt_params_t par = {DCKPT_CODE_RS, 2, 0, 0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--kernels"))
            kernels = 1;
        else if (!strcmp(argv[i], "--mib") && i + 1 < argc)
            mib = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--code") && i + 1 < argc)
            par.code = !strcmp(argv[++i], "xor") ? DCKPT_CODE_XOR : DCKPT_CODE_RS;
        else if (!strcmp(argv[i], "--m") && i + 1 < argc)
            par.m = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--k") && i + 1 < argc)
            par.k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--chunk-kib") && i + 1 < argc)
            par.chunk_bytes = (size_t)atol(argv[++i]) << 10;
        else {
            fprintf(stderr, "usage: %s [--kernels] [--mib N] [--code rs|xor] [--m M] [--k K] "
                            "[--chunk-kib N] [--dir DIR]\n", argv[0]);
            return 2;
        }
    }
    size_t bytes = mib << 20;
    if (kernels) {
        bench_kernels(bytes);
        return 0;
    }
    MPI_Init(&argc, &argv);
    bench_mpi(bytes, &par, dir);
    MPI_Finalize();
    return 0;
}
