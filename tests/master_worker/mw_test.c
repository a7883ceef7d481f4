/*
 * mw_test: checks the master-worker skeleton with tasks and results of
 * many sizes (empty, inline, above the eager limit, hundreds of KiB), whose
 * every byte is verified, and counts how often each result is consumed.
 * The master prints "mw_test: N tasks, each result consumed exactly once,
 * contents verified" and exits 0 only if that holds.
 *
 *   mw_test [--tasks N] [--task-ms MS] [--big BYTES] [--depth D]
 *           [--unknown-count] [--fail-task K]
 * --unknown-count: the skeleton is not told N (generate says when to stop);
 * --fail-task K:   work() fails on task K (every rank must return
 *                  MW_ERR_USER, the program exits 3).
 */
#include <master_worker.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct opts {
    int64_t ntasks;
    int task_ms, big, fail_task;
    int *count; /* master: times each result was consumed */
    int bad;
} opts_t;

static unsigned char pat(int64_t i, size_t k, int salt)
{
    return (unsigned char)((i * 131 + (int64_t)k * 7 + salt) & 0xff);
}

static size_t task_len(const opts_t *o, int64_t i)
{
    static const size_t small[] = {0, 1, 200, 3900, 4096, 5000, 70000};
    return i % 8 == 7 ? (size_t)o->big : small[i % 7];
}

static size_t result_len(const opts_t *o, int64_t i)
{
    return task_len(o, i * 3 + 1);
}

static int generate(void *arg, int64_t i, mw_buf_t *task)
{
    opts_t *o = arg;
    if (i >= o->ntasks)
        return 0;
    size_t n = task_len(o, i);
    unsigned char *p = mw_buf_resize(task, n);
    if (!p)
        return -1;
    for (size_t k = 0; k < n; k++)
        p[k] = pat(i, k, 1);
    return 1;
}

static int work(void *arg, int64_t i, const void *in, size_t len, mw_buf_t *res)
{
    opts_t *o = arg;
    const unsigned char *t = in;
    if (len != task_len(o, i)) {
        fprintf(stderr, "mw_test: task %lld has %zu bytes, want %zu\n", (long long)i, len, task_len(o, i));
        return -1;
    }
    for (size_t k = 0; k < len; k++)
        if (t[k] != pat(i, k, 1)) {
            fprintf(stderr, "mw_test: task %lld byte %zu corrupt\n", (long long)i, k);
            return -1;
        }
    if (i == o->fail_task)
        return -7;
    if (o->task_ms > 0) {
        struct timespec ts = {o->task_ms / 1000, (long)(o->task_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    size_t n = result_len(o, i);
    unsigned char *p = mw_buf_resize(res, n);
    if (!p)
        return -1;
    for (size_t k = 0; k < n; k++)
        p[k] = pat(i, k, 2);
    return 0;
}

static int consume(void *arg, int64_t i, const void *r, size_t len)
{
    opts_t *o = arg;
    const unsigned char *p = r;
    if (i < 0 || i >= o->ntasks) {
        fprintf(stderr, "mw_test: result for unknown task %lld\n", (long long)i);
        o->bad++;
        return 0;
    }
    if (++o->count[i] > 1) {
        fprintf(stderr, "mw_test: DUPLICATE: result %lld consumed %d times\n", (long long)i, o->count[i]);
        o->bad++;
    }
    if (len != result_len(o, i)) {
        fprintf(stderr, "mw_test: result %lld has %zu bytes, want %zu\n", (long long)i, len, result_len(o, i));
        o->bad++;
        return 0;
    }
    for (size_t k = 0; k < len; k++)
        if (p[k] != pat(i, k, 2)) {
            fprintf(stderr, "mw_test: result %lld byte %zu corrupt\n", (long long)i, k);
            o->bad++;
            return 0;
        }
    return 0;
}

int main(int argc, char **argv)
{
    opts_t o = {100, 0, 300000, -1, NULL, 0};
    mw_config_t cfg;
    mw_config_init(&cfg);
    int unknown = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--unknown-count")) {
            unknown = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "mw_test: %s needs a value\n", argv[i]);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(argv[i - 1], "--tasks"))
            o.ntasks = atoll(v);
        else if (!strcmp(argv[i - 1], "--task-ms"))
            o.task_ms = atoi(v);
        else if (!strcmp(argv[i - 1], "--big"))
            o.big = atoi(v);
        else if (!strcmp(argv[i - 1], "--depth"))
            cfg.depth = atoi(v);
        else if (!strcmp(argv[i - 1], "--fail-task"))
            o.fail_task = atoi(v);
        else {
            fprintf(stderr, "mw_test: unknown option %s\n", argv[i - 1]);
            return 2;
        }
    }
    cfg.ntasks = unknown ? -1 : o.ntasks;
    cfg.progress = MW_PROGRESS_OFF;
    o.count = calloc((size_t)(o.ntasks > 0 ? o.ntasks : 1), sizeof(int));
    if (!o.count)
        return 2;
    mw_init(&argc, &argv);
    mw_ops_t ops = {generate, work, consume, &o};
    mw_stats_t st;
    int rc = mw_run(&ops, &cfg, &st);
    int code = 0;
    if (rc == MW_ERR_USER) {
        code = 3;
        if (st.role == 0)
            printf("mw_test: run stopped by a user error, as asked\n");
    } else if (rc != MW_OK) {
        fprintf(stderr, "mw_test: mw_run: %s\n", mw_strerror(rc));
        code = 1;
    } else if (st.role == 0) {
        for (int64_t i = 0; i < o.ntasks; i++)
            if (o.count[i] != 1) {
                fprintf(stderr, "mw_test: result %lld consumed %d times\n", (long long)i, o.count[i]);
                o.bad++;
            }
        if (o.bad || st.tasks != o.ntasks) {
            fprintf(stderr, "mw_test: FAILED (%d problems, %lld tasks)\n", o.bad, (long long)st.tasks);
            code = 1;
        } else {
            printf("mw_test: %lld tasks, each result consumed exactly once, contents verified "
                   "(%d recoveries, %lld handed out again, %lld duplicates dropped)\n",
                   (long long)st.tasks, st.recoveries, (long long)st.reissued, (long long)st.duplicates);
        }
    }
    free(o.count);
    MPI_Finalize();
    return code;
}
