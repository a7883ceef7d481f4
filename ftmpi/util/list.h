/* Intrusive doubly linked lists (circular, with a sentinel head). */
#ifndef FTMPI_UTIL_LIST_H
#define FTMPI_UTIL_LIST_H

#include <stddef.h>

typedef struct list_node {
    struct list_node *next, *prev;
} list_node_t;

#define LIST_INIT(h) { &(h), &(h) }
#define list_entry(n, type, member) ((type *)((char *)(n) - offsetof(type, member)))
#define list_for_each(n, h) for ((n) = (h)->next; (n) != (h); (n) = (n)->next)
#define list_for_each_safe(n, t, h) \
    for ((n) = (h)->next, (t) = (n)->next; (n) != (h); (n) = (t), (t) = (n)->next)

static inline void list_init(list_node_t *h) { h->next = h->prev = h; }
static inline int list_empty(const list_node_t *h) { return h->next == h; }

static inline void list_add_tail(list_node_t *h, list_node_t *n)
{
    n->prev = h->prev;
    n->next = h;
    h->prev->next = n;
    h->prev = n;
}

static inline void list_del(list_node_t *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = n->prev = n;
}

#endif
