/*
 * app_common.h - code shared by the demo applications (apps/cg, apps/pstswm,
 * apps/dense and the dense apps lu, matmul, qr built on it). Library
 * `appcommon`.
 *
 *   app_opts.c    command-line pieces: number options, the checkpoint code,
 *                 -h/--help, --json, --verbose
 *   app_util.c    FNV-1a, JSON numbers, the checkpoint code's name,
 *                 the end of a run whose skeleton failed (messages, exit status)
 *   app_report.c  the recoveries of a run (ftiter_stats_t) as text lines or a
 *                 JSON array, with kill times from ftmpirun's --event-log file
 *   app_input.c   the input check on world rank 0, verdict broadcast
 *   app_mtx.c     Matrix Market reader (coordinate real|integer|pattern
 *                 general|symmetric, square), line by line, with checks
 */
#ifndef APP_COMMON_H
#define APP_COMMON_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ft_iterative.h"

/* ------------------------------------------------------------------ options */

/* A number option: 0 and *v set when the whole of `s` is a number in
   [lo, hi] (strtod syntax, nothing after it; NaN is never in range), else -1. */
int app_opt_num(const char *s, double lo, double hi, double *v);
/* "xor" or "rs": 0 and *c, else -1. */
int app_opt_code(const char *s, dckpt_code_t *c);
/* The flags every FT demo has: -h/--help (`usage` printed on stdout when
   `loud`): 1; --json, --verbose (the int set to 1): 2; anything else: 0. */
int app_opt_flag(const char *a, const char *usage, int loud, int *json, int *verbose);

/* ------------------------------------------------------------------ util */

/* "xor" or "rs" */
const char *app_code_name(dckpt_code_t c);

/* FNV-1a, 64 bits, over bytes: start from APP_FNV1A_INIT. */
#define APP_FNV1A_INIT 14695981039346656037ull
uint64_t app_fnv1a(uint64_t h, const void *p, size_t n);

/* "key": value, or "key": null when v is NaN or Inf; ", " after it when comma. */
void app_json_dbl(FILE *out, const char *key, double v, int comma);

/* Exit statuses shared by the apps (each app's docs page lists its own). */
enum {
    APP_EXIT_USAGE = 2,         /* bad options */
    APP_EXIT_UNRECOVERABLE = 3, /* more failures in a group than checksum ranks */
    APP_EXIT_ERROR = 4          /* any other fatal error */
};

/*
 * The end of a run whose ftiter_create or ftiter_run returned rc (not
 * FTITER_SUCCESS): prints `prog: rank R: err` (when err is set, on rank 0,
 * or on every rank for a non-application error) and `prog: rank R cannot
 * continue: REASON`, then ends the process: rank 0 (or any rank for an
 * error other than "unrecoverable") through MPI_Abort with
 * APP_EXIT_UNRECOVERABLE or APP_EXIT_ERROR; the other ranks of an
 * unrecoverable run call MPI_Finalize and return APP_EXIT_UNRECOVERABLE,
 * which the caller returns from main.
 */
int app_ftiter_fail(const char *prog, int rank, int rc, const char *err);

/* ------------------------------------------------------------------ input */

/* Physical memory of this host (INFINITY when unknown). */
double app_host_memory_bytes(void);

/* 0 when `need` bytes fit this host's memory, else -1 with "WHAT: too large:
   SIZE about N GiB, more than this host's M GiB of memory" (SIZE says what
   needs it, with its verb: "a 10 x 10 matrix needs"). */
int app_memory_check(const char *what, const char *size, double need, char *err, size_t errlen);

/* An input check: 0, or -1 with a message naming the problem. Local and
   deterministic (every rank would decide the same). */
typedef int (*app_check_fn)(const void *ctx, char *err, size_t errlen);

/* World rank 0 runs `check` and broadcasts the verdict over MPI_COMM_WORLD;
   rank 0 prints "prog: bad input: MESSAGE". Returns 1 (bad) or 0 on every
   rank. Fresh start only: a replacement process must not call it (its first
   MPI calls belong to the recovery). */
int app_input_verdict(const char *prog, app_check_fn check, const void *ctx, int rank,
                      int nprocs);

/* ------------------------------------------------------------------ report */

/*
 * The recoveries of a run, reduced by the skeleton (the same on every rank);
 * `event_log` (may be NULL) is ftmpirun's --event-log file, which gives the
 * kill times and hence detection_s. `unit` names an iteration: "iteration"
 * (cg) or "panel" (the dense apps); it makes the keys
 * `<unit>s_recomputed`, `detected_at_<unit>`, `resumed_from_<unit>`.
 *
 * JSON: `"recoveries": [{...}, ...], "recoveries_total": N` (no comma after).
 * Text: one line per recovery, `prog: recovery I: failed rank R; detection
 * ... ms, MPI recovery ... ms, data restore ... ms; K <unit>s recomputed
 * (...)`. See docs/cg.md, "The report", for each value.
 */
void app_report_recoveries_json(FILE *out, const ftiter_stats_t *st, const char *event_log,
                                const char *unit);
/* The end of a JSON report: "ckpt_interval", "checkpoints",
   "checkpoint_bytes_per_rank", "checkpoint_time_s", "checkpoint_overhead_pct",
   the recoveries (as app_report_recoveries_json), then "}\n". */
void app_report_ckpt_json_end(FILE *out, int64_t interval, const ftiter_stats_t *st,
                              double ckpt_s, double overhead_pct, const char *event_log,
                              const char *unit);
void app_report_recoveries_text(FILE *out, const char *prog, const ftiter_stats_t *st,
                                const char *event_log, const char *unit);

/* ------------------------------------------------------------------ Matrix Market */

/* A Matrix Market file being read: the header is parsed and checked by
   app_mtx_open, entries come one at a time from app_mtx_entry. */
typedef struct app_mtx {
    FILE *f;
    const char *path;
    int pattern, symmetric;
    long long n, nnz;   /* rows (= columns), entries stored in the file */
    long long line;     /* lines read so far */
} app_mtx_t;

/* The largest matrix the reader accepts (32-bit local indices). */
#define APP_MTX_MAX_ROWS 2147483647LL

/* 0, or -1 with a message naming the problem (the file is then closed). */
int app_mtx_open(app_mtx_t *m, const char *path, char *err, size_t errlen);
/* Entry k (0-based) of m->nnz: 0-based indices, value (1 for pattern); a
   missing or malformed line, an index out of range or a NaN/Inf value is
   -1 with a message. */
int app_mtx_entry(app_mtx_t *m, long long k, int64_t *i, int64_t *j, double *v, char *err,
                  size_t errlen);
/* Every entry in turn (app_mtx_entry) to fn, if not NULL: 0, or -1 with a message. */
typedef void (*app_mtx_fn)(void *ctx, int64_t i, int64_t j, double v);
int app_mtx_each(app_mtx_t *m, app_mtx_fn fn, void *ctx, char *err, size_t errlen);
/* After the last entry: 0, or -1 with a message when a non-blank line follows. */
int app_mtx_end(app_mtx_t *m, char *err, size_t errlen);
void app_mtx_close(app_mtx_t *m);

#endif /* APP_COMMON_H */
