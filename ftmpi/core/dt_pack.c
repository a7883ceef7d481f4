/*
 * Segment packing over the raw loop program of a datatype (dt_build.c).
 *
 * A segment [offset, offset+len) of the packed stream is found by
 * descending the program: whole elements, then whole instructions and
 * whole loop iterations are skipped by their packed sizes, so a segment
 * costs O(program depth + instructions before it), not O(offset). Leaves
 * are copied block by block with the block length's own copy loop, so
 * short fixed-size blocks (a double, a complex) compile to moves, not
 * memcpy calls. A contiguous type is one memcpy.
 */
#include "core/dt_internal.h"

#include <string.h>

typedef struct seg seg_t;
typedef void leaf_fn(const dt_op_t *o, char *base, seg_t *s);

struct seg {
    char *stream;         /* pack: where the next byte goes; unpack: comes from */
    size_t skip;          /* stream bytes to pass over before the first one */
    size_t left;          /* stream bytes still to move */
    /* dt_iov */
    struct iovec *iov;
    int niov, maxiov;
    size_t done;
};

/* ---- block copies ------------------------------------------------------ */

#define GATHER(N)                                        \
    for (size_t i = 0; i < nb; i++, q += (N), p += st)   \
        memcpy(q, p, (N));                               \
    break

/* Copy nb blocks of bl bytes, st apart at p, to consecutive bytes at q. */
static inline void gather(char *restrict q, const char *restrict p, size_t bl, MPI_Aint st,
                          size_t nb)
{
    switch (bl) {
    case 1: GATHER(1);
    case 2: GATHER(2);
    case 4: GATHER(4);
    case 8: GATHER(8);
    case 12: GATHER(12);
    case 16: GATHER(16);
    case 24: GATHER(24);
    case 32: GATHER(32);
    default:
        for (size_t i = 0; i < nb; i++, q += bl, p += st)
            memcpy(q, p, bl);
    }
}

#define SCATTER(N)                                       \
    for (size_t i = 0; i < nb; i++, q += (N), p += st)   \
        memcpy(p, q, (N));                               \
    break

/* The reverse: consecutive bytes at q to nb blocks st apart at p. */
static inline void scatter(const char *restrict q, char *restrict p, size_t bl, MPI_Aint st,
                           size_t nb)
{
    switch (bl) {
    case 1: SCATTER(1);
    case 2: SCATTER(2);
    case 4: SCATTER(4);
    case 8: SCATTER(8);
    case 12: SCATTER(12);
    case 16: SCATTER(16);
    case 24: SCATTER(24);
    case 32: SCATTER(32);
    default:
        for (size_t i = 0; i < nb; i++, q += bl, p += st)
            memcpy(p, q, bl);
    }
}

/* A copy of n bytes, inline for the short runs structs are made of. The
 * loads of each pair may overlap; source and destination never do. */
static inline void copy_run(char *restrict d, const char *restrict s, size_t n)
{
    if (n <= 16) {
        if (n >= 8) {
            uint64_t a, b;
            memcpy(&a, s, 8);
            memcpy(&b, s + n - 8, 8);
            memcpy(d, &a, 8);
            memcpy(d + n - 8, &b, 8);
        } else if (n >= 4) {
            uint32_t a, b;
            memcpy(&a, s, 4);
            memcpy(&b, s + n - 4, 4);
            memcpy(d, &a, 4);
            memcpy(d + n - 4, &b, 4);
        } else if (n) {
            d[0] = s[0];
            d[n / 2] = s[n / 2];
            d[n - 1] = s[n - 1];
        }
    } else if (n <= 32) {
        uint64_t a, b, c, e;
        memcpy(&a, s, 8);
        memcpy(&b, s + 8, 8);
        memcpy(&c, s + n - 16, 8);
        memcpy(&e, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + 8, &b, 8);
        memcpy(d + n - 16, &c, 8);
        memcpy(d + n - 8, &e, 8);
    } else {
        memcpy(d, s, n);
    }
}

/* ---- whole elements ----------------------------------------------------------
 * The common case: elements that lie entirely inside the segment. No
 * offsets to find and no lengths to check: the program runs straight. */

static void elem_pack(const dt_op_t *ops, size_t nops, const char *base, char **qp)
{
    char *q = *qp;
    for (size_t i = 0; i < nops; i++) {
        const dt_op_t *o = &ops[i];
        const char *p = base + o->disp;
        if (o->code == DT_OP_LEAF) {
            if (o->count == 1) {
                copy_run(q, p, o->bytes);
            } else {
                gather(q, p, o->bytes, o->stride, o->count);
            }
            q += o->count * o->bytes;
        } else {
            *qp = q;
            for (size_t k = 0; k < o->count; k++, p += o->stride)
                elem_pack(ops + i + 1, o->body, p, qp);
            q = *qp;
            i += o->body;
        }
    }
    *qp = q;
}

