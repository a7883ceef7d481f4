/*
 * Collective modes and BLANK gaps (docs/ft.md, contract sections 5-6), wrapped
 * around any collective call at the API edge:
 *
 *   ft_coll_t f;
 *   ft_coll_begin(&f, c, rbuf, rcount, rdt, &root);  // root may be NULL
 *   rc = coll_xxx(c, ..., root);
 *   rc = ft_coll_end(&f, rc);
 *
 * ATOMIC: the receive region is saved first; after the collective every
 * member votes (ft_atomic.c: through shared slots on one host while no
 * failure is known, else through the runtime's head, the one authority on
 * failures) and the call succeeds only if every member succeeded; when it
 * does not, the receive region is restored: "untouched".
 * BLANK: while MPI_COMM_WORLD (or a communicator built from it) has gaps,
 * the collective runs over the live members only: the communicator's group
 * is swapped for its live members for the duration of the call and the
 * root is translated.
 */
#include "ft/ft_int.h"
#include "core/err_cause.h"

#include <stdlib.h>
#include <string.h>

/* Bytes spanned by (buf, count, dt), and where they start. */
static size_t span(const void *buf, size_t count, const dt_t *dt, char **lo)
{
    if (!buf || buf == MPI_IN_PLACE || count == 0 || !dt)
        return 0;
    *lo = (char *)buf + dt->true_lb;
    return (size_t)(dt->true_ub - dt->true_lb) + (count - 1) * (size_t)dt->extent;
}

/* BLANK gaps are the failed members a recovery has handled
 * (ft_gap_world). A failure not recovered yet is no gap: the collective
 * runs over the whole group and fails with MPI_ERR_OTHER on every member
 * (the communicator is "detected"), whether or not a member has learned of
 * the failure when it enters: the members' views agree (docs/ft.md). */
static int has_gaps(const comm_t *c)
{
    if (ftg.comm_mode != FTMPI_COMM_MODE_BLANK || c->is_inter)
        return 0;
    for (int i = 0; i < c->size; i++)
        if (ft_gap_world(c->group->world[i]))
            return 1;
    return 0;
}

int ft_coll_begin_slots(ft_coll_t *f, comm_t *c, void *rbuf, size_t slot_count, dt_t *rdt,
                        int *root)
{
    int rc = ft_coll_begin(f, c, rbuf, slot_count * (size_t)c->size, rdt, root);
    if (rc != MPI_SUCCESS || !f->saved_group || !rbuf || rbuf == MPI_IN_PLACE)
        return rc;
    /* Remember the whole region, to put the gaps' slots back afterwards. */
    f->slots = 1;
    f->slot_bytes = slot_count * (size_t)rdt->extent;
    f->rbuf = rbuf;
    if (!f->save) {
        char *lo = NULL;
        size_t len = span(rbuf, slot_count * (size_t)f->saved_group->size, rdt, &lo);
        if (len) {
            f->save = malloc(len);
            if (!f->save)
                return MPI_ERR_NO_MEM;
            memcpy(f->save, lo, len);
            f->lo = lo;
            f->len = len;
        }
    }
    return MPI_SUCCESS;
}

/* Slot j (live index) goes to its member's original position; the gaps'
 * slots get their saved contents back. */
static void slots_fix(ft_coll_t *f)
{
    const group_t *orig = f->saved_group;
    int n = f->c->group->size;
    char *b = f->rbuf;
    int *pos = malloc((size_t)n * sizeof(int));
    if (!pos)
        return;
    for (int i = 0, j = 0; i < orig->size; i++)
        if (!ft_gap_world(orig->world[i]))
            pos[j++] = i;
    for (int j = n - 1; j >= 0; j--)
        if (pos[j] != j)
            memmove(b + (size_t)pos[j] * f->slot_bytes, b + (size_t)j * f->slot_bytes, f->slot_bytes);
    ptrdiff_t shift = f->lo - b; /* save[] starts at rbuf + true_lb */
    for (int i = 0; i < orig->size; i++)
        if (ft_gap_world(orig->world[i]) && f->save) {
            size_t off = (size_t)i * f->slot_bytes;
            size_t k = f->slot_bytes;
            if ((ptrdiff_t)off - shift < 0 || off - (size_t)shift + k > f->len)
                continue;
            memcpy(b + off, (char *)f->save + off - (size_t)shift, k);
        }
    free(pos);
}

