/* Data representations: "native"/"internal" (memory bytes), "external32"
 * (core/dt_external.c) and the ones MPI_Register_datarep adds. */
#include "io/io.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/err_cause.h"
#include "core/proc.h"

static io_drep_t native = {.name = "native", .kind = IO_DREP_NATIVE};
static io_drep_t internal = {.name = "internal", .kind = IO_DREP_NATIVE};
static io_drep_t external32 = {.name = "external32", .kind = IO_DREP_EXTERNAL32};
static io_drep_t *user_reps;

io_drep_t *io_drep_find(const char *name)
{
    io_drep_t *fixed[] = {&native, &internal, &external32};
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        if (!strcmp(fixed[i]->name, name))
            return fixed[i];
    for (io_drep_t *d = user_reps; d; d = d->next)
        if (!strcmp(d->name, name))
            return d;
    return NULL;
}

int io_drep_register(const char *name, MPI_Datarep_conversion_function *rd,
                     MPI_Datarep_conversion_function *wr,
                     MPI_Datarep_conversion_function_c *rd_c,
                     MPI_Datarep_conversion_function_c *wr_c,
                     MPI_Datarep_extent_function *extent, void *extra)
{
    if (strlen(name) >= MPI_MAX_DATAREP_STRING)
        return err_cause(MPI_ERR_ARG, "the name is longer than MPI_MAX_DATAREP_STRING");
    if (io_drep_find(name))
        return err_cause(MPI_ERR_DUP_DATAREP, "\"%s\" is defined already", name);
    io_drep_t *d = calloc(1, sizeof(*d));
    if (!d)
        return MPI_ERR_NO_MEM;
    snprintf(d->name, sizeof(d->name), "%s", name);
    d->kind = IO_DREP_USER;
    d->rd = rd;
    d->wr = wr;
    d->rd_c = rd_c;
    d->wr_c = wr_c;
    d->extent = extent;
    d->extra = extra;
    d->next = user_reps;
    user_reps = d;
    return MPI_SUCCESS;
}

/* User code runs without the library lock (it may call MPI). */
static void user_enter(void)
{
    if (ftg.multiple)
        pthread_mutex_unlock(&ftg.lock);
}
static void user_leave(void)
{
    if (ftg.multiple)
        pthread_mutex_lock(&ftg.lock);
}

/* A predefined handle of basic kind k: `like` itself when it is one of
 * that kind (MPI_INTEGER and MPI_INT are one kind), else the first. */
static MPI_Datatype kind_handle(dt_kind_t k, const dt_t *like)
{
    if (like && like->predefined && like->kind == k)
        return like->handle;
    for (int i = 1; i < FTMPI_DT_PREDEFINED_COUNT; i++) {
        dt_t *t = dt_get(FTMPI_DT(i));
        if (t && t->kind == k)
            return FTMPI_DT(i);
    }
    return MPI_DATATYPE_NULL;
}

/* Bytes of one unit of kind k (of type `like`) in the file of d. */
static int unit_bytes(const io_drep_t *d, dt_kind_t k, const dt_t *like, MPI_Aint *b)
{
    if (d->kind == IO_DREP_NATIVE) {
        *b = (MPI_Aint)dt_kind_size(k);
    } else if (d->kind == IO_DREP_EXTERNAL32) {
        *b = (MPI_Aint)dt_kind_ext_size(k);
        if (*b == 0 && dt_kind_size(k) > 0)
            return err_cause(MPI_ERR_UNSUPPORTED_DATAREP, "a type has no external32 form");
    } else {
        user_enter();
        int rc = d->extent(kind_handle(k, like), b, d->extra);
        user_leave();
        if (rc != MPI_SUCCESS || *b < 0)
            return err_cause(MPI_ERR_CONVERSION, "the extent function of \"%s\" failed",
                             d->name);
    }
    return MPI_SUCCESS;
}

/* The file size of each basic kind, asked once per walk (a registered
 * representation's extent function is user code). */
typedef struct {
    const io_drep_t *d;
    const dt_t *like;          /* the type walked */
    MPI_Aint unit[DTK_COUNT_]; /* 0: not asked yet (a kind with data is never 0) */
    int rc;
} units_t;

static int unit_file(units_t *u, dt_kind_t k, MPI_Aint *b)
{
    if (!u->unit[k] && (u->rc = unit_bytes(u->d, k, u->like, &u->unit[k])) != MPI_SUCCESS)
        return u->rc;
    *b = u->unit[k];
    return MPI_SUCCESS;
}

typedef struct {
    units_t u;
    MPI_Offset bytes;
    int differs;        /* a unit whose file size differs from its memory size */
} sum_t;

