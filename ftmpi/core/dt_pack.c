/*
 * Segment packing over the flattened block list of a datatype. The
 * contiguous case is a single memcpy; otherwise the walk starts at the
 * element and block that hold `offset` (binary search over the block
 * prefix sums) and copies whole runs.
 */
#include "datatype.h"

#include <string.h>

/* Index of the block holding packed byte `within` of one element. */
static size_t block_find(const dt_t *dt, size_t within)
{
    size_t lo = 0, hi = dt->nblocks;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (dt->prefix[mid] <= within)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

typedef void copy_fn(void *user, char *typed, size_t n, char *stream);

static size_t dt_walk(const dt_t *dt, size_t count, char *buf, size_t offset,
                      char *stream, size_t len, int packing)
{
    size_t total = count * dt->size;
    if (offset >= total || len == 0)
        return 0;
    if (len > total - offset)
        len = total - offset;
    if (dt_is_contig(dt, count)) {
        char *p = buf + dt->true_lb + offset;
        if (packing)
            memcpy(stream, p, len);
        else
            memcpy(p, stream, len);
        return len;
    }
    size_t elem = offset / dt->size;
    size_t within = offset % dt->size;
    size_t b = block_find(dt, within);
    size_t in_block = within - dt->prefix[b];
    size_t done = 0;
    while (done < len) {
        const dt_block_t *blk = &dt->blocks[b];
        char *p = buf + (MPI_Aint)elem * dt->extent + blk->disp + in_block;
        size_t n = blk->len - in_block;
        if (n > len - done)
            n = len - done;
        if (packing)
            memcpy(stream + done, p, n);
        else
            memcpy(p, stream + done, n);
        done += n;
        in_block = 0;
        if (++b == dt->nblocks) {
            b = 0;
            elem++;
        }
    }
    return done;
}

size_t dt_pack(const dt_t *dt, size_t count, const void *buf, size_t offset,
               void *out, size_t len)
{
    return dt_walk(dt, count, (char *)buf, offset, out, len, 1);
}

size_t dt_unpack(const dt_t *dt, size_t count, void *buf, size_t offset,
                 const void *in, size_t len)
{
    return dt_walk(dt, count, buf, offset, (char *)in, len, 0);
}

MPI_Count dt_elements_in(const dt_t *dt, size_t bytes)
{
    if (dt->size == 0)
        return 0;
    size_t whole = bytes / dt->size;
    size_t rest = bytes % dt->size;
    MPI_Count n = (MPI_Count)(whole * dt->elem_count);
    if (rest == 0)
        return n;
    /* A partial element: count the basic elements it holds completely.
     * For types made of one basic kind, that is rest / basic size. */
    if (dt->elem_count && dt->size % dt->elem_count == 0) {
        size_t bsz = dt->size / dt->elem_count;
        if (rest % bsz != 0)
            return MPI_UNDEFINED;
        return n + (MPI_Count)(rest / bsz);
    }
    return MPI_UNDEFINED;
}
