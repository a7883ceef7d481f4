/*
 * Communicators from groups, without a parent communicator (MPI-4.0 7.4.2,
 * 7.6.2): MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups,
 * collective over the group(s) only. The members agree on the new context
 * with messages on MPI_COMM_WORLD's collective context, under a tag made
 * from the string tag (so that creations over overlapping groups with
 * different string tags do not meet; two different string tags whose
 * 30-bit hashes are equal would, which the tests do not meet). The result
 * is an ordinary communicator over the group, under the job's FT-MPI
 * modes like any other (a member's failure is reported on it, SHRINK
 * rebuilds it with the survivors).
 */
#include "api/session.h"

#include <stdlib.h>
#include <string.h>

#include "api/comm_int.h"

/* The agreement's tag on MPI_COMM_WORLD's collective context: bits 31 and
 * 30 set, which neither the collectives' sequence numbers (0 .. 2^30 - 1,
 * local mode bit 30) nor MPI_Comm_create_group's tags (bit 31 only) use. */
static int stringtag_tag(const char *tag, const char *suffix)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const char *p = tag; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    for (const char *p = suffix; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return (int)(0xc0000000u | (h & 0x3fffffffu));
}

/* The error handler argument: MPI_ERRHANDLER_NULL keeps the one the new
 * communicator inherits (MPI_COMM_WORLD's); otherwise one for
 * communicators. NULL (with *bad set) when it is neither. */
static errh_t *comm_errh_arg(MPI_Errhandler h, int *bad)
{
    *bad = 0;
    if (h == MPI_ERRHANDLER_NULL)
        return NULL;
    errh_t *e = errh_get_kind(h, ERRH_COMM);
    if (!e)
        *bad = 1;
    return *bad ? NULL : e;
}

/* The communicator over g (this process a member), its context agreed by
 * g's members on MPI_COMM_WORLD under `tag`. */
static int from_group(group_t *g, int tag, comm_t **out)
{
    comm_t *w = comm_world();
    int *map = malloc((size_t)g->size * sizeof(int));
    if (!map)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < g->size; i++)
        map[i] = group_rank_of_world(w->group, g->world[i]);
    ctx_party_t pt = {.cc = w, .map = map, .p = g->size, .me = g->rank, .root = 0, .tag = tag};
    uint32_t ctx[1];
    int rc = ctx_agree(&pt, 1, ctx);
    free(map);
    if (rc == MPI_SUCCESS)
        rc = api_comm_build(w, g, NULL, ctx, out);
    return rc;
}

static void set_errh(comm_t *c, errh_t *e)
{
    errh_retain(e);
    errh_release(c->errh);
    c->errh = e;
}

/* The checks common to both calls: string tag, info, error handler. */
#define CHECK_FROM_GROUP_ARGS(stringtag, info, errhandler, e)                       \
    do {                                                                            \
        info_t *in_;                                                                \
        int bad_;                                                                   \
        CHECK_PTR(stringtag);                                                       \
        if (strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN)                             \
            API_FAIL(err_cause(MPI_ERR_ARG, "the string tag is longer than "        \
                                            "MPI_MAX_STRINGTAG_LEN - 1"));          \
        CHECK_INFO_OR_NULL(info, in_);                                              \
        (void)in_; /* no hint changes the result */                                 \
        (e) = comm_errh_arg(errhandler, &bad_);                                     \
        if (bad_)                                                                   \
            API_FAIL(err_cause(MPI_ERR_ARG, "%d is not an error handler for "       \
                                            "communicators", (int)(errhandler)));  \
        CHECK_USABLE(comm_world());                                                 \
    } while (0)

/* g: a group this process belongs to, all of whose members are alive. */
#define CHECK_MEMBER_GROUP(h, g)                                                    \
    do {                                                                            \
        CHECK_GROUP(h, g);                                                          \
        if ((g)->rank == MPI_UNDEFINED)                                             \
            API_FAIL(err_cause(MPI_ERR_GROUP, "this process is not in the group")); \
        if (!group_is_subset(g, comm_world()->group))                               \
            API_FAIL(err_cause(MPI_ERR_GROUP, "a member of the group is not in "    \
                                              "MPI_COMM_WORLD any more"));         \
    } while (0)

