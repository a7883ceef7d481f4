/* A rank's own events (PR_NOTE: checkpoints, ...) into the event log, as
 *   {"t":..,"event":NAME,"rank":R,"incarnation":I,KEY:VALUE,...}
 * Names and keys are checked words, values numbers: the log stays JSON
 * whatever a rank sends. */
#include "head_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int is_word(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 31)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || *s == '_'))
            return 0;
    return 1;
}

void head_note(head_t *h, head_proc_t *p, proto_rd_t *r)
{
    char name[64], key[64], fields[1024];
    proto_get_str(r, name, sizeof name);
    int n = proto_get_i32(r);
    size_t k = 0;
    int ok = !r->err && is_word(name) && n >= 0 && n <= 16;
    fields[0] = 0;
    for (int i = 0; ok && i < n; i++) {
        proto_get_str(r, key, sizeof key);
        uint64_t bits = proto_get_u64(r);
        double v;
        memcpy(&v, &bits, sizeof v);
        if (r->err || !is_word(key) || strcmp(key, "rank") == 0 ||
            strcmp(key, "incarnation") == 0) {
            ok = 0;
            break;
        }
        if (isfinite(v))
            k += (size_t)snprintf(fields + k, sizeof fields - k,
                                  ",\"%s\":%.9g", key, v);
        else
            k += (size_t)snprintf(fields + k, sizeof fields - k,
                                  ",\"%s\":null", key);
    }
    if (!ok) {
        fprintf(stderr, "ftmpirun: rank %d sent a malformed event; "
                "dropped\n", p->rank);
        return;
    }
    evlog_event(&h->log, name, "\"rank\":%d,\"incarnation\":%u%s", p->rank,
                p->inc, fields);
}
