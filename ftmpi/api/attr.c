/* Attribute functions: MPI-1 names, MPI-2 comm and type names, predefined callbacks. */
#include "api/api.h"

#include "core/attr.h"

int MPI_NULL_COPY_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)e, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int MPI_DUP_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)e;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_NULL_DELETE_FN(MPI_Comm c, int k, void *v, void *e)
{
    (void)c, (void)k, (void)v, (void)e;
    return MPI_SUCCESS;
}

int MPI_COMM_NULL_COPY_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_NULL_COPY_FN(c, k, e, in, out, flag);
}
int MPI_COMM_DUP_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_DUP_FN(c, k, e, in, out, flag);
}
int MPI_COMM_NULL_DELETE_FN(MPI_Comm c, int k, void *v, void *e)
{
    return MPI_NULL_DELETE_FN(c, k, v, e);
}
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype t, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_NULL_COPY_FN(t, k, e, in, out, flag);
}
int MPI_TYPE_DUP_FN(MPI_Datatype t, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_DUP_FN(t, k, e, in, out, flag);
}
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype t, int k, void *v, void *e)
{
    return MPI_NULL_DELETE_FN(t, k, v, e);
}
int MPI_WIN_NULL_COPY_FN(MPI_Win w, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_NULL_COPY_FN(w, k, e, in, out, flag);
}
int MPI_WIN_DUP_FN(MPI_Win w, int k, void *e, void *in, void *out, int *flag)
{
    return MPI_DUP_FN(w, k, e, in, out, flag);
}
int MPI_WIN_NULL_DELETE_FN(MPI_Win w, int k, void *v, void *e)
{
    return MPI_NULL_DELETE_FN(w, k, v, e);
}

static int keyval_create(const char *fname, kv_kind_t kind, void (*copy)(void),
                         void (*del)(void), int *keyval, void *extra, int old)
{
    API_BEGIN(fname);
    CHECK_PTR(keyval);
    rc = attr_keyval_create(kind, copy, del, extra, old, keyval);
    API_END();
}

static int keyval_free(const char *fname, kv_kind_t kind, int *keyval)
{
    API_BEGIN(fname);
    CHECK_PTR(keyval);
    rc = attr_keyval_free(kind, keyval);
    API_END();
}

API_WEAK(Keyval_create)
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    return keyval_create("MPI_Keyval_create", KV_COMM, (void (*)(void))copy_fn,
                         (void (*)(void))delete_fn, keyval, extra_state, 1);
}

API_WEAK(Comm_create_keyval)
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
                            MPI_Comm_delete_attr_function *delete_fn, int *keyval,
                            void *extra_state)
{
    return keyval_create("MPI_Comm_create_keyval", KV_COMM, (void (*)(void))copy_fn,
                         (void (*)(void))delete_fn, keyval, extra_state, 0);
}

API_WEAK(Type_create_keyval)
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy_fn,
                            MPI_Type_delete_attr_function *delete_fn, int *keyval,
                            void *extra_state)
{
    return keyval_create("MPI_Type_create_keyval", KV_TYPE, (void (*)(void))copy_fn,
                         (void (*)(void))delete_fn, keyval, extra_state, 0);
}

API_WEAK(Win_create_keyval)
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn,
                           MPI_Win_delete_attr_function *delete_fn, int *keyval,
                           void *extra_state)
{
    return keyval_create("MPI_Win_create_keyval", KV_WIN, (void (*)(void))copy_fn,
                         (void (*)(void))delete_fn, keyval, extra_state, 0);
}

API_WEAK(Win_free_keyval)
int PMPI_Win_free_keyval(int *keyval)
{
    return keyval_free("MPI_Win_free_keyval", KV_WIN, keyval);
}

API_WEAK(Keyval_free)
int PMPI_Keyval_free(int *keyval)
{
    return keyval_free("MPI_Keyval_free", KV_COMM, keyval);
}

API_WEAK(Comm_free_keyval)
int PMPI_Comm_free_keyval(int *keyval)
{
    return keyval_free("MPI_Comm_free_keyval", KV_COMM, keyval);
}

API_WEAK(Type_free_keyval)
int PMPI_Type_free_keyval(int *keyval)
{
    return keyval_free("MPI_Type_free_keyval", KV_TYPE, keyval);
}

static int attr_comm_set(const char *fname, MPI_Comm comm, int keyval, void *val)
{
    API_BEGIN(fname);
    comm_t *c;
    CHECK_COMM(comm, c);
    rc = attr_set(KV_COMM, &c->attrs, c->handle, keyval, val);
    API_END();
}

static int attr_comm_get(const char *fname, MPI_Comm comm, int keyval, void *val, int *flag)
{
    API_BEGIN(fname);
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(val);
    CHECK_PTR(flag);
    *flag = 0;
    if (attr_keyval_predefined(keyval)) {
        /* Predefined keys live on MPI_COMM_WORLD (FT-MPI ones also on SELF). */
        int on_world = c->handle == MPI_COMM_WORLD ||
                       (keyval >= FTMPI_COMM_MODE && c->handle == MPI_COMM_SELF);
        if (on_world)
            *flag = attr_predefined(keyval, val);
        goto fail;
    }
    rc = attr_get(KV_COMM, &c->attrs, keyval, val, flag);
    API_END();
}

static int attr_comm_del(const char *fname, MPI_Comm comm, int keyval)
{
    API_BEGIN(fname);
    comm_t *c;
    CHECK_COMM(comm, c);
    rc = attr_delete(KV_COMM, &c->attrs, c->handle, keyval);
    API_END();
}

API_WEAK(Attr_put)
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *val)
{
    return attr_comm_set("MPI_Attr_put", comm, keyval, val);
}

API_WEAK(Comm_set_attr)
int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *val)
{
    return attr_comm_set("MPI_Comm_set_attr", comm, keyval, val);
}

API_WEAK(Attr_get)
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *val, int *flag)
{
    return attr_comm_get("MPI_Attr_get", comm, keyval, val, flag);
}

API_WEAK(Comm_get_attr)
int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *val, int *flag)
{
    return attr_comm_get("MPI_Comm_get_attr", comm, keyval, val, flag);
}

API_WEAK(Attr_delete)
int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return attr_comm_del("MPI_Attr_delete", comm, keyval);
}

API_WEAK(Comm_delete_attr)
int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    return attr_comm_del("MPI_Comm_delete_attr", comm, keyval);
}

API_WEAK(Type_set_attr)
int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void *val)
{
    API_BEGIN("MPI_Type_set_attr");
    dt_t *dt = dt_get(type);
    if (!dt)
        API_FAIL(MPI_ERR_TYPE);
    rc = attr_set(KV_TYPE, &dt->attrs, type, keyval, val);
    API_END();
}

API_WEAK(Type_get_attr)
int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void *val, int *flag)
{
    API_BEGIN("MPI_Type_get_attr");
    CHECK_PTR(val);
    CHECK_PTR(flag);
    dt_t *dt = dt_get(type);
    if (!dt)
        API_FAIL(MPI_ERR_TYPE);
    rc = attr_get(KV_TYPE, &dt->attrs, keyval, val, flag);
    API_END();
}

API_WEAK(Type_delete_attr)
int PMPI_Type_delete_attr(MPI_Datatype type, int keyval)
{
    API_BEGIN("MPI_Type_delete_attr");
    dt_t *dt = dt_get(type);
    if (!dt)
        API_FAIL(MPI_ERR_TYPE);
    rc = attr_delete(KV_TYPE, &dt->attrs, type, keyval);
    API_END();
}
