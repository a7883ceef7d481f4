#include "group.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/state.h"
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

group_t *group_empty(void)
{
    return &g_empty;
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

int group_rank_of_world(const group_t *g, int world)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == world)
            return i;
    return MPI_UNDEFINED;
}