static int sum_run(void *arg, MPI_Aint disp, dt_kind_t k, size_t n)
{
    (void)disp;
    sum_t *s = arg;
    MPI_Aint b;
    if (unit_file(&s->u, k, &b) != MPI_SUCCESS)
        return 1;
    if ((size_t)b != dt_kind_size(k))
        s->differs = 1;
    s->bytes += (MPI_Offset)n * b;
    return 0;
}

static int walk(const io_drep_t *d, const dt_t *dt, sum_t *s)
{
    memset(s, 0, sizeof(*s));
    s->u.d = d;
    s->u.like = dt;
    if (d->kind == IO_DREP_NATIVE) {
        s->bytes = (MPI_Offset)dt->size;
        return MPI_SUCCESS;
    }
    dt_foreach_run(dt, 1, sum_run, s);
    return s->u.rc;
}

int io_drep_bytes(const io_drep_t *d, const dt_t *dt, size_t count, MPI_Offset *bytes)
{
    sum_t s;
    int rc = walk(d, dt, &s);
    if (rc == MPI_SUCCESS)
        *bytes = s.bytes * (MPI_Offset)count;
    return rc;
}

/* The layout in the file (MPI-4.0 14.5.1): a portable type's displacements
 * are scaled from the memory extent of its unit to the file's; the
 * displacements of any other type are file bytes as given, each run of
 * units at its displacement, packed at the file size. */
typedef struct {
    units_t u;
    int portable;
    dt_block_fn *fn;
    void *arg;
    int fn_rc;
    MPI_Aint end;       /* the end of the furthest file byte */
} lay_t;

static int lay_run(void *arg, MPI_Aint disp, dt_kind_t k, size_t n)
{
    lay_t *l = arg;
    MPI_Aint b;
    if (unit_file(&l->u, k, &b) != MPI_SUCCESS)
        return 1;
    MPI_Aint at = l->portable ? disp / dt_kind_extent(k) * b : disp;
    MPI_Aint len = (MPI_Aint)n * b;
    if (at + len > l->end)
        l->end = at + len;
    if (l->fn && (l->fn_rc = l->fn(l->arg, at, (size_t)len)) != 0)
        return 1;
    return 0;
}

int io_drep_layout(const io_drep_t *d, const dt_t *dt, dt_block_fn *fn, void *arg,
                   MPI_Aint *lb, MPI_Aint *extent, int *fn_rc)
{
    sum_t s;
    int rc = walk(d, dt, &s);
    *fn_rc = 0;
    if (rc != MPI_SUCCESS)
        return rc;
    *lb = dt->lb;
    if (!s.differs) { /* the file holds the memory layout */
        *extent = dt->extent;
        *fn_rc = fn ? dt_foreach_block(dt, 1, fn, arg) : 0;
        return MPI_SUCCESS;
    }
    lay_t l = {.u = s.u, .portable = dt_is_portable(dt), .fn = fn, .arg = arg,
               .end = dt->lb};
    dt_foreach_run(dt, 1, lay_run, &l);
    *fn_rc = l.fn_rc;
    if (l.u.rc != MPI_SUCCESS || l.fn_rc)
        return l.u.rc;
    if (l.portable) { /* one kind of unit, every displacement a multiple of its extent */
        MPI_Aint b;
        unit_file(&l.u, dt->elem_kind, &b);
        *lb = dt->lb / dt_kind_extent(dt->elem_kind) * b;
        *extent = dt->extent / dt_kind_extent(dt->elem_kind) * b;
    } else if (dt->has_lb || dt->has_ub) {
        *extent = dt->extent; /* bounds set by the user, in file bytes */
    } else {
        *extent = l.end - dt->lb;
    }
    return MPI_SUCCESS;
}

int io_drep_extent(const io_drep_t *d, const dt_t *dt, MPI_Aint *extent)
{
    int fn_rc;
    MPI_Aint lb;
    return io_drep_layout(d, dt, NULL, NULL, &lb, extent, &fn_rc);
}

/* Write: values of a kind the file stores narrower (external32's 4-byte
 * MPI_LONG, MPI_UNSIGNED_LONG and 2-byte MPI_WCHAR on LP64) must fit
 * (MPI-4.0 14.5.2: MPI_ERR_CONVERSION otherwise). */
typedef struct {
    const char *buf;
    int rc;
} range_t;

