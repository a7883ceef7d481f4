/*
 * f_custom.c: the Fortran entries that the generator does not write
 * (mpi.api marks them @custom): the functions whose callbacks have a
 * Fortran argument list that differs from C's, so the library calls a C
 * trampoline that calls the Fortran procedure.
 *
 * Keyvals: the trampolines find the Fortran procedures by keyval (the
 * library passes it to every callback), in a table filled when the keyval
 * is created. Generalized requests: the extra_state given to C is a
 * record with the Fortran procedures and the Fortran extra_state, freed
 * after the free callback ran (the library calls it exactly once).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "f_support.h"

/* ---- MPI_Info_create_env ------------------------------------------------- */
/* Fortran has no argc/argv to give (MPI-4.0: MPI_INFO_CREATE_ENV(INFO,
 * IERROR)): the info object of a program started without arguments. */
void pmpi_info_create_env_(MPI_Fint *info, MPI_Fint *ierror)
{
    int rc = MPI_Info_create_env(0, NULL, (MPI_Info *)info);
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_info_create_env)

/* ---- MPI_Info_get_string -------------------------------------------------- */
/* Fortran's buflen counts characters, C's the terminating null too: the
 * caller offers buflen characters and gets back the value's length without
 * a null. With buflen 0 or a key that is not there, value is left alone. */
void pmpi_info_get_string_(MPI_Fint *info, char *key, MPI_Fint *buflen, char *value,
                           MPI_Fint *flag, MPI_Fint *ierror, size_t key_len, size_t value_len)
{
    int rc, found = 0, n = *buflen > 0 ? (int)*buflen : 0;
    char *k = ftmpi_f_str_in(key, key_len), *v = ftmpi_f_str_alloc(n);
    if (!k || !v) {
        rc = ftmpi_f_nomem("MPI_Info_get_string");
    } else {
        int clen = n > 0 ? n + 1 : 0;
        rc = MPI_Info_get_string(*info, k, &clen, v, &found);
        if (rc == MPI_SUCCESS && found) {
            if (n > 0)
                ftmpi_f_str_out(value, value_len, v);
            *buflen = clen > 0 ? clen - 1 : 0;
        }
        *flag = ftmpi_f_logical(found);
    }
    free(k);
    free(v);
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_info_get_string)

/* ---- keyvals ------------------------------------------------------------ */
typedef void f_copy_fn(MPI_Fint *, MPI_Fint *, void *, void *, void *, MPI_Fint *, MPI_Fint *);
typedef void f_delete_fn(MPI_Fint *, MPI_Fint *, void *, void *, MPI_Fint *);

typedef struct {
    f_copy_fn *copy;
    f_delete_fn *del;
} fkeyval_t;

static pthread_mutex_t kv_lock = PTHREAD_MUTEX_INITIALIZER;
static fkeyval_t *kv_table; /* indexed by keyval */
static int kv_n;

static int kv_put(int keyval, f_copy_fn *copy, f_delete_fn *del)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&kv_lock);
    if (keyval >= kv_n) {
        int n = keyval + 16;
        fkeyval_t *t = realloc(kv_table, (size_t)n * sizeof *t);
        if (!t) {
            rc = MPI_ERR_NO_MEM;
        } else {
            memset(t + kv_n, 0, (size_t)(n - kv_n) * sizeof *t);
            kv_table = t;
            kv_n = n;
        }
    }
    if (rc == MPI_SUCCESS) {
        kv_table[keyval].copy = copy;
        kv_table[keyval].del = del;
    }
    pthread_mutex_unlock(&kv_lock);
    return rc;
}

static fkeyval_t kv_get(int keyval)
{
    fkeyval_t e = {NULL, NULL};
    pthread_mutex_lock(&kv_lock);
    if (keyval >= 0 && keyval < kv_n)
        e = kv_table[keyval];
    pthread_mutex_unlock(&kv_lock);
    return e;
}

/* MPI-2 keyvals (communicators, datatypes): INTEGER(KIND=MPI_ADDRESS_KIND)
 * values. MPI_Comm and MPI_Datatype are both ints, so one trampoline
 * serves both kinds of object. */
static int tramp_copy(int obj, int keyval, void *extra, void *in, void *out, int *flag)
{
    fkeyval_t e = kv_get(keyval);
    MPI_Fint o = obj, k = keyval, f = 0, ierr = MPI_SUCCESS;
    MPI_Aint x = (MPI_Aint)extra, vin = (MPI_Aint)in, vout = 0;
    if (!e.copy)
        return MPI_ERR_KEYVAL;
    e.copy(&o, &k, &x, &vin, &vout, &f, &ierr);
    *flag = f != 0;
    if (*flag)
        *(void **)out = (void *)vout;
    return ierr;
}

static int tramp_delete(int obj, int keyval, void *val, void *extra)
{
    fkeyval_t e = kv_get(keyval);
    MPI_Fint o = obj, k = keyval, ierr = MPI_SUCCESS;
    MPI_Aint v = (MPI_Aint)val, x = (MPI_Aint)extra;
    if (!e.del)
        return MPI_ERR_KEYVAL;
    e.del(&o, &k, &v, &x, &ierr);
    return ierr;
}

