/*
 * Partitioned point-to-point (MPI-4.0 chapter 4): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived, with
 * MPI_Start(all) / MPI_Wait / MPI_Test / MPI_Request_free.
 *
 * A partitioned request is a persistent request (api/coll_persist.c, a
 * round hook) whose round is run here:
 *  - send: MPI_Pready(i) packs partition i behind a small header (its
 *    index and the number of send partitions) and sends it at once; the
 *    round completes when every partition was made ready and sent;
 *  - receive: the round receives the messages one after the other (any
 *    order of partitions; the sender may partition differently, as the
 *    standard allows: the header says how) into a packed copy of the whole
 *    message; MPI_Parrived(i) is true when every send partition that
 *    overlaps receive partition i has arrived, and unpacks it; the round
 *    completes when all have arrived, with the whole buffer unpacked.
 * A progress hook advances active rounds. Messages travel on the
 * communicator's collective context with tag 2^30 | (tag mod 2^30), which
 * no collective uses (their tags are below 2^30 or negative), so they never
 * meet point-to-point or collective traffic; two partitioned channels
 * between the same two processes on one communicator are told apart by
 * their tags (tags equal modulo 2^30 would mix if active at once).
 * Matching follows the order of the initialization calls (MPI-4.0 4.2),
 * whatever the order of the starts: the requests of one communicator, peer,
 * tag and direction (a channel) are numbered as they are initialized, every
 * message carries its sender's number, and the receiver hands each message
 * to its receive request with the same number, or keeps it until that
 * request starts (a message is probed, received whole into a buffer of its
 * size, then copied into the request's packed copy).
 * A failed peer completes the round with the FT error (MPI_ERR_OTHER), after
 * the partitions that had arrived were taken.
 * Costs: one extra copy on each side (pack, unpack), one more on the
 * receiving side, and a header per partition.
 */
#include "api/comm_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PART_TAG(t) ((int)(0x40000000u | ((unsigned)(t) & 0x3fffffffu)))

typedef struct {
    int32_t index, nparts;
    uint32_t seq; /* the request's number on its channel */
    int32_t pad;
} part_hdr_t;

/* A channel (see above), kept on its communicator (comm->part) for the
 * communicator's life: the numbering must not restart while the peer's
 * requests are still counted. */
typedef struct part_chan {
    struct part_chan *next;
    int peer, tag, send;
    uint32_t next_seq;  /* the number of the next request initialized */
    req_t *cur;         /* receive: the message being received into buf */
    char *buf;
    size_t len;
    list_node_t stash;  /* receive: messages whose request is not waiting for them */
} part_chan_t;

typedef struct {
    list_node_t link;
    uint32_t seq;
    size_t len;
    char *msg;          /* header + partition */
} part_stash_t;

typedef struct part {
    int send;
    void *buf;
    int partitions, peer, tag;
    uint32_t seq;             /* its number on its channel */
    part_chan_t *chan;        /* lives with comm, which the request keeps alive */
    MPI_Count count;          /* per partition (MPI_Count in MPI-4.0) */
    dt_t *dt;              /* kept alive by the persistent request (its dt) */
    comm_t *comm;          /* kept alive by the persistent request */
    /* the active round (NULL: inactive) */
    req_t *round;
    list_node_t link;
    int err;               /* the last round's error, for MPI_Pready after it */
    unsigned char *done;   /* [partitions] send: made ready; receive: unpacked */
    req_t **sreq;          /* send: [partitions] */
    char *stage;           /* send: [partitions] header + packed partition */
    char *packed;          /* receive: the whole message, packed */
    int nparts, nmsgs;     /* receive: send partitions (0: not known yet), arrived */
    unsigned char *got;    /* receive: [nparts] */
} part_t;

static list_node_t active = LIST_INIT(active);
static int nactive;

static int part_round(const void *args, MPI_Request *q);

