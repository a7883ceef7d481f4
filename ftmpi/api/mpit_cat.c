/* MPI_T_category_*: the categories (MPI-4.0 15.3.8). A variable or event
 * belongs to the category whose name, with '_', begins its own name
 * (ftmpi_p2p_eager_limit is in ftmpi_p2p); "ftmpi" holds the others. */
#include "api/api.h"
#include "api/mpit.h"

#include <string.h>

typedef struct {
    const char *name, *desc;
} cat_t;

static const cat_t cats[] = {
    {"ftmpi", "Everything ftmpi tells tools: the categories below."},
    {"ftmpi_p2p", "Point-to-point: protocols, traffic, unexpected messages."},
    {"ftmpi_coll", "Collective operations: algorithm choices and calls."},
    {"ftmpi_ft", "Fault tolerance: FT-MPI modes, failures, recoveries."},
    {"ftmpi_transport", "Transports below point-to-point (TCP reliability)."},
};
#define NCATS ((int)(sizeof(cats) / sizeof(cats[0])))

/* Is `name` a member of category c? */
static int member(int c, const char *name)
{
    if (c == 0)
        return 0; /* the root holds categories only */
    size_t n = strlen(cats[c].name);
    return strncmp(name, cats[c].name, n) == 0 && name[n] == '_';
}

static const char *cat_name(int i, int arg)
{
    (void)arg;
    return cats[i].name;
}

enum { CVARS, PVARS, CATS, EVENTS };

static int kind_count(int kind)
{
    switch (kind) {
    case CVARS: return mpit_cvar_count();
    case PVARS: return mpit_pvar_count();
    case CATS: return NCATS;
    default: return mpit_event_count();
    }
}

static const char *kind_name(int kind, int i)
{
    switch (kind) {
    case CVARS: return mpit_cvar(i)->name;
    case PVARS: return mpit_pvar(i)->name;
    case CATS: return cats[i].name;
    default: return mpit_event_name(i);
    }
}

/* Members of category c of the kind: their number; the first len indices
 * into out (when out is given). */
static int members(int c, int kind, int len, int *out)
{
    int n = 0;
    for (int i = 0; i < kind_count(kind); i++) {
        int in = kind == CATS ? (c == 0 && i != 0) : member(c, kind_name(kind, i));
        if (in) {
            if (out && n < len)
                out[n] = i;
            n++;
        }
    }
    return n;
}

API_WEAK(T_category_get_num)
int PMPI_T_category_get_num(int *num_cat)
{
    T_BEGIN();
    if (!num_cat)
        T_FAIL(MPI_T_ERR_INVALID);
    *num_cat = NCATS;
    T_END();
}

API_WEAK(T_category_get_info)
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                             int *num_cvars, int *num_pvars, int *num_categories)
{
    T_BEGIN();
    if (cat_index < 0 || cat_index >= NCATS)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    mpit_str(cats[cat_index].name, name, name_len);
    mpit_str(cats[cat_index].desc, desc, desc_len);
    if (num_cvars)
        *num_cvars = members(cat_index, CVARS, 0, NULL);
    if (num_pvars)
        *num_pvars = members(cat_index, PVARS, 0, NULL);
    if (num_categories)
        *num_categories = members(cat_index, CATS, 0, NULL);
    T_END();
}

API_WEAK(T_category_get_num_events)
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    T_BEGIN();
    if (cat_index < 0 || cat_index >= NCATS)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    if (!num_events)
        T_FAIL(MPI_T_ERR_INVALID);
    *num_events = members(cat_index, EVENTS, 0, NULL);
    T_END();
}

API_WEAK(T_category_get_index)
int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    T_BEGIN();
    rc = mpit_find(name, NCATS, cat_name, 0, cat_index);
    T_END();
}

static int get_members(int cat_index, int kind, int len, int indices[])
{
    if (cat_index < 0 || cat_index >= NCATS)
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    members(cat_index, kind, len, indices);
    return MPI_SUCCESS;
}

API_WEAK(T_category_get_cvars)
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    T_BEGIN();
    rc = get_members(cat_index, CVARS, len, indices);
    T_END();
}

API_WEAK(T_category_get_pvars)
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    T_BEGIN();
    rc = get_members(cat_index, PVARS, len, indices);
    T_END();
}

API_WEAK(T_category_get_categories)
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    T_BEGIN();
    rc = get_members(cat_index, CATS, len, indices);
    T_END();
}

API_WEAK(T_category_get_events)
int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    T_BEGIN();
    rc = get_members(cat_index, EVENTS, len, indices);
    T_END();
}

API_WEAK(T_category_changed)
int PMPI_T_category_changed(int *update_number)
{
    T_BEGIN();
    if (!update_number)
        T_FAIL(MPI_T_ERR_INVALID);
    *update_number = 0; /* the categories never change */
    T_END();
}