static int range_run(void *arg, MPI_Aint disp, dt_kind_t k, size_t n)
{
    range_t *r = arg;
    long long lo, hi;
    size_t ns = dt_kind_size(k);
    switch (k) {
    case DTK_LONG: case DTK_LONG_INT: lo = INT32_MIN; hi = INT32_MAX; break;
    case DTK_ULONG: lo = 0; hi = UINT32_MAX; break;
    case DTK_WCHAR: lo = 0; hi = 0xffff; break;
    default: return 0;
    }
    if (dt_kind_ext_size(k) >= ns && k != DTK_LONG_INT)
        return 0; /* not narrower here */
    if (k == DTK_LONG_INT && sizeof(long) <= 4)
        return 0;
    const char *p = r->buf + disp;
    for (size_t i = 0; i < n; i++, p += dt_kind_extent(k)) {
        long long v;
        if (k == DTK_ULONG) {
            unsigned long u;
            memcpy(&u, p, sizeof u);
            if (u > (unsigned long)hi) {
                r->rc = err_cause(MPI_ERR_CONVERSION, "MPI_UNSIGNED_LONG value %lu does not "
                                  "fit its 4 bytes in external32", u);
                return 1;
            }
            continue;
        }
        if (k == DTK_WCHAR) {
            wchar_t w;
            memcpy(&w, p, sizeof w);
            v = (long long)w;
        } else {
            long x;
            memcpy(&x, p, sizeof x);
            v = x;
        }
        if (v < lo || v > hi) {
            r->rc = err_cause(MPI_ERR_CONVERSION, "%s value %lld does not fit its %zu bytes "
                              "in external32", k == DTK_WCHAR ? "MPI_WCHAR" : "MPI_LONG", v,
                              dt_kind_ext_size(k) - (k == DTK_LONG_INT ? 4 : 0));
            return 1;
        }
    }
    return 0;
}

/* The type and count a conversion function is given: a large-count
 * wrapper is seen as its element type. */
static void user_args(const dt_t *dt, size_t count, MPI_Datatype *h, MPI_Count *n)
{
    dt_t *child;
    size_t k;
    if (dt_count_wrap_parts(dt, &child, &k)) {
        *h = child->handle;
        *n = (MPI_Count)(count * k);
    } else {
        *h = dt->handle;
        *n = (MPI_Count)count;
    }
}

static int call_conv(const io_drep_t *d, int write, const dt_t *dt, size_t count, void *ubuf,
                     void *fbuf)
{
    MPI_Datatype h;
    MPI_Count n;
    user_args(dt, count, &h, &n);
    MPI_Datarep_conversion_function *fn = write ? d->wr : d->rd;
    MPI_Datarep_conversion_function_c *fn_c = write ? d->wr_c : d->rd_c;
    int rc;
    user_enter();
    if (fn_c)
        rc = fn_c(ubuf, h, n, fbuf, 0, d->extra);
    else if (n <= INT32_MAX)
        rc = fn(ubuf, h, (int)n, fbuf, 0, d->extra);
    else
        rc = MPI_ERR_COUNT;
    user_leave();
    return rc == MPI_SUCCESS ? rc
                             : err_cause(MPI_ERR_CONVERSION, "the %s conversion of \"%s\" "
                                         "returned %d", write ? "write" : "read", d->name, rc);
}

static int has_fn(const io_drep_t *d, int write)
{
    return write ? (d->wr || d->wr_c) : (d->rd || d->rd_c);
}

int io_drep_to_file(const io_drep_t *d, const dt_t *dt, size_t count, const void *buf,
                    void *out)
{
    if (d->kind == IO_DREP_EXTERNAL32) {
        range_t r = {.buf = buf, .rc = MPI_SUCCESS};
        dt_foreach_run(dt, count, range_run, &r);
        return r.rc != MPI_SUCCESS ? r.rc : dt_pack_external(dt, count, buf, out);
    }
    if (d->kind == IO_DREP_USER && has_fn(d, 1))
        return call_conv(d, 1, dt, count, (void *)buf, out);
    dt_pack(dt, count, buf, 0, out, dt->size * count);
    return MPI_SUCCESS;
}

int io_drep_from_file(const io_drep_t *d, const dt_t *dt, size_t count, void *buf,
                      const void *in, MPI_Offset n, size_t *elems)
{
    if (d->kind == IO_DREP_NATIVE || (d->kind == IO_DREP_USER && !has_fn(d, 0))) {
        dt_unpack(dt, count, buf, 0, in, (size_t)n);
        *elems = dt->size ? (size_t)n / dt->size : count;
        return MPI_SUCCESS;
    }
    MPI_Offset per;
    int rc = io_drep_bytes(d, dt, 1, &per);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t whole = per ? (size_t)(n / per) : count;
    if (whole > count)
        whole = count;
    *elems = whole;
    if (whole == 0)
        return MPI_SUCCESS;
    if (d->kind == IO_DREP_EXTERNAL32)
        return dt_unpack_external(dt, whole, in, buf);
    return call_conv(d, 0, dt, whole, buf, (void *)in);
}