static size_t part_bytes(const part_t *p, dt_t *dt)
{
    return (size_t)p->count * dt->size;
}

/* End p's round with err: release what it used, complete its request. */
static int part_hook(void);
static void part_finish(part_t *p, int err)
{
    req_t *q = p->round;
    list_del(&p->link);
    if (--nactive == 0)
        progress_remove_hook(part_hook);
    for (int i = 0; p->sreq && i < p->partitions; i++)
        if (p->sreq[i]) {
            if (p->sreq[i]->complete)
                req_free(p->sreq[i]);
            else
                req_orphan(p->sreq[i]); /* a failed round: frees itself */
        }
    free(p->done), free(p->sreq), free(p->stage), free(p->packed), free(p->got);
    p->done = p->got = NULL;
    p->sreq = NULL;
    p->stage = p->packed = NULL;
    p->err = err;
    p->round = NULL;
    q->status.MPI_ERROR = err;
    req_complete(q);
}

/* ---- channels ---- */

static void chan_free_all(comm_t *c)
{
    part_chan_t *ch = c->part;
    while (ch) {
        part_chan_t *next = ch->next;
        if (ch->cur && !ch->cur->complete) {
            p2p_cancel(ch->cur);
            req_orphan(ch->cur); /* its buffer stays: data may still land there */
        } else {
            if (ch->cur)
                req_free(ch->cur);
            free(ch->buf);
        }
        list_node_t *n, *t;
        list_for_each_safe(n, t, &ch->stash) {
            part_stash_t *m = list_entry(n, part_stash_t, link);
            free(m->msg);
            free(m);
        }
        free(ch);
        ch = next;
    }
    c->part = NULL;
}

/* The channel of c, peer, tag and direction (made on first use); NULL: no
 * memory. */
static part_chan_t *chan_get(comm_t *c, int peer, int tag, int send)
{
    for (part_chan_t *ch = c->part; ch; ch = ch->next)
        if (ch->peer == peer && ch->tag == tag && ch->send == send)
            return ch;
    part_chan_t *ch = calloc(1, sizeof *ch);
    if (!ch)
        return NULL;
    ch->peer = peer, ch->tag = tag, ch->send = send;
    list_init(&ch->stash);
    ch->next = c->part;
    c->part = ch;
    comm_free_hook_part = chan_free_all;
    return ch;
}

/* Does receive p wait for a message numbered seq? */
static int recv_waits(const part_t *p, const part_chan_t *ch, uint32_t seq)
{
    return !p->send && p->round && p->chan == ch && p->seq == seq &&
           (!p->nparts || p->nmsgs < p->nparts);
}

/* Message m (header + partition, len bytes) for p's round: file it. 1 when
 * the round is over (finished). */
static int recv_apply(part_t *p, const char *m, size_t len)
{
    dt_t *dt = p->dt;
    size_t total = part_bytes(p, dt) * (size_t)p->partitions;
    part_hdr_t h;
    memcpy(&h, m, sizeof h);
    int err = MPI_SUCCESS;
    if (h.nparts <= 0 || total % (size_t)h.nparts || h.index < 0 || h.index >= h.nparts ||
        (p->nparts && h.nparts != p->nparts) || len - sizeof h != total / (size_t)h.nparts)
        err = err_cause(MPI_ERR_TRUNCATE, "partitioned message: %d send partitions of %zu "
                        "bytes do not make the %zu bytes of the receive", (int)h.nparts,
                        len - sizeof h, total);
    if (err == MPI_SUCCESS && !p->nparts) {
        p->nparts = h.nparts;
        if (!(p->got = calloc((size_t)h.nparts, 1)))
            err = MPI_ERR_NO_MEM;
    }
    if (err != MPI_SUCCESS) {
        part_finish(p, err);
        return 1;
    }
    size_t ps = total / (size_t)p->nparts;
    memcpy(p->packed + (size_t)h.index * ps, m + sizeof h, ps);
    p->got[h.index] = 1;
    if (++p->nmsgs < p->nparts)
        return 0;
    dt_unpack(dt, (size_t)p->count * (size_t)p->partitions, p->buf, 0, p->packed, total);
    part_finish(p, MPI_SUCCESS);
    return 1;
}