API_WEAK(Comm_create_from_group)
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                                MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_create_from_group");
    group_t *g;
    errh_t *e;
    comm_t *n = NULL;
    CHECK_PTR(newcomm);
    CHECK_MEMBER_GROUP(group, g);
    CHECK_FROM_GROUP_ARGS(stringtag, info, errhandler, e);
    rc = from_group(g, stringtag_tag(stringtag, ""), &n);
    if (rc == MPI_SUCCESS) {
        if (e)
            set_errh(n, e);
        *newcomm = n->handle;
    }
    API_END();
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Both groups' members in MPI_COMM_WORLD rank order (the same group on
 * every member, whichever side it is on); *rleader: the remote leader's
 * rank in it. */
static group_t *union_sorted(const group_t *l, const group_t *r, int rl, int *rleader)
{
    int n = l->size + r->size;
    int *w = malloc((size_t)n * sizeof(int));
    if (!w)
        return NULL;
    memcpy(w, l->world, (size_t)l->size * sizeof(int));
    memcpy(w + l->size, r->world, (size_t)r->size * sizeof(int));
    qsort(w, (size_t)n, sizeof(int), cmp_int);
    for (int i = 0; i < n; i++)
        if (w[i] == r->world[rl])
            *rleader = i;
    group_t *u = group_new(n, w);
    free(w);
    return u;
}

/* What MPI_Intercomm_create_from_groups made for itself (NULL: nothing). */
static void drop(group_t *ug, comm_t *lc, comm_t *pc)
{
    if (ug)
        group_release(ug);
    comm_t *cs[2] = {lc, pc};
    for (int i = 0; i < 2; i++)
        if (cs[i]) {
            cs[i]->freed = 1;
            comm_release(cs[i]);
        }
}

API_WEAK(Intercomm_create_from_groups)
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                      MPI_Group remote_group, int remote_leader,
                                      const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    API_BEGIN("MPI_Intercomm_create_from_groups");
    group_t *lg, *rg, *ug = NULL;
    errh_t *e;
    comm_t *lc = NULL, *pc = NULL;
    int rl = 0;
    CHECK_PTR(newintercomm);
    CHECK_MEMBER_GROUP(local_group, lg);
    CHECK_GROUP(remote_group, rg);
    CHECK_FROM_GROUP_ARGS(stringtag, info, errhandler, e);
    if (local_leader < 0 || local_leader >= lg->size)
        API_FAIL(err_cause(MPI_ERR_RANK, "local_leader %d: the local group has %d members",
                           local_leader, lg->size));
    if (remote_leader < 0 || remote_leader >= rg->size)
        API_FAIL(err_cause(MPI_ERR_RANK, "remote_leader %d: the remote group has %d members",
                           remote_leader, rg->size));
    if (group_overlaps(lg, rg))
        API_FAIL(err_cause(MPI_ERR_GROUP, "the local and remote groups overlap"));
    if (!group_is_subset(rg, comm_world()->group))
        API_FAIL(err_cause(MPI_ERR_GROUP, "a member of the remote group is not in "
                                          "MPI_COMM_WORLD any more"));
    /* The local communicator, and a carrier over both groups for the
     * leaders' exchange; MPI_Intercomm_create does the rest. */
    if (!(ug = union_sorted(lg, rg, remote_leader, &rl)))
        API_FAIL(MPI_ERR_NO_MEM);
    if ((rc = from_group(lg, stringtag_tag(stringtag, "/local"), &lc)) != MPI_SUCCESS ||
        (rc = from_group(ug, stringtag_tag(stringtag, "/both"), &pc)) != MPI_SUCCESS)
        goto fail;
    errh_t *ret = errh_get(MPI_ERRORS_RETURN);
    set_errh(lc, ret);
    set_errh(pc, ret);
    MPI_Comm lh = lc->handle, ph = pc->handle, ih = MPI_COMM_NULL;
    api_unlock(); /* each call takes the library lock itself */
    rc = PMPI_Intercomm_create(lh, local_leader, ph, rl, 0, &ih);
    if (rc == MPI_SUCCESS && e)
        rc = PMPI_Comm_set_errhandler(ih, e->handle);
    PMPI_Comm_free(&lh);
    PMPI_Comm_free(&ph);
    api_lock();
    lc = pc = NULL;
    if (rc == MPI_SUCCESS)
        *newintercomm = ih;
    API_END_CLEANUP(drop(ug, lc, pc));
}