static void elem_unpack(const dt_op_t *ops, size_t nops, char *base, const char **qp)
{
    const char *q = *qp;
    for (size_t i = 0; i < nops; i++) {
        const dt_op_t *o = &ops[i];
        char *p = base + o->disp;
        if (o->code == DT_OP_LEAF) {
            if (o->count == 1)
                copy_run(p, q, o->bytes);
            else
                scatter(q, p, o->bytes, o->stride, o->count);
            q += o->count * o->bytes;
        } else {
            *qp = q;
            for (size_t k = 0; k < o->count; k++, p += o->stride)
                elem_unpack(ops + i + 1, o->body, p, qp);
            q = *qp;
            i += o->body;
        }
    }
    *qp = q;
}

/* ---- leaves -------------------------------------------------------------- */

static void pack_leaf(const dt_op_t *o, char *base, seg_t *s)
{
    size_t bl = o->bytes, k = s->skip / bl, w = s->skip % bl, left = s->left;
    MPI_Aint st = o->stride;
    const char *p = base + o->disp + (MPI_Aint)k * st;
    char *q = s->stream;
    s->skip = 0;
    if (w) {
        size_t n = bl - w < left ? bl - w : left;
        memcpy(q, p + w, n);
        q += n;
        left -= n;
        k++;
        p += st;
    }
    size_t nb = o->count - k;
    if (nb > left / bl)
        nb = left / bl;
    gather(q, p, bl, st, nb);
    q += nb * bl;
    p += (MPI_Aint)nb * st;
    left -= nb * bl;
    k += nb;
    if (left && k < o->count) {
        memcpy(q, p, left);
        q += left;
        left = 0;
    }
    s->stream = q;
    s->left = left;
}

static void unpack_leaf(const dt_op_t *o, char *base, seg_t *s)
{
    size_t bl = o->bytes, k = s->skip / bl, w = s->skip % bl, left = s->left;
    MPI_Aint st = o->stride;
    char *p = base + o->disp + (MPI_Aint)k * st;
    const char *q = s->stream;
    s->skip = 0;
    if (w) {
        size_t n = bl - w < left ? bl - w : left;
        memcpy(p + w, q, n);
        q += n;
        left -= n;
        k++;
        p += st;
    }
    size_t nb = o->count - k;
    if (nb > left / bl)
        nb = left / bl;
    scatter(q, p, bl, st, nb);
    q += nb * bl;
    p += (MPI_Aint)nb * st;
    left -= nb * bl;
    k += nb;
    if (left && k < o->count) {
        memcpy(p, q, left);
        q += left;
        left = 0;
    }
    s->stream = (char *)q;
    s->left = left;
}

/* Add a run to the iovec list; 0 when the list is full. */
static int iov_add(seg_t *s, char *p, size_t n)
{
    if (s->niov > 0) {
        struct iovec *last = &s->iov[s->niov - 1];
        if ((char *)last->iov_base + last->iov_len == p) {
            last->iov_len += n;
            return 1;
        }
    }
    if (s->niov == s->maxiov)
        return 0;
    s->iov[s->niov].iov_base = p;
    s->iov[s->niov].iov_len = n;
    s->niov++;
    return 1;
}

static void iov_leaf(const dt_op_t *o, char *base, seg_t *s)
{
    size_t bl = o->bytes, k = s->skip / bl, w = s->skip % bl;
    char *blk = base + o->disp + (MPI_Aint)k * o->stride;
    s->skip = 0;
    for (; k < o->count && s->left; k++, blk += o->stride, w = 0) {
        size_t n = bl - w < s->left ? bl - w : s->left;
        if (!iov_add(s, blk + w, n)) {
            s->left = 0; /* full: stop at every level */
            return;
        }
        s->done += n;
        s->left -= n;
    }
}

/* ---- the walk -------------------------------------------------------------- */

static void seq_walk(const dt_op_t *ops, size_t nops, char *base, seg_t *s, leaf_fn *leaf)
{
    for (size_t i = 0; i < nops && s->left; i++) {
        const dt_op_t *o = &ops[i];
        size_t tot = o->count * o->bytes;
        if (s->skip >= tot) {
            s->skip -= tot;
        } else if (o->code == DT_OP_LEAF) {
            leaf(o, base, s);
        } else {
            size_t k = s->skip / o->bytes;
            s->skip %= o->bytes;
            char *p = base + o->disp + (MPI_Aint)k * o->stride;
            for (; k < o->count && s->left; k++, p += o->stride)
                seq_walk(ops + i + 1, o->body, p, s, leaf);
        }
        if (o->code == DT_OP_LOOP)
            i += o->body;
    }
}