static void chan_fail(part_chan_t *ch, int err);

/* A whole message of channel ch (m is taken): to the receive that waits for
 * its number, or kept until that request starts. */
static void chan_deliver(part_chan_t *ch, char *m, size_t len)
{
    part_hdr_t h;
    if (len < sizeof h) { /* not from a partitioned send: nobody to give it to */
        free(m);
        return;
    }
    memcpy(&h, m, sizeof h);
    list_node_t *n;
    list_for_each(n, &active) {
        part_t *p = list_entry(n, part_t, link);
        if (recv_waits(p, ch, h.seq)) {
            recv_apply(p, m, len);
            free(m);
            return;
        }
    }
    part_stash_t *k = malloc(sizeof *k);
    if (!k) { /* cannot be kept: the channel's rounds fail rather than wait for it */
        free(m);
        chan_fail(ch, MPI_ERR_NO_MEM);
        return;
    }
    k->seq = h.seq, k->len = len, k->msg = m;
    list_add_tail(&ch->stash, &k->link);
}

/* The messages kept for p's number, in their order, until its round has
 * all it needs. */
static void chan_unstash(part_t *p)
{
    list_node_t *n, *t;
    list_for_each_safe(n, t, &p->chan->stash) {
        part_stash_t *k = list_entry(n, part_stash_t, link);
        if (!recv_waits(p, p->chan, k->seq))
            continue;
        list_del(&k->link);
        int over = recv_apply(p, k->msg, k->len);
        free(k->msg);
        free(k);
        if (over)
            return;
    }
}

/* End every round waiting on ch with err. */
static void chan_fail(part_chan_t *ch, int err)
{
    list_node_t *n, *t;
    list_for_each_safe(n, t, &active) {
        part_t *p = list_entry(n, part_t, link);
        if (!p->send && p->chan == ch) {
            part_finish(p, err);
            return chan_fail(ch, err); /* the list changed */
        }
    }
}

/* Receive side: move channel ch on (the message being received, the next
 * one that has come, a failed peer). 1 if anything moved. */
static int chan_poll(comm_t *c, part_chan_t *ch)
{
    if (ch->cur) {
        if (!ch->cur->complete)
            return 0;
        int err = ch->cur->status.MPI_ERROR;
        req_free(ch->cur);
        ch->cur = NULL;
        char *m = ch->buf;
        ch->buf = NULL;
        if (err != MPI_SUCCESS) {
            free(m);
            chan_fail(ch, err);
        } else {
            chan_deliver(ch, m, ch->len);
        }
        return 1;
    }
    int found = 0;
    MPI_Status st;
    umsg_t *um = NULL;
    p2p_probe_ctx(c, 1, ch->peer, PART_TAG(ch->tag), 0, &found, &st, NULL);
    if (!found) {
        /* Nothing more will come (the collective context's rule: any
         * failure in c ends its rounds, as it ends its collectives). */
        if (p2p_source_failed(c, ch->peer) || c->state == COMM_DETECTED ||
            c->state == COMM_FAILED) {
            chan_fail(ch, MPI_ERR_OTHER);
            return 1;
        }
        return 0;
    }
    size_t len = (size_t)st.ftmpi_count;
    char *m = malloc(len ? len : 1);
    req_t *r = m && len <= INT_MAX ? req_new_p2p(REQ_RECV, c, m, (int)len, dt_get(MPI_BYTE),
                                                 ch->peer, PART_TAG(ch->tag), SEND_STANDARD, 1)
                                   : NULL;
    if (!r) {
        free(m);
        chan_fail(ch, MPI_ERR_NO_MEM);
        return 1;
    }
    p2p_probe_ctx(c, 1, ch->peer, PART_TAG(ch->tag), 1, &found, &st, &um);
    p2p_start_mrecv(r, um);
    ch->cur = r, ch->buf = m, ch->len = len;
    chan_poll(c, ch); /* an eager message is complete already */
    return 1;
}

