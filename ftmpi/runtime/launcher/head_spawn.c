/*
 * Head: MPI_Comm_spawn's processes (docs/dynamic.md).
 *
 * A rank asks (PR_SPAWN) for one or more commands; the head gives their
 * processes the next job-wide ids (np.. up to --universe), places each on
 * a host with a free shm slot (the `host` info key, else the host with
 * the most room), and starts it through that host's daemon with HD_SPAWN,
 * as REBUILD starts a replacement, plus the command to run. The answer
 * (PR_SPAWN_DONE) goes back once every new process has said HELLO or
 * ended: a process that cannot be started (no such program, no slot)
 * makes the whole spawn fail, and its siblings are killed quietly.
 *
 * Every process that says HELLO is published in the key-value store as
 * "ftmpi.proc.<id>" (pid, host, slot, incarnation), which is how any rank
 * learns a peer that was not there at launch (api/dyn_proc.c).
 */
#include "head_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct head_spec {
    char **argv;          /* NULL-terminated */
    char *wdir;           /* "" : the launcher's */
    char **env;           /* "NAME=VALUE", NULL-terminated */
    int appnum, world_base, world_n, parent_root;
    uint32_t tag;
} head_spec_t;

typedef struct head_spawn_op {
    struct head_spawn_op *next;
    int requester;
    uint32_t req_inc;
    int base, n, left, replied;
    int *err;             /* [n]: errno of each process, 0 when it started */
    int ncmds;
    head_spec_t *cmds;
} head_spawn_op_t;

void head_spawn_put_spec(head_t *h, head_proc_t *p, proto_buf_t *b)
{
    (void)h;
    const head_spec_t *s = p->spec;
    proto_put_i32(b, s != NULL);
    if (!s)
        return;
    proto_put_i32(b, s->world_base);
    proto_put_i32(b, s->world_n);
    proto_put_i32(b, s->appnum);
    proto_put_i32(b, s->parent_root);
    proto_put_u32(b, s->tag);
    proto_put_str(b, s->wdir);
    proto_put_strv(b, s->argv);
    proto_put_strv(b, s->env);
}

static void reply(head_t *h, head_spawn_op_t *op, int rc)
{
    head_proc_t *q = &h->procs[op->requester];
    op->replied = 1;
    if (q->inc != op->req_inc || !head_live(q))
        return;
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, rc);
    proto_put_i32(&b, op->base);
    proto_put_i32(&b, op->n);
    for (int i = 0; i < op->n; i++)
        proto_put_i32(&b, op->err ? op->err[i] : 0);
    head_to_rank(h, q, PR_SPAWN_DONE, &b);
    proto_buf_free(&b);
}

static void reply_error(head_t *h, head_proc_t *p, int rc)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, rc);
    proto_put_i32(&b, -1);
    proto_put_i32(&b, 0);
    head_to_rank(h, p, PR_SPAWN_DONE, &b);
    proto_buf_free(&b);
}

/* Every process of op has said HELLO or ended: when one could not start,
 * the others are killed (they wait in MPI_Init for parents that will not
 * come) and leave quietly; then the requester gets the answer. */
static void op_check(head_t *h, head_spawn_op_t *op)
{
    if (op->left > 0 || op->replied)
        return;
    int bad = 0;
    for (int i = 0; i < op->n; i++)
        bad |= op->err[i] != 0;
    for (int i = 0; bad && i < op->n; i++) {
        head_proc_t *c = &h->procs[op->base + i];
        if (op->err[i])
            continue;
        op->err[i] = ECANCELED;
        if (head_live(c)) {
            c->state = HP_EXITED;
            proto_buf_t b;
            proto_buf_init(&b);
            proto_put_i32(&b, c->rank);
            proto_put_u32(&b, c->inc);
            proto_put_i32(&b, SIGKILL);
            head_host_send(&h->hosts[c->hostid], HD_KILL, &b);
            proto_buf_free(&b);
            head_sync_proc_gone(h, c);
        }
    }
    reply(h, op, 0);
    if (bad) {
        head_sync_check(h);
        head_check_end(h);
    }
}

void head_spawn_hello(head_t *h, head_proc_t *p)
{
    struct {
        int32_t pid, hostid, slot;
        uint32_t inc;
    } v = {p->mpi_pid ? p->mpi_pid : p->pid, p->hostid, p->slot, p->inc};
    char key[48];
    snprintf(key, sizeof key, "ftmpi.proc.%d", p->rank);
    head_kv_set(h, key, &v, sizeof v);
    head_spawn_op_t *op = p->op;
    if (!op)
        return;
    p->op = NULL;
    op->left--;
    op_check(h, op);
}

void head_spawn_gone(head_t *h, head_proc_t *p, int err)
{
    head_spawn_op_t *op = p->op;
    if (!op)
        return;
    p->op = NULL;
    op->err[p->rank - op->base] = err ? err : ECHILD;
    op->left--;
    if (err)
        fprintf(stderr, "ftmpirun: MPI_Comm_spawn: cannot start %s (id %d) on host "
                "%s: %s\n", p->spec->argv[0], p->rank, h->hosts[p->hostid].name,
                strerror(err));
    op_check(h, op);
}

