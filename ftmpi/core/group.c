#include "group.h"

#include <stdlib.h>
#include <string.h>

#include "core/proc.h"
#include "util/handle.h"

static handle_table_t group_table;
static group_t g_empty;

int group_module_init(void)
{
    handle_table_init(&group_table, FTMPI_KIND_GROUP, 2);
    g_empty.handle = MPI_GROUP_EMPTY;
    g_empty.refcount = 1;
    g_empty.predefined = 1;
    g_empty.size = 0;
    g_empty.rank = MPI_UNDEFINED;
    handle_table_set(&group_table, 1, &g_empty);
    return 0;
}

void group_module_fini(void)
{
    handle_table_fini(&group_table);
}

group_t *group_get(MPI_Group h)
{
    return handle_get(&group_table, h);
}

group_t *group_new(int size, const int *world)
{
    group_t *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->world = malloc((size_t)(size ? size : 1) * sizeof(int));
    if (!g->world) {
        free(g);
        return NULL;
    }
    if (size)
        memcpy(g->world, world, (size_t)size * sizeof(int));
    g->handle = MPI_GROUP_NULL;
    g->refcount = 1;
    g->size = size;
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < size; i++)
        if (world[i] == ftg.world_rank) {
            g->rank = i;
            break;
        }
    g->generation = ftg.generation;
    return g;
}

int group_make_handle(group_t *g)
{
    if (g->predefined)
        return MPI_SUCCESS;
    int h = handle_alloc(&group_table, g);
    if (h < 0)
        return MPI_ERR_NO_MEM;
    g->handle = h;
    return MPI_SUCCESS;
}

void group_retain(group_t *g)
{
    if (!g->predefined)
        g->refcount++;
}

void group_release(group_t *g)
{
    if (g->predefined)
        return;
    if (--g->refcount > 0)
        return;
    if (g->handle != MPI_GROUP_NULL)
        handle_release(&group_table, g->handle);
    free(g->world);
    free(g);
}

void group_drop_handle(group_t *g)
{
    if (g->predefined)
        return;
    if (g->handle != MPI_GROUP_NULL) {
        handle_release(&group_table, g->handle);
        g->handle = MPI_GROUP_NULL;
    }
    group_release(g);
}

int group_rank_of_world(const group_t *g, int world)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == world)
            return i;
    return MPI_UNDEFINED;
}

/* ---- set operations ---------------------------------------------------- */

/* Rank in g of every world rank: map[w] = rank or -1, for w < *n_p. */
static int *rank_map(const group_t *g, int extra_max, int *n_p)
{
    int n = ftg.world_size > extra_max + 1 ? ftg.world_size : extra_max + 1;
    for (int i = 0; i < g->size; i++)
        if (g->world[i] >= n)
            n = g->world[i] + 1;
    int *map = malloc((size_t)n * sizeof(int));
    if (!map)
        return NULL;
    for (int i = 0; i < n; i++)
        map[i] = -1;
    for (int i = 0; i < g->size; i++)
        map[g->world[i]] = i;
    *n_p = n;
    return map;
}

static int max_world(const group_t *g)
{
    int m = -1;
    for (int i = 0; i < g->size; i++)
        if (g->world[i] > m)
            m = g->world[i];
    return m;
}

/* rank in a map, or -1 */
static inline int map_at(const int *map, int n, int w)
{
    return w >= 0 && w < n ? map[w] : -1;
}

static int make(int n, const int *world, group_t **out)
{
    group_t *g = group_new(n, world);
    if (!g)
        return MPI_ERR_NO_MEM;
    *out = g;
    return MPI_SUCCESS;
}

int group_compare(const group_t *a, const group_t *b)
{
    if (a == b)
        return MPI_IDENT;
    if (a->size != b->size)
        return MPI_UNEQUAL;
    if (a->size == 0 || !memcmp(a->world, b->world, (size_t)a->size * sizeof(int)))
        return MPI_IDENT;
    int n;
    int *map = rank_map(b, max_world(a), &n);
    if (!map) /* cannot tell cheaply: fall back to the quadratic test */
        return MPI_UNEQUAL;
    int res = MPI_SIMILAR;
    for (int i = 0; i < a->size && res == MPI_SIMILAR; i++)
        if (map_at(map, n, a->world[i]) < 0)
            res = MPI_UNEQUAL;
    free(map);
    return res;
}

int group_translate(const group_t *a, int n, const int *ranks1, const group_t *b, int *ranks2)
{
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->size))
            return MPI_ERR_RANK;
    int nm;
    int *map = rank_map(b, max_world(a), &nm);
    if (!map)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
        } else {
            int r = map_at(map, nm, a->world[ranks1[i]]);
            ranks2[i] = r < 0 ? MPI_UNDEFINED : r;
        }
    }
    free(map);
    return MPI_SUCCESS;
}

/* Members of a, in a's order, that are (want_in_b = 1) or are not (0) in b. */
static int filter(const group_t *a, const group_t *b, int want_in_b, group_t **out)
{
    int nm;
    int *map = rank_map(b, max_world(a), &nm);
    int *w = malloc((size_t)(a->size + 1) * sizeof(int));
    if (!map || !w) {
        free(map);
        free(w);
        return MPI_ERR_NO_MEM;
    }
    int k = 0;
    for (int i = 0; i < a->size; i++)
        if ((map_at(map, nm, a->world[i]) >= 0) == want_in_b)
            w[k++] = a->world[i];
    free(map);
    int rc = make(k, w, out);
    free(w);
    return rc;
}