/* Advance p. 1 when anything moved (a receive: its channel; a send: its
 * round finished). */
static int part_progress(part_t *p)
{
    if (!p->send)
        return chan_poll(p->comm, p->chan);
    /* Over when every partition was sent, or one failed and every send
     * started is done with the buffers. */
    int all = 1, err = MPI_SUCCESS;
    for (int i = 0; i < p->partitions; i++) {
        req_t *s = p->sreq[i];
        if (!s) {
            all = 0;
            continue;
        }
        if (!s->complete)
            return 0;
        if (s->status.MPI_ERROR != MPI_SUCCESS && err == MPI_SUCCESS)
            err = s->status.MPI_ERROR;
    }
    if (!all && err == MPI_SUCCESS)
        return 0;
    part_finish(p, err);
    return 1;
}

/* One step can end other rounds than its own (a message handed to another
 * request of its channel, a failed channel): start over after each. */
static int part_hook(void)
{
    int work = 0, moved = 1;
    while (moved) {
        moved = 0;
        list_node_t *n;
        list_for_each(n, &active) {
            if (part_progress(list_entry(n, part_t, link))) {
                work = moved = 1;
                break;
            }
        }
    }
    return work;
}

/* MPI_Start of a partitioned request (api_pcoll_start, lock released). */
static int part_round(const void *args, MPI_Request *qh)
{
    part_t *p = (part_t *)args; /* the request's own copy */
    api_lock();
    int rc = MPI_SUCCESS;
    dt_t *dt = p->dt;
    req_t *q = req_alloc(REQ_COLL);
    if (!q || req_make_handle(q) != MPI_SUCCESS) {
        if (q)
            req_free(q);
        api_unlock();
        return MPI_ERR_NO_MEM;
    }
    q->comm = p->comm;
    comm_retain(q->comm);
    q->status.MPI_SOURCE = p->send ? MPI_ANY_SOURCE : p->peer;
    q->status.MPI_TAG = p->send ? MPI_ANY_TAG : p->tag;
    q->status.MPI_ERROR = MPI_SUCCESS;
    *qh = q->handle;
    p->round = q;
    p->nparts = p->nmsgs = 0;
    list_add_tail(&active, &p->link);
    if (nactive++ == 0)
        progress_add_hook(part_hook);
    size_t ps = part_bytes(p, dt), total = ps * (size_t)p->partitions;
    size_t np = (size_t)p->partitions + 1;
    p->done = p->chan ? calloc(np, 1) : NULL; /* no channel: MPI_ERR_NO_MEM below */
    if (p->send) {
        p->sreq = calloc(np, sizeof(req_t *));
        p->stage = malloc(np * (sizeof(part_hdr_t) + ps));
        rc = p->done && p->sreq && p->stage ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    } else {
        p->packed = malloc(total + 1);
        rc = p->done && p->packed ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS || p->partitions == 0 || (!p->send && p->peer == MPI_PROC_NULL))
        part_finish(p, rc); /* nothing to wait for (or it cannot run) */
    else if (!p->send)
        chan_unstash(p); /* what came before this start */
    api_unlock();
    return MPI_SUCCESS;
}

/* ---- initialization ---- */

