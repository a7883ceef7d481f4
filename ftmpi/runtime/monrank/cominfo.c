/* This process's communicators for the monitor (the COMINFO view of FT-MPI's
 * console), described when they change: created, freed, destroyed by a
 * recovery, or touched by a failure. Payload of ftmpi.mon.R.comms
 * (little-endian, runtime/proto.h's helpers):
 *
 *   u32 version (1), u32 incarnation, str comm mode, u32 communicators in
 *   all, u32 n described (at most MONRANK_MAX_COMMS), then n times
 *     i32 handle, str name, i32 size, i32 rank, u32 generation, str state,
 *     i32 inter, i32 remote size, i32 nfailed (at most MONRANK_MAX_FAILED),
 *     nfailed x (i32 rank in its group, i32 world rank, i32 remote)
 *
 * A failed member is one whose process failed and was not replaced
 * (ftg.peer_dead): under BLANK the gaps, before a recovery the dead. */
#include "runtime/monrank/monrank.h"

#include <stdlib.h>

#include "core/comm.h"
#include "core/proc.h"
#include "ftmpi.h"
#include "runtime/proto.h"

#define MONRANK_MAX_COMMS 64
#define MONRANK_MAX_FAILED 64

static const char *mode_name(int mode)
{
    switch (mode) {
    case FTMPI_COMM_MODE_ABORT: return "abort";
    case FTMPI_COMM_MODE_BLANK: return "blank";
    case FTMPI_COMM_MODE_SHRINK: return "shrink";
    case FTMPI_COMM_MODE_REBUILD: return "rebuild";
    case FTMPI_COMM_MODE_ULFM: return "ulfm";
    default: return "unknown";
    }
}

static const char *state_name(comm_state_t s)
{
    switch (s) {
    case COMM_OK: return "ok";
    case COMM_DETECTED: return "detected";
    case COMM_RECOVER: return "recovering";
    case COMM_RECOVERED: return "recovered";
    case COMM_FAILED: return "failed";
    default: return "unknown";
    }
}

static int shown(const comm_t *c)
{
    return !c->hidden && !c->freed;
}

static int dead(int w)
{
    return w >= 0 && w < ftg.world_size && ftg.peer_dead[w];
}

static int count_failed(const group_t *g)
{
    int n = 0;
    for (int i = 0; g && i < g->size; i++)
        n += dead(g->world[i]);
    return n;
}

static void put_failed(proto_buf_t *b, const group_t *g, int remote, int *room)
{
    for (int i = 0; g && i < g->size && *room > 0; i++)
        if (dead(g->world[i])) {
            proto_put_i32(b, i);
            proto_put_i32(b, g->world[i]);
            proto_put_i32(b, remote);
            (*room)--;
        }
}

static void put_comm(proto_buf_t *b, const comm_t *c)
{
    proto_put_i32(b, c->handle);
    proto_put_str(b, c->name);
    proto_put_i32(b, c->size);
    proto_put_i32(b, c->rank);
    proto_put_u32(b, c->generation);
    proto_put_str(b, state_name(c->state));
    proto_put_i32(b, c->is_inter);
    proto_put_i32(b, c->rgroup ? c->rgroup->size : 0);
    int nf = count_failed(c->group) + count_failed(c->rgroup);
    int room = nf < MONRANK_MAX_FAILED ? nf : MONRANK_MAX_FAILED;
    proto_put_i32(b, room);
    put_failed(b, c->group, 0, &room);
    put_failed(b, c->rgroup, 1, &room);
}

void *monrank_comms_build(size_t *len)
{
    proto_buf_t b;
    proto_buf_init(&b);
    uint32_t total = 0, n = 0;
    for (comm_t *c = comm_next(NULL); c; c = comm_next(c))
        total += shown(c);
    n = total < MONRANK_MAX_COMMS ? total : MONRANK_MAX_COMMS;
    proto_put_u32(&b, 1);
    proto_put_u32(&b, ftg.rt.incarnation);
    proto_put_str(&b, mode_name(ftg.comm_mode));
    proto_put_u32(&b, total);
    proto_put_u32(&b, n);
    uint32_t k = 0;
    for (comm_t *c = comm_next(NULL); c && k < n; c = comm_next(c))
        if (shown(c)) {
            put_comm(&b, c);
            k++;
        }
    if (b.err) {
        proto_buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return b.data;
}

void monrank_comms_changed(void)
{
    size_t len = 0;
    void *buf = monrank_comms_build(&len);
    if (buf)
        monrank_comms_publish(buf, len);
}