int group_union(const group_t *a, const group_t *b, group_t **out)
{
    /* every member of a, then the members of b not in a */
    int nm;
    int *map = rank_map(a, max_world(b), &nm);
    int *w = malloc((size_t)(a->size + b->size + 1) * sizeof(int));
    if (!map || !w) {
        free(map);
        free(w);
        return MPI_ERR_NO_MEM;
    }
    if (a->size) /* the empty group's world may be NULL */
        memcpy(w, a->world, (size_t)a->size * sizeof(int));
    int k = a->size;
    for (int i = 0; i < b->size; i++)
        if (map_at(map, nm, b->world[i]) < 0)
            w[k++] = b->world[i];
    free(map);
    int rc = make(k, w, out);
    free(w);
    return rc;
}

int group_intersection(const group_t *a, const group_t *b, group_t **out)
{
    return filter(a, b, 1, out);
}

int group_difference(const group_t *a, const group_t *b, group_t **out)
{
    return filter(a, b, 0, out);
}

int group_incl(const group_t *g, int n, const int *ranks, group_t **out)
{
    if (n < 0 || n > g->size)
        return MPI_ERR_ARG;
    char *seen = calloc((size_t)g->size + 1, 1);
    int *w = malloc((size_t)(n ? n : 1) * sizeof(int));
    int rc = seen && w ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size || seen[r])
            rc = MPI_ERR_RANK; /* out of range, or named twice */
        else {
            seen[r] = 1;
            w[i] = g->world[r];
        }
    }
    if (rc == MPI_SUCCESS)
        rc = make(n, w, out);
    free(seen);
    free(w);
    return rc;
}

int group_excl(const group_t *g, int n, const int *ranks, group_t **out)
{
    if (n < 0 || n > g->size)
        return MPI_ERR_ARG;
    char *drop = calloc((size_t)g->size + 1, 1);
    int *w = malloc((size_t)(g->size + 1) * sizeof(int));
    int rc = drop && w ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int r = ranks[i];
        if (r < 0 || r >= g->size || drop[r])
            rc = MPI_ERR_RANK;
        else
            drop[r] = 1;
    }
    if (rc == MPI_SUCCESS) {
        int k = 0;
        for (int i = 0; i < g->size; i++)
            if (!drop[i])
                w[k++] = g->world[i];
        rc = make(k, w, out);
    }
    free(drop);
    free(w);
    return rc;
}

/* Expand ranges into the ranks they name, in order; every rank must be
 * valid and named once. *list_p gets malloc'ed ranks, *n_p their number. */
static int ranges_expand(const group_t *g, int n, int ranges[][3], int **list_p, int *n_p)
{
    if (n < 0)
        return MPI_ERR_ARG;
    char *seen = calloc((size_t)g->size + 1, 1);
    int cap = g->size + 1, k = 0;
    int *list = malloc((size_t)cap * sizeof(int));
    int rc = seen && list ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0) {
            rc = MPI_ERR_ARG;
            break;
        }
        if (first < 0 || first >= g->size || last < 0 || last >= g->size) {
            rc = MPI_ERR_RANK;
            break;
        }
        if ((stride > 0 && first > last) || (stride < 0 && first < last)) {
            rc = MPI_ERR_ARG; /* a range that names nothing */
            break;
        }
        for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (seen[r] || k >= g->size) {
                rc = MPI_ERR_RANK; /* named twice */
                break;
            }
            seen[r] = 1;
            list[k++] = (int)r;
        }
    }
    free(seen);
    if (rc != MPI_SUCCESS) {
        free(list);
        return rc;
    }
    *list_p = list;
    *n_p = k;
    return MPI_SUCCESS;
}

int group_range_incl(const group_t *g, int n, int ranges[][3], group_t **out)
{
    int *list, k;
    int rc = ranges_expand(g, n, ranges, &list, &k);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = group_incl(g, k, list, out);
    free(list);
    return rc;
}

int group_range_excl(const group_t *g, int n, int ranges[][3], group_t **out)
{
    int *list, k;
    int rc = ranges_expand(g, n, ranges, &list, &k);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = group_excl(g, k, list, out);
    free(list);
    return rc;
}

int group_is_subset(const group_t *sub, const group_t *g)
{
    int nm;
    int *map = rank_map(g, max_world(sub), &nm);
    if (!map)
        return 0;
    int ok = 1;
    for (int i = 0; i < sub->size && ok; i++)
        ok = map_at(map, nm, sub->world[i]) >= 0;
    free(map);
    return ok;
}

int group_overlaps(const group_t *a, const group_t *b)
{
    int nm;
    int *map = rank_map(b, max_world(a), &nm);
    if (!map)
        return 1;
    int hit = 0;
    for (int i = 0; i < a->size && !hit; i++)
        hit = map_at(map, nm, a->world[i]) >= 0;
    free(map);
    return hit;
}