static int host_by_name(head_t *h, const char *name)
{
    char me[256] = "";
    gethostname(me, sizeof me - 1);
    int local = strcmp(name, "localhost") == 0 || strcmp(name, me) == 0;
    for (int i = 0; i < h->nhosts; i++)
        if (strcmp(h->hosts[i].name, name) == 0 || (local && h->hosts[i].is_local))
            return i;
    return -1;
}

/* PR_SPAWN: u32 tag, i32 ncmds, ncmds x (i32 maxprocs, str host,
 * str wdir, u32 argc, argc x str, u32 nenv, nenv x str). */
void head_spawn_request(head_t *h, head_proc_t *p, proto_rd_t *r)
{
    uint32_t tag = proto_get_u32(r);
    int ncmds = proto_get_i32(r);
    if (r->err || ncmds <= 0 || ncmds > 4096)
        {
        reply_error(h, p, -EPROTO);
        return;
    }
    head_spawn_op_t *op = calloc(1, sizeof *op);
    int *hostid = calloc((size_t)ncmds, sizeof(int));
    int *count = calloc((size_t)ncmds, sizeof(int));
    if (!op || !hostid || !count || !(op->cmds = calloc((size_t)ncmds, sizeof *op->cmds))) {
        free(op);
        free(hostid);
        free(count);
        {
        reply_error(h, p, -ENOMEM);
        return;
    }
    }
    op->ncmds = ncmds;
    op->requester = p->rank;
    op->req_inc = p->inc;
    op->next = h->spawns;
    h->spawns = op;
    int rc = 0, total = 0;
    for (int i = 0; i < ncmds && !rc; i++) {
        char host[256];
        count[i] = proto_get_i32(r);
        proto_get_str(r, host, sizeof host);
        op->cmds[i].wdir = proto_get_strdup(r);
        op->cmds[i].argv = proto_get_strv(r, 65536);
        op->cmds[i].env = proto_get_strv(r, 65536);
        op->cmds[i].appnum = i;
        op->cmds[i].parent_root = p->rank;
        op->cmds[i].tag = tag;
        if (r->err || !op->cmds[i].argv || !op->cmds[i].argv[0] || !op->cmds[i].env ||
            count[i] <= 0)
            rc = -EPROTO;
        else if (host[0] && (hostid[i] = host_by_name(h, host)) < 0)
            rc = -EHOSTUNREACH;
        else if (!host[0])
            hostid[i] = -1;
        total += count[i];
    }
    if (!rc && (total > h->nprocs - h->nused || h->phase != PH_RUN))
        rc = h->phase != PH_RUN ? -ECANCELED : -ENOSPC;
    if (!rc && !(op->err = calloc((size_t)total, sizeof(int))))
        rc = -ENOMEM;
    if (rc) {
        free(hostid);
        free(count);
        op->replied = 1;
        {
        reply_error(h, p, rc);
        return;
    }
    }
    op->base = h->nused;
    op->n = op->left = total;
    h->nused += total;
    evlog_event(&h->log, "spawn", "\"by\":%d,\"base\":%d,\"n\":%d,\"commands\":%d,"
                "\"program\":\"%s\"", p->rank, op->base, total, ncmds,
                evlog_esc(op->cmds[0].argv[0]));
    /* All of op is set up before anything starts: a failure found while
     * starting (no slot) is answered after the others. */
    for (int i = 0, id = op->base; i < ncmds; i++)
        for (int k = 0; k < count[i]; k++, id++) {
            head_proc_t *c = &h->procs[id];
            op->cmds[i].world_base = op->base;
            op->cmds[i].world_n = total;
            c->spec = &op->cmds[i];
            c->op = op;
            c->inc = 0;
            c->state = HP_STARTING;
            if (head_place_spawned(h, c, hostid[i]) < 0) {
                c->state = HP_FAILED;
                c->hostid = hostid[i] >= 0 ? hostid[i] : 0;
                c->slot = -1;
                c->op = NULL;
                op->err[id - op->base] = ENOSPC;
                op->left--;
                fprintf(stderr, "ftmpirun: MPI_Comm_spawn: no free slot for id %d%s%s\n",
                        id, hostid[i] >= 0 ? " on host " : "",
                        hostid[i] >= 0 ? h->hosts[hostid[i]].name : "");
            }
        }
    free(hostid);
    free(count);
    for (int id = op->base; id < op->base + total; id++)
        if (h->procs[id].state == HP_STARTING)
            head_send_spawn(h, &h->procs[id], 0);
    op_check(h, op);
}

void head_spawn_free(head_t *h)
{
    while (h->spawns) {
        head_spawn_op_t *op = h->spawns;
        h->spawns = op->next;
        for (int i = 0; op->cmds && i < op->ncmds; i++) {
            proto_strv_free(op->cmds[i].argv);
            proto_strv_free(op->cmds[i].env);
            free(op->cmds[i].wdir);
        }
        free(op->cmds);
        free(op->err);
        free(op);
    }
}
