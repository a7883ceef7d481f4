/*
 * MPI_Buffer_attach/detach and the allocator behind buffered sends. Each
 * buffered message takes a segment header and its packed bytes, rounded up
 * to 16, of the attached buffer, first fit: never more than packed size +
 * MPI_BSEND_OVERHEAD, so a buffer sized by the standard's rule (the sum of
 * those over the messages in flight) always has room. Space returns when
 * the internal send completes. Detach waits until every buffered message has
 * been sent, as the standard requires.
 */
#include "api/bsend.h"

#include <stdint.h>
#include <string.h>

typedef struct seg {
    size_t off, len;   /* within the attached buffer */
    struct seg *next;  /* sorted by offset */
    req_t *req;
} seg_t;

static char *bbuf;
static size_t bsize;
static seg_t *used;    /* allocated segments, sorted */
static int inflight;

/* the header, rounded to 16; with the round-up of the whole segment it
 * stays within MPI_BSEND_OVERHEAD */
#define SEG_HDR ((sizeof(seg_t) + 15) & ~(size_t)15)
_Static_assert(SEG_HDR + 15 <= MPI_BSEND_OVERHEAD, "bsend overhead");

static void seg_done(req_t *r)
{
    seg_t **pp = &used;
    while (*pp && *pp != r->ctx)
        pp = &(*pp)->next;
    if (*pp)
        *pp = (*pp)->next;
    inflight--;
    /* The user never sees this request: its last reference goes now
     * unless the user holds it (Ibsend), in which case Wait frees it. */
}

static int seg_alloc(size_t need, size_t *off_p)
{
    size_t pos = 0;
    seg_t **pp = &used;
    while (1) {
        size_t end = *pp ? (*pp)->off : bsize;
        if (end >= pos && end - pos >= need) {
            *off_p = pos;
            return 0;
        }
        if (!*pp)
            return -1;
        pos = (*pp)->off + (*pp)->len;
        pp = &(*pp)->next;
    }
}

int bsend_start(comm_t *c, const void *buf, int count, dt_t *dt, int dest, int tag)
{
    size_t bytes = (size_t)count * dt->size;
    if (bytes > INT32_MAX)
        return err_cause(MPI_ERR_COUNT, "a buffered message of %zu bytes (at most %d)", bytes,
                         INT32_MAX);
    size_t need = (SEG_HDR + bytes + 15) & ~(size_t)15;
    size_t off;
    /* Sends completed since the last call give their space back. */
    progress_poll();
    if (!bbuf)
        return err_cause(MPI_ERR_BUFFER, "no buffer attached (MPI_Buffer_attach)");
    if (seg_alloc(need, &off) != 0)
        return err_cause(MPI_ERR_BUFFER, "%zu bytes do not fit in the free part of the "
                                         "%zu-byte attached buffer", need, bsize);
    char *data = bbuf + off + SEG_HDR;
    req_t *r = req_new_p2p(REQ_SEND, c, data, (int)bytes, dt_get(MPI_BYTE), dest, tag,
                           SEND_STANDARD, 0);
    if (!r)
        return MPI_ERR_NO_MEM;
    dt_pack(dt, (size_t)count, buf, 0, data, bytes);
    seg_t *s = (seg_t *)(bbuf + off);
    s->off = off;
    s->len = need;
    /* insert sorted */
    seg_t **pp = &used;
    while (*pp && (*pp)->off < off)
        pp = &(*pp)->next;
    s->next = *pp;
    *pp = s;
    s->req = r;
    r->ctx = s;
    r->on_done = seg_done;
    inflight++;
    /* Buffered mode is local: nobody waits for this send; it frees itself. */
    int rc = p2p_start_send(r);
    if (rc != MPI_SUCCESS) {
        r->status.MPI_ERROR = rc;
        req_complete(r);
        req_free(r);
        return rc;
    }
    if (r->complete)
        req_free(r);
    else
        r->user_freed = 1;
    return MPI_SUCCESS;
}

int bsend_inflight(void)
{
    return inflight;
}

static int all_sent(void *arg)
{
    (void)arg;
    return inflight == 0;
}

/* MPI_Buffer_attach and its large-count form MPI_Buffer_attach_c. */
static int buffer_attach(const char *fname, void *buffer, MPI_Count size)
{
    API_BEGIN(fname);
    if (size < 0)
        API_FAIL(MPI_ERR_ARG);
    if (!buffer && size > 0)
        API_FAIL(MPI_ERR_BUFFER);
    if (bbuf)
        API_FAIL(MPI_ERR_BUFFER); /* one buffer at a time */
    bbuf = buffer;
    bsize = (size_t)size;
    used = NULL;
    API_END();
}

API_WEAK(Buffer_attach)
int PMPI_Buffer_attach(void *buffer, int size)
{
    return buffer_attach("MPI_Buffer_attach", buffer, size);
}

API_WEAK(Buffer_attach_c)
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    return buffer_attach("MPI_Buffer_attach_c", buffer, size);
}

/* MPI_Buffer_detach and MPI_Buffer_detach_c: exactly one of size, size_c. */
static int buffer_detach(const char *fname, void *buffer_addr, int *size, MPI_Count *size_c)
{
    API_BEGIN(fname);
    CHECK_PTR(buffer_addr);
    if (!size && !size_c)
        API_FAIL(MPI_ERR_ARG);
    progress_wait(all_sent, NULL);
    *(void **)buffer_addr = bbuf;
    if (size_c)
        *size_c = (MPI_Count)bsize;
    else /* a buffer beyond int: MPI_UNDEFINED (MPI_Buffer_detach_c gives it) */
        *size = bsize > INT_MAX ? MPI_UNDEFINED : (int)bsize;
    bbuf = NULL;
    bsize = 0;
    used = NULL;
    API_END();
}

API_WEAK(Buffer_detach)
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    return buffer_detach("MPI_Buffer_detach", buffer_addr, size, NULL);
}

API_WEAK(Buffer_detach_c)
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return buffer_detach("MPI_Buffer_detach_c", buffer_addr, NULL, size);
}