/* Elements of (buf, count, dt) from the one holding s->skip on. `whole`
 * packs or unpacks whole elements (NULL: use the leaf function for all). */
typedef void whole_fn(const dt_t *dt, size_t n, char *p, seg_t *s);

static void walk(const dt_t *dt, size_t count, char *buf, seg_t *s, leaf_fn *leaf,
                 whole_fn *whole)
{
    const dt_op_t *ops = dt->raw.ops;
    if (dt->raw.nops == 1 && ops[0].code == DT_OP_LEAF &&
        (ops[0].count == 1 || dt->extent == (MPI_Aint)ops[0].count * ops[0].stride)) {
        /* One strided leaf per element, and the elements continue it:
         * the whole buffer is one leaf. */
        dt_op_t big = ops[0];
        if (big.count == 1) {
            big.count = count;
            big.stride = dt->extent;
        } else {
            big.count *= count;
        }
        leaf(&big, buf, s);
        return;
    }
    size_t e = s->skip / dt->size;
    s->skip %= dt->size;
    char *p = buf + (MPI_Aint)e * dt->extent;
    if (s->skip && e < count) { /* the segment starts inside an element */
        seq_walk(ops, dt->raw.nops, p, s, leaf);
        e++;
        p += dt->extent;
    }
    if (whole && e < count) {
        size_t n = s->left / dt->size;
        if (n > count - e)
            n = count - e;
        whole(dt, n, p, s);
        e += n;
        p += (MPI_Aint)n * dt->extent;
    }
    for (; e < count && s->left; e++, p += dt->extent)
        seq_walk(ops, dt->raw.nops, p, s, leaf);
}

static void whole_pack(const dt_t *dt, size_t n, char *p, seg_t *s)
{
    char *q = s->stream;
    for (size_t e = 0; e < n; e++, p += dt->extent)
        elem_pack(dt->raw.ops, dt->raw.nops, p, &q);
    s->left -= (size_t)(q - s->stream);
    s->stream = q;
}

static void whole_unpack(const dt_t *dt, size_t n, char *p, seg_t *s)
{
    const char *q = s->stream;
    for (size_t e = 0; e < n; e++, p += dt->extent)
        elem_unpack(dt->raw.ops, dt->raw.nops, p, &q);
    s->left -= (size_t)(q - s->stream);
    s->stream = (char *)q;
}

static size_t clamp(const dt_t *dt, size_t count, size_t offset, size_t len)
{
    size_t total = count * dt->size;
    if (offset >= total)
        return 0;
    return len < total - offset ? len : total - offset;
}

size_t dt_pack(const dt_t *dt, size_t count, const void *buf, size_t offset, void *out,
               size_t len)
{
    len = clamp(dt, count, offset, len);
    if (len == 0)
        return 0;
    if (dt_is_contig(dt, count)) {
        memcpy(out, (const char *)buf + dt->true_lb + offset, len);
        return len;
    }
    seg_t s = {.stream = out, .skip = offset, .left = len};
    walk(dt, count, (char *)buf, &s, pack_leaf, whole_pack);
    return len - s.left;
}

size_t dt_unpack(const dt_t *dt, size_t count, void *buf, size_t offset, const void *in,
                 size_t len)
{
    len = clamp(dt, count, offset, len);
    if (len == 0)
        return 0;
    if (dt_is_contig(dt, count)) {
        memcpy((char *)buf + dt->true_lb + offset, in, len);
        return len;
    }
    seg_t s = {.stream = (char *)in, .skip = offset, .left = len};
    walk(dt, count, buf, &s, unpack_leaf, whole_unpack);
    return len - s.left;
}

int dt_iov(const dt_t *dt, size_t count, const void *buf, size_t offset, size_t len,
           struct iovec *iov, int max, size_t *bytes_p)
{
    len = clamp(dt, count, offset, len);
    *bytes_p = 0;
    if (len == 0 || max <= 0)
        return 0;
    if (dt_is_contig(dt, count)) {
        iov[0].iov_base = (char *)buf + dt->true_lb + offset;
        iov[0].iov_len = len;
        *bytes_p = len;
        return 1;
    }
    seg_t s = {.skip = offset, .left = len, .iov = iov, .maxiov = max};
    walk(dt, count, (char *)buf, &s, iov_leaf, NULL);
    *bytes_p = s.done;
    return s.niov;
}