/* MPI-1 keyvals (MPI_Keyval_create): INTEGER values. */
static int tramp_copy_int(MPI_Comm obj, int keyval, void *extra, void *in, void *out, int *flag)
{
    fkeyval_t e = kv_get(keyval);
    MPI_Fint o = obj, k = keyval, f = 0, ierr = MPI_SUCCESS;
    MPI_Fint x = (MPI_Fint)(MPI_Aint)extra, vin = (MPI_Fint)(MPI_Aint)in, vout = 0;
    if (!e.copy)
        return MPI_ERR_KEYVAL;
    e.copy(&o, &k, &x, &vin, &vout, &f, &ierr);
    *flag = f != 0;
    if (*flag)
        *(void **)out = (void *)(MPI_Aint)vout;
    return ierr;
}

static int tramp_delete_int(MPI_Comm obj, int keyval, void *val, void *extra)
{
    fkeyval_t e = kv_get(keyval);
    MPI_Fint o = obj, k = keyval, ierr = MPI_SUCCESS;
    MPI_Fint v = (MPI_Fint)(MPI_Aint)val, x = (MPI_Fint)(MPI_Aint)extra;
    if (!e.del)
        return MPI_ERR_KEYVAL;
    e.del(&o, &k, &v, &x, &ierr);
    return ierr;
}

/* After the C keyval exists: record its Fortran procedures, or give it
 * back when that fails (nothing can have used it yet). */
static int kv_register(int rc, MPI_Fint *keyval, void (*copy)(void), void (*del)(void),
                       int (*free_fn)(int *), const char *fname)
{
    if (rc != MPI_SUCCESS)
        return rc;
    rc = kv_put(*keyval, (f_copy_fn *)copy, (f_delete_fn *)del);
    if (rc != MPI_SUCCESS) {
        free_fn(keyval);
        rc = ftmpi_f_nomem(fname);
    }
    return rc;
}

void pmpi_comm_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                              MPI_Aint *extra, MPI_Fint *ierror)
{
    int rc = MPI_Comm_create_keyval(tramp_copy, tramp_delete, keyval, (void *)*extra);
    rc = kv_register(rc, keyval, copy, del, MPI_Comm_free_keyval, "MPI_Comm_create_keyval");
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_comm_create_keyval)

void pmpi_type_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                              MPI_Aint *extra, MPI_Fint *ierror)
{
    int rc = MPI_Type_create_keyval(tramp_copy, tramp_delete, keyval, (void *)*extra);
    rc = kv_register(rc, keyval, copy, del, MPI_Type_free_keyval, "MPI_Type_create_keyval");
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_type_create_keyval)

void pmpi_keyval_create_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                         MPI_Fint *extra, MPI_Fint *ierror)
{
    int rc = MPI_Keyval_create(tramp_copy_int, tramp_delete_int, keyval,
                               (void *)(MPI_Aint)*extra);
    rc = kv_register(rc, keyval, copy, del, MPI_Keyval_free, "MPI_Keyval_create");
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES(mpi_keyval_create)

/* ---- generalized requests ----------------------------------------------- */
typedef struct {
    void (*query)(MPI_Aint *, MPI_Fint *, MPI_Fint *);
    void (*free)(MPI_Aint *, MPI_Fint *);
    void (*cancel)(MPI_Aint *, MPI_Fint *, MPI_Fint *);
    MPI_Aint extra;
} fgreq_t;

static int greq_query(void *es, MPI_Status *status)
{
    fgreq_t *g = es;
    MPI_Fint fs[sizeof(MPI_Status) / sizeof(MPI_Fint)], ierr = MPI_SUCCESS;
    memcpy(fs, status, sizeof fs);
    g->query(&g->extra, fs, &ierr);
    memcpy(status, fs, sizeof fs);
    return ierr;
}

static int greq_free(void *es)
{
    fgreq_t *g = es;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(&g->extra, &ierr);
    free(g);
    return ierr;
}

static int greq_cancel(void *es, int complete)
{
    fgreq_t *g = es;
    MPI_Fint c = ftmpi_f_logical(complete), ierr = MPI_SUCCESS;
    g->cancel(&g->extra, &c, &ierr);
    return ierr;
}

void pmpi_grequest_start_(void (*query)(void), void (*free_fn)(void), void (*cancel)(void),
                          MPI_Aint *extra, MPI_Fint *request, MPI_Fint *ierror)
{
    int rc;
    fgreq_t *g = malloc(sizeof *g);
    if (!g) {
        rc = ftmpi_f_nomem("MPI_Grequest_start");
    } else {
        g->query = (void (*)(MPI_Aint *, MPI_Fint *, MPI_Fint *))query;
        g->free = (void (*)(MPI_Aint *, MPI_Fint *))free_fn;
        g->cancel = (void (*)(MPI_Aint *, MPI_Fint *, MPI_Fint *))cancel;
        g->extra = *extra;
        rc = MPI_Grequest_start(greq_query, greq_free, greq_cancel, g, request);
        if (rc != MPI_SUCCESS)
            free(g);
    }
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_grequest_start)