/* The arguments of MPI_Psend_init / MPI_Precv_init; raises their errors. */
static int part_check(const char *fname, part_t *p, const void *buf, MPI_Datatype type,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    info_t *in;
    CHECK_PTR(request);
    CHECK_COMM(comm, c);
    CHECK_INFO_OR_NULL(info, in);
    (void)in; /* no hint changes the transfer */
    if (p->partitions < 0)
        API_FAIL(err_cause(MPI_ERR_ARG, "partitions %d is negative", p->partitions));
    CHECK_COUNT(p->count);
    CHECK_DT(type, dt);
    CHECK_BUF(buf, (long)p->count * p->partitions, dt);
    if (p->send) {
        CHECK_SEND_TAG(p->tag);
        CHECK_DEST(c, p->peer);
    } else {
        if (p->peer == MPI_ANY_SOURCE)
            API_FAIL(err_cause(MPI_ERR_RANK, "a partitioned receive cannot take MPI_ANY_SOURCE"));
        if (p->tag == MPI_ANY_TAG)
            API_FAIL(err_cause(MPI_ERR_TAG, "a partitioned receive cannot take MPI_ANY_TAG"));
        CHECK_RECV_TAG(p->tag);
        CHECK_SOURCE(c, p->peer);
    }
    if ((size_t)p->count * dt->size * (size_t)p->partitions + sizeof(part_hdr_t) > INT_MAX)
        API_FAIL(err_cause(MPI_ERR_COUNT, "a partitioned message of more than 2 GiB"));
    p->comm = c;
    p->dt = dt;
    p->buf = (void *)buf;
    API_END();
}

static int part_init(const char *fname, part_t p, const void *buf, MPI_Datatype type,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = part_check(fname, &p, buf, type, comm, info, request);
    if (rc == MPI_SUCCESS)
        rc = api_pcoll_init_round(fname, comm, part_round, &p, sizeof p, info, request);
    if (rc == MPI_SUCCESS) {
        /* The request holds the datatype (the user may free its handle). */
        api_lock();
        req_t *r = req_get(*request);
        dt_retain(p.dt);
        r->dt = p.dt;
        /* Numbered on its channel now that it exists (its copy of p). */
        part_t *own = (part_t *)api_pcoll_round_args(r, part_round);
        own->chan = chan_get(own->comm, own->peer, own->tag, own->send);
        if (own->chan)
            own->seq = own->chan->next_seq++;
        else
            rc = MPI_ERR_NO_MEM; /* the request stays, inert: its rounds fail */
        api_unlock();
    }
    return rc;
}

API_WEAK(Psend_init)
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest,
                    int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return part_init("MPI_Psend_init",
                     (part_t){.send = 1, .partitions = partitions, .count = count, .peer = dest,
                              .tag = tag},
                     buf, datatype, comm, info, request);
}

API_WEAK(Precv_init)
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                    int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return part_init("MPI_Precv_init",
                     (part_t){.send = 0, .partitions = partitions, .count = count,
                              .peer = source, .tag = tag},
                     buf, datatype, comm, info, request);
}

/* ---- MPI_Pready, MPI_Parrived ---- */

/* The partitioned request behind h (send or receive as `send` says). */
#define CHECK_PART(h, p, r, want_send)                                               \
    do {                                                                             \
        (r) = req_get(h);                                                            \
        if (!(p = api_pcoll_round_args(r, part_round)) || (p)->send != (want_send))  \
            API_FAIL(err_cause(MPI_ERR_REQUEST, "not a partitioned %s request",      \
                               (want_send) ? "send" : "receive"));                   \
        err_comm = (p)->comm;                                                        \
    } while (0)

