#include "handle.h"

#include <stdlib.h>
#include <string.h>

static int table_grow(handle_table_t *t, size_t need)
{
    size_t cap = t->cap ? t->cap : 64;
    while (cap <= need)
        cap *= 2;
    if (cap > HANDLE_INDEX_MASK)
        return -1;
    void **s = realloc(t->slots, cap * sizeof(void *));
    if (!s)
        return -1;
    memset(s + t->cap, 0, (cap - t->cap) * sizeof(void *));
    t->slots = s;
    t->cap = cap;
    return 0;
}

void handle_table_init(handle_table_t *t, int kind, size_t reserved)
{
    memset(t, 0, sizeof(*t));
    t->kind = kind;
    t->reserved = reserved;
    t->next_free = reserved;
    table_grow(t, reserved);
}

void handle_table_fini(handle_table_t *t)
{
    free(t->slots);
    memset(t, 0, sizeof(*t));
}

void handle_table_set(handle_table_t *t, size_t index, void *obj)
{
    if (index >= t->cap && table_grow(t, index) != 0)
        return;
    t->slots[index] = obj;
}

int handle_alloc(handle_table_t *t, void *obj)
{
    size_t i = t->next_free;
    while (i < t->cap && t->slots[i])
        i++;
    if (i >= t->cap && table_grow(t, i) != 0)
        return -1;
    t->slots[i] = obj;
    t->next_free = i + 1;
    t->live++;
    return (int)(((unsigned)t->kind << HANDLE_KIND_SHIFT) | (unsigned)i);
}

void handle_release(handle_table_t *t, int h)
{
    size_t i = handle_index(h);
    if (handle_kind(h) != t->kind || i < t->reserved || i >= t->cap || !t->slots[i])
        return;
    t->slots[i] = NULL;
    t->live--;
    if (i < t->next_free)
        t->next_free = i;
}
