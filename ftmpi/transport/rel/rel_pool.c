/*
 * Memory for fragments, kept for reuse. Every eager packet the layer takes
 * is copied into a fragment that lives until its ACK, so a stream of eager
 * messages allocates and frees one block per message. From malloc, those
 * blocks come from the top of the heap, which glibc gives back to the
 * kernel (trim) whenever the last ones are freed: the next burst then
 * faults in and zeroes every page again. On this project's virtual
 * machines a page fault costs tens of microseconds, and that cost was most
 * of the layer's price at 8-64 KiB (docs/network.md). Freed blocks go to a
 * free list per power-of-two size class instead, up to REL_POOL_CAP bytes
 * in all; larger blocks, and any beyond the cap, go back to malloc.
 */
#include "rel_int.h"

#include <stdalign.h>
#include <stdlib.h>

#define POOL_MIN_SHIFT 8   /* 256 B */
#define POOL_CLASSES 13    /* up to 1 MiB */
#define REL_POOL_CAP (32u << 20)

typedef union blk {
    union blk *next;          /* on a free list */
    struct {
        uint32_t cls;         /* size class; POOL_CLASSES: plain malloc */
    } h;
    max_align_t align;        /* the caller's block after it stays aligned */
} blk_t;

static blk_t *free_list[POOL_CLASSES];
static size_t cached;

static unsigned class_of(size_t bytes)
{
    unsigned c = 0;
    while (c < POOL_CLASSES && ((size_t)1 << (c + POOL_MIN_SHIFT)) < bytes)
        c++;
    return c;
}

void *rel_pool_alloc(size_t bytes)
{
    unsigned c = class_of(bytes);
    blk_t *b = c < POOL_CLASSES ? free_list[c] : NULL;
    if (b) {
        free_list[c] = b->next;
        cached -= (size_t)1 << (c + POOL_MIN_SHIFT);
    } else {
        size_t sz = c < POOL_CLASSES ? (size_t)1 << (c + POOL_MIN_SHIFT) : bytes;
        if (!(b = malloc(sizeof(*b) + sz)))
            return NULL;
    }
    b->h.cls = c;
    return b + 1;
}

void rel_pool_free(void *p)
{
    if (!p)
        return;
    blk_t *b = (blk_t *)p - 1;
    unsigned c = b->h.cls;
    size_t sz = c < POOL_CLASSES ? (size_t)1 << (c + POOL_MIN_SHIFT) : 0;
    if (!sz || cached + sz > REL_POOL_CAP) {
        free(b);
        return;
    }
    b->next = free_list[c];
    free_list[c] = b;
    cached += sz;
}

void rel_pool_drain(void)
{
    for (unsigned c = 0; c < POOL_CLASSES; c++)
        while (free_list[c]) {
            blk_t *b = free_list[c];
            free_list[c] = b->next;
            free(b);
        }
    cached = 0;
}
