/* The reports for the monitor in the job's key-value store (ranks.h);
 * their formats are described in runtime/daemon/daemon_usage.c (CPU and
 * memory, from the daemons), runtime/monrank/monrank.c (counters) and
 * cominfo.c (communicators). Everything is checked while it is read: a
 * malformed report writes nothing. */
#include "ranks.h"
#include "../launcher/head_int.h"

#include <stdlib.h>
#include <string.h>

/* Rank r's report under key ftmpi.mon.R[suffix] in format `version` when
 * it is about r's current process: a reader positioned after the
 * incarnation. */
static int report(head_t *h, int r, const char *suffix, uint32_t want, proto_rd_t *rd)
{
    char key[64];
    snprintf(key, sizeof key, "ftmpi.mon.%d%s", r, suffix);
    const kv_ent_t *e = head_kv_find(h, key);
    if (!e)
        return 0;
    proto_rd_init(rd, e->val, e->len);
    uint32_t version = proto_get_u32(rd);
    uint32_t inc = proto_get_u32(rd);
    return !rd->err && version == want && inc == h->procs[r].inc;
}

void mon_ranks_usage_json(FILE *f, head_t *h, int r)
{
    proto_rd_t rd;
    if (!head_live(&h->procs[r]) || !report(h, r, ".usage", 1, &rd))
        return;
    int pid = proto_get_i32(&rd);
    uint64_t rss = proto_get_u64(&rd);
    int tenths = proto_get_i32(&rd);
    uint32_t state = proto_get_u32(&rd), n = proto_get_u32(&rd);
    if (rd.err || pid != (int)h->procs[r].pid || state < 'A' || state > 'z')
        return;
    fprintf(f, ",\"rss_kib\":%llu,\"proc_state\":\"%c\",\"usage_samples\":%u",
            (unsigned long long)rss, (char)state, n);
    if (tenths >= 0)
        fprintf(f, ",\"cpu_pct\":%.1f", tenths / 10.0);
}

/* One communicator of a report, into a memory stream (so that a report cut
 * short leaves nothing behind); 0 or -1. */
static int comm_json(FILE *f, proto_rd_t *rd)
{
    char name[128], state[32];
    int handle = proto_get_i32(rd);
    proto_get_str(rd, name, sizeof name);
    int size = proto_get_i32(rd), rank = proto_get_i32(rd);
    uint32_t gen = proto_get_u32(rd);
    proto_get_str(rd, state, sizeof state);
    int inter = proto_get_i32(rd), rsize = proto_get_i32(rd);
    int nf = proto_get_i32(rd);
    if (rd->err || nf < 0 || nf > 4096)
        return -1;
    fprintf(f, "{\"handle\":%d,\"name\":\"%s\",\"size\":%d,\"rank\":%d,"
            "\"generation\":%u,\"state\":\"%s\",\"inter\":%s,\"remote_size\":%d,"
            "\"failed\":[", handle, evlog_esc(name), size, rank, gen,
            evlog_esc(state), inter ? "true" : "false", rsize);
    for (int i = 0; i < nf; i++) {
        int cr = proto_get_i32(rd), w = proto_get_i32(rd);
        int remote = proto_get_i32(rd);
        if (rd->err)
            return -1;
        fprintf(f, "%s{\"rank\":%d,\"world\":%d,\"remote\":%s}", i ? "," : "",
                cr, w, remote ? "true" : "false");
    }
    fputs("]}", f);
    return 0;
}

void mon_ranks_comms_json(FILE *f, head_t *h, int r)
{
    proto_rd_t rd;
    if (!head_live(&h->procs[r]) || !report(h, r, ".comms", 1, &rd))
        return;
    char mode[32];
    proto_get_str(&rd, mode, sizeof mode);
    uint32_t total = proto_get_u32(&rd), n = proto_get_u32(&rd);
    if (rd.err || n > 4096)
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    int ok = 1;
    fprintf(m, ",\"comm_mode\":\"%s\",\"ncomms\":%u,\"comms\":[",
            evlog_esc(mode), total);
    for (uint32_t i = 0; ok && i < n; i++) {
        if (i)
            fputc(',', m);
        ok = comm_json(m, &rd) == 0;
    }
    fputc(']', m);
    if (fclose(m) == 0 && ok)
        fwrite(buf, 1, len, f);
    free(buf);
}

/* Rank r's row: counts[2 * size] (messages, bytes), or 0. */
static int row(head_t *h, int r, uint64_t *counts)
{
    proto_rd_t rd;
    if (!report(h, r, "", 2, &rd))
        return 0;
    uint32_t n = proto_get_u32(&rd);
    if (rd.err)
        return 0;
    for (int i = 0; i < 2 * h->size; i++)
        counts[i] = i < 2 * (int)n ? proto_get_u64(&rd) : 0;
    return !rd.err;
}

static void matrix_part(FILE *f, head_t *h, uint64_t *counts, int which)
{
    for (int r = 0; r < h->size; r++) {
        if (r)
            fputc(',', f);
        if (!row(h, r, counts)) {
            fputs("null", f);
            continue;
        }
        fputc('[', f);
        for (int c = 0; c < h->size; c++)
            fprintf(f, c ? ",%llu" : "%llu",
                    (unsigned long long)counts[2 * c + which]);
        fputc(']', f);
    }
}

void mon_ranks_matrix_json(FILE *f, head_t *h)
{
    uint64_t *counts = malloc(2 * (size_t)h->size * sizeof *counts);
    if (!counts)
        return;
    fputs(",\"matrix\":{\"msgs\":[", f);
    matrix_part(f, h, counts, 0);
    fputs("],\"bytes\":[", f);
    matrix_part(f, h, counts, 1);
    fputs("]}", f);
    free(counts);
}
