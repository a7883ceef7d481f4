/* Helpers of the large-count (_c) entry points: see api/count_c.h. */
#include "api/count_c.h"

#include <stdlib.h>

#include "api/api.h"

/* A committed contiguous(count, type) count_wrap type with a handle in *out;
 * an invalid type is left to the int function (*out = type, *made = 0). */
static int wrap(MPI_Count count, MPI_Datatype type, MPI_Datatype *out, int *made)
{
    *out = type;
    *made = 0;
    if (!ftg.initialized || ftg.finalized)
        return MPI_SUCCESS; /* the int function says so */
    api_lock();
    dt_t *dt = dt_get(type), *w = NULL;
    int rc = MPI_SUCCESS;
    if (dt && dt->committed && type != MPI_LB && type != MPI_UB) {
        w = dt_count_wrap_new((size_t)count, dt);
        rc = w ? dt_publish(w) : MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS) {
            *out = w->handle;
            *made = 1;
        } else if (w) {
            dt_release(w);
        }
    }
    api_unlock();
    return rc;
}

int cnt_make(MPI_Count count, MPI_Datatype type, cnt_t *c)
{
    c->made = 0;
    c->t = type;
    if (count <= INT_MAX) {
        c->n = count < 0 ? -1 : (int)count;
        return MPI_SUCCESS;
    }
    c->n = 1;
    return wrap(count, type, &c->t, &c->made);
}

void cnt_done(cnt_t *c)
{
    if (!c->made)
        return;
    api_lock();
    dt_t *dt = dt_get(c->t);
    if (dt)
        dt_user_free(dt); /* requests that use it keep it alive */
    api_unlock();
    c->made = 0;
}

static MPI_Count gcd(MPI_Count a, MPI_Count b)
{
    while (b) {
        MPI_Count t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int fits(MPI_Count v) { return v >= INT_MIN && v <= INT_MAX; }

int cvec_make(const MPI_Count *counts, const MPI_Aint *displs, int n, MPI_Datatype type,
              int sum_int, cvec_t *v)
{
    *v = (cvec_t){NULL, NULL, type, 0};
    MPI_Count g = 0, sum = 0;
    int all_fit = 1;
    for (int i = 0; i < n; i++) {
        if (counts && counts[i] < 0)
            return MPI_ERR_COUNT;
        if ((counts && !fits(counts[i])) || (displs && !fits(displs[i])))
            all_fit = 0;
        if (counts && sum_int && (sum += counts[i]) > INT_MAX)
            all_fit = 0;
        g = gcd(g, counts ? counts[i] : 0);
        g = gcd(g, displs ? (displs[i] < 0 ? -displs[i] : displs[i]) : 0);
    }
    if (all_fit || g == 0)
        g = 1;
    if ((counts && !(v->counts = malloc(((size_t)n + 1) * sizeof(int)))) ||
        (displs && !(v->displs = malloc(((size_t)n + 1) * sizeof(int))))) {
        cvec_done(v);
        return MPI_ERR_NO_MEM;
    }
    if (sum / g > INT_MAX)
        all_fit = 0, g = 0;
    for (int i = 0; i < n; i++) {
        if (g == 0 || (counts && !fits(counts[i] / g)) || (displs && !fits(displs[i] / g))) {
            cvec_done(v);
            return err_cause(MPI_ERR_COUNT, "counts and displacements beyond INT_MAX with "
                             "no common factor that brings them below: not supported "
                             "(docs/largecount.md)");
        }
        if (counts)
            v->counts[i] = (int)(counts[i] / g);
        if (displs)
            v->displs[i] = (int)(displs[i] / g);
    }
    if (g > 1) {
        int rc = wrap(g, type, &v->t, &v->made);
        if (rc != MPI_SUCCESS) {
            cvec_done(v);
            return rc;
        }
    }
    return MPI_SUCCESS;
}

void cvec_done(cvec_t *v)
{
    free(v->counts);
    free(v->displs);
    v->counts = v->displs = NULL;
    cnt_done(&(cnt_t){0, v->t, v->made});
    v->made = 0;
}

int cw_make(const MPI_Count *counts, const MPI_Aint *displs, const MPI_Datatype *types, int n,
            cw_t *w)
{
    *w = (cw_t){0};
    if (!counts)
        return MPI_SUCCESS;
    w->n = n;
    w->counts = malloc(((size_t)n + 1) * sizeof(int));
    w->displs = malloc(((size_t)n + 1) * sizeof(int));
    w->types = malloc(((size_t)n + 1) * sizeof(MPI_Datatype));
    w->made = calloc((size_t)n + 1, 1);
    if (!w->counts || !w->displs || !w->types || !w->made) {
        cw_done(w);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < n; i++) {
        if (displs && !fits(displs[i])) {
            cw_done(w);
            return err_cause(MPI_ERR_COUNT, "byte displacement %lld does not fit in an int "
                             "(MPI_Alltoallw_c beyond INT_MAX bytes: not supported)",
                             (long long)displs[i]);
        }
        cnt_t c;
        int rc = cnt_make(counts[i], types ? types[i] : MPI_DATATYPE_NULL, &c);
        if (rc != MPI_SUCCESS) {
            cw_done(w);
            return rc;
        }
        w->counts[i] = c.n;
        w->displs[i] = displs ? (int)displs[i] : 0;
        w->types[i] = c.t;
        w->made[i] = (unsigned char)c.made;
    }
    return MPI_SUCCESS;
}

void cw_done(cw_t *w)
{
    for (int i = 0; w->made && i < w->n; i++)
        cnt_done(&(cnt_t){0, w->types[i], w->made[i]});
    free(w->counts);
    free(w->displs);
    free(w->types);
    free(w->made);
    *w = (cw_t){0};
}

int cnt_group_size(MPI_Comm comm, int *n)
{
    int inter = 0;
    int rc = PMPI_Comm_test_inter(comm, &inter);
    if (rc != MPI_SUCCESS)
        return rc;
    return inter ? PMPI_Comm_remote_size(comm, n) : PMPI_Comm_size(comm, n);
}

int cnt_neighbors(MPI_Comm comm, int *in, int *out)
{
    int topo, rc = PMPI_Topo_test(comm, &topo);
    if (rc != MPI_SUCCESS)
        return rc;
    if (topo == MPI_CART) {
        int nd;
        rc = PMPI_Cartdim_get(comm, &nd);
        *in = *out = 2 * nd;
    } else if (topo == MPI_GRAPH) {
        int me;
        PMPI_Comm_rank(comm, &me);
        rc = PMPI_Graph_neighbors_count(comm, me, in);
        *out = *in;
    } else if (topo == MPI_DIST_GRAPH) {
        int w;
        rc = PMPI_Dist_graph_neighbors_count(comm, in, out, &w);
    } else {
        *in = *out = 0; /* the int function raises MPI_ERR_TOPOLOGY */
    }
    return rc;
}

int cnt_fail(MPI_Comm comm, int rc, const char *fname)
{
    return api_fail_early(comm, rc, fname);
}