/* Make partition i of p's active round ready: pack and send it. */
static int pready_one(part_t *p, int i)
{
    if (i < 0 || i >= p->partitions)
        return err_cause(MPI_ERR_ARG, "partition %d: the request has %d", i, p->partitions);
    if (!p->round)
        return p->err != MPI_SUCCESS ? p->err
                                     : err_cause(MPI_ERR_REQUEST, "the request is not active");
    if (p->done[i])
        return err_cause(MPI_ERR_ARG, "partition %d is ready already", i);
    p->done[i] = 1;
    if (p->peer == MPI_PROC_NULL) {
        p->sreq[i] = req_alloc(REQ_SEND);
        if (!p->sreq[i])
            return MPI_ERR_NO_MEM;
        p->sreq[i]->complete = 1;
        return MPI_SUCCESS;
    }
    dt_t *dt = p->dt;
    size_t ps = part_bytes(p, dt);
    char *m = p->stage + (size_t)i * (sizeof(part_hdr_t) + ps);
    part_hdr_t h = {.index = i, .nparts = p->partitions, .seq = p->seq};
    memcpy(m, &h, sizeof h);
    dt_pack(dt, (size_t)p->count * (size_t)p->partitions, p->buf, (size_t)i * ps,
            m + sizeof h, ps);
    req_t *s = req_new_p2p(REQ_SEND, p->comm, m, (int)(sizeof h + ps), dt_get(MPI_BYTE),
                           p->peer, PART_TAG(p->tag), SEND_STANDARD, 1);
    if (!s)
        return MPI_ERR_NO_MEM;
    p->sreq[i] = s;
    int rc = p2p_start_send(s);
    if (rc != MPI_SUCCESS) {
        s->status.MPI_ERROR = rc;
        s->complete = 1;
    }
    return rc;
}

API_WEAK(Pready)
int PMPI_Pready(int partition, MPI_Request request)
{
    API_BEGIN("MPI_Pready");
    req_t *r;
    part_t *p;
    CHECK_PART(request, p, r, 1);
    rc = pready_one(p, partition);
    API_END();
}

API_WEAK(Pready_range)
int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    API_BEGIN("MPI_Pready_range");
    req_t *r;
    part_t *p;
    CHECK_PART(request, p, r, 1);
    if (partition_low > partition_high)
        API_FAIL(err_cause(MPI_ERR_ARG, "partition_low %d > partition_high %d", partition_low,
                           partition_high));
    for (int i = partition_low; i <= partition_high && rc == MPI_SUCCESS; i++)
        rc = pready_one(p, i);
    API_END();
}

API_WEAK(Pready_list)
int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    API_BEGIN("MPI_Pready_list");
    req_t *r;
    part_t *p;
    CHECK_PART(request, p, r, 1);
    if (length < 0)
        API_FAIL(err_cause(MPI_ERR_ARG, "length %d is negative", length));
    if (length > 0)
        CHECK_PTR(array_of_partitions);
    for (int i = 0; i < length && rc == MPI_SUCCESS; i++)
        rc = pready_one(p, array_of_partitions[i]);
    API_END();
}

/* Has receive partition i of p's round arrived? If so, unpack it. */
static int arrived(part_t *p, int i)
{
    if (p->done[i])
        return 1;
    if (!p->nparts)
        return 0;
    dt_t *dt = p->dt;
    size_t rp = part_bytes(p, dt), total = rp * (size_t)p->partitions;
    size_t sp = total / (size_t)p->nparts;
    size_t lo = (size_t)i * rp, hi = lo + rp; /* bytes [lo, hi) */
    for (size_t j = lo / sp; sp && j * sp < hi; j++)
        if (!p->got[j])
            return 0;
    dt_unpack(dt, (size_t)p->count * (size_t)p->partitions, p->buf, lo, p->packed + lo, rp);
    p->done[i] = 1;
    return 1;
}

API_WEAK(Parrived)
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    API_BEGIN("MPI_Parrived");
    req_t *r;
    part_t *p;
    CHECK_PART(request, p, r, 0);
    CHECK_PTR(flag);
    if (partition < 0 || partition >= p->partitions)
        API_FAIL(err_cause(MPI_ERR_ARG, "partition %d: the request has %d", partition,
                           p->partitions));
    if (!p->round) {
        /* inactive, or its round is over: everything is in the buffer */
        if (p->err != MPI_SUCCESS && r->active)
            API_FAIL(p->err);
        *flag = 1;
        goto fail;
    }
    progress_poll();
    *flag = p->round ? arrived(p, partition) : 1;
    API_END();
}