/* BLANK: run over the live members of c (group swapped until
 * ft_coll_end), root translated. */
static int live_view(ft_coll_t *f, comm_t *c, int *root)
{
    memset(f, 0, sizeof(*f));
    f->c = c;
    if (has_gaps(c)) {
        /* A collective rooted at a gap cannot run. */
        if (root && *root >= 0 && *root < c->size && ft_gap_world(c->group->world[*root]))
            return MPI_ERR_RANK;
        int *live = malloc((size_t)c->size * sizeof(int));
        if (!live)
            return MPI_ERR_NO_MEM;
        int n = 0, newroot = -1;
        for (int i = 0; i < c->size; i++) {
            if (ft_gap_world(c->group->world[i]))
                continue;
            if (root && i == *root)
                newroot = n;
            live[n++] = c->group->world[i];
        }
        group_t *g = group_new(n, live);
        free(live);
        if (!g)
            return MPI_ERR_NO_MEM;
        f->saved_group = c->group;
        c->group = g;
        c->rank = g->rank;
        c->size = g->size;
        if (root) {
            f->root_p = root;
            f->saved_root = *root;
            *root = newroot;
        }
    }
    return MPI_SUCCESS;
}

int ft_live_begin(ft_coll_t *f, comm_t *c)
{
    return live_view(f, c, NULL);
}

int ft_coll_begin(ft_coll_t *f, comm_t *c, void *rbuf, size_t rcount, dt_t *rdt, int *root)
{
    int rc = live_view(f, c, root);
    if (rc != MPI_SUCCESS)
        return rc;
    if (ftg.coll_mode == FTMPI_COLL_MODE_ATOMIC && ftg.comm_mode != FTMPI_COMM_MODE_ABORT &&
        !ftg.singleton) {
        f->key = ft_atomic_key(c, f->saved_group ? f->saved_group : c->group);
        char *lo = NULL;
        size_t len = span(rbuf, rcount, rdt, &lo);
        if (len)
            f->save = malloc(len);
        if ((len && !f->save) || ft_atomic_prepare(c) != MPI_SUCCESS) {
            ft_coll_end(f, MPI_SUCCESS); /* the live view back; no vote */
            return MPI_ERR_NO_MEM;
        }
        f->atomic = 1;
        if (len) {
            memcpy(f->save, lo, len);
            f->lo = lo;
            f->len = len;
        }
    }
    return MPI_SUCCESS;
}

int ft_coll_end(ft_coll_t *f, int rc)
{
    comm_t *c = f->c;
    if (f->saved_group && f->slots && rc == MPI_SUCCESS)
        slots_fix(f);
    if (f->atomic) {
        /* The voters are the members the collective ran over (under BLANK
         * the live ones); one that died meanwhile makes the outcome "no"
         * (ft_atomic.c: through shared slots, or through the head). */
        if (!ft_atomic_decide(c, f->key, rc == MPI_SUCCESS)) {
            if (f->save)
                memcpy(f->lo, f->save, f->len); /* receive buffers untouched */
            if (rc == MPI_SUCCESS)
                rc = err_cause(MPI_ERR_OTHER, "a member failed during the ATOMIC collective: "
                                              "no process completed it");
        }
    }
    free(f->save);
    if (f->saved_group) {
        group_release(c->group);
        c->group = f->saved_group;
        c->rank = c->group->rank;
        c->size = c->group->size;
        if (f->root_p)
            *f->root_p = f->saved_root;
    }
    return rc;
}
