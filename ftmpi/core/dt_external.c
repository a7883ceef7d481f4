/*
 * The "external32" data representation (MPI-2.2 section 13.5.2): big-endian
 * IEEE, fixed sizes per type, no padding inside pairs.
 *
 * Sizes follow the standard's table, not the host: MPI_LONG and
 * MPI_UNSIGNED_LONG are 4 bytes (values are truncated to 32 bits on the
 * way out and sign- or zero-extended on the way in), MPI_WCHAR is 2,
 * MPI_LONG_DOUBLE is 16 (IEEE binary128; the x87 80-bit format is widened
 * and narrowed exactly except for the 49 low fraction bits binary128 has
 * in addition), MPI_C_BOOL 1, MPI_AINT/MPI_OFFSET/MPI_COUNT 8.
 */
#include "core/dt_internal.h"

#include <float.h>
#include <string.h>

enum { XC_NONE, XC_U, XC_S, XC_LD };

typedef struct {
    unsigned char off, nsize, esize, cls;
} xfield_t;

typedef struct {
    xfield_t f[2];
    int nf;
} xdesc_t;

#define F1(n, e, c) {{{0, n, e, c}}, 1}
#define F2(n1, e1, c1, o2, n2, e2, c2) {{{0, n1, e1, c1}, {o2, n2, e2, c2}}, 2}

typedef struct { float v; int i; } x_float_int;
typedef struct { double v; int i; } x_double_int;
typedef struct { long v; int i; } x_long_int;
typedef struct { short v; int i; } x_short_int;
typedef struct { long double v; int i; } x_ldouble_int;

#define LD sizeof(long double)
#define OFF(T) (unsigned char)__builtin_offsetof(T, i)

static const xdesc_t xdesc[DTK_COUNT_] = {
    [DTK_CHAR] = F1(1, 1, XC_U),
    [DTK_SCHAR] = F1(1, 1, XC_S),
    [DTK_UCHAR] = F1(1, 1, XC_U),
    [DTK_BYTE] = F1(1, 1, XC_U),
    [DTK_PACKED] = F1(1, 1, XC_U),
    [DTK_WCHAR] = F1(sizeof(wchar_t), 2, XC_U),
    [DTK_SHORT] = F1(sizeof(short), 2, XC_S),
    [DTK_USHORT] = F1(sizeof(short), 2, XC_U),
    [DTK_INT] = F1(sizeof(int), 4, XC_S),
    [DTK_UINT] = F1(sizeof(int), 4, XC_U),
    [DTK_LONG] = F1(sizeof(long), 4, XC_S),
    [DTK_ULONG] = F1(sizeof(long), 4, XC_U),
    [DTK_LLONG] = F1(sizeof(long long), 8, XC_S),
    [DTK_ULLONG] = F1(sizeof(long long), 8, XC_U),
    [DTK_FLOAT] = F1(4, 4, XC_U),
    [DTK_DOUBLE] = F1(8, 8, XC_U),
    [DTK_LDOUBLE] = F1(LD, 16, XC_LD),
    [DTK_INT8] = F1(1, 1, XC_S),
    [DTK_INT16] = F1(2, 2, XC_S),
    [DTK_INT32] = F1(4, 4, XC_S),
    [DTK_INT64] = F1(8, 8, XC_S),
    [DTK_UINT8] = F1(1, 1, XC_U),
    [DTK_UINT16] = F1(2, 2, XC_U),
    [DTK_UINT32] = F1(4, 4, XC_U),
    [DTK_UINT64] = F1(8, 8, XC_U),
    [DTK_BOOL] = F1(sizeof(_Bool), 1, XC_U),
    [DTK_FCOMPLEX] = F2(4, 4, XC_U, 4, 4, 4, XC_U),
    [DTK_DCOMPLEX] = F2(8, 8, XC_U, 8, 8, 8, XC_U),
    [DTK_LDCOMPLEX] = F2(LD, 16, XC_LD, LD, LD, 16, XC_LD),
    [DTK_AINT] = F1(sizeof(MPI_Aint), 8, XC_S),
    [DTK_OFFSET] = F1(sizeof(MPI_Offset), 8, XC_S),
    [DTK_COUNT] = F1(sizeof(MPI_Count), 8, XC_S),
    [DTK_FLOAT_INT] = F2(4, 4, XC_U, OFF(x_float_int), 4, 4, XC_S),
    [DTK_DOUBLE_INT] = F2(8, 8, XC_U, OFF(x_double_int), 4, 4, XC_S),
    [DTK_LONG_INT] = F2(sizeof(long), 4, XC_S, OFF(x_long_int), 4, 4, XC_S),
    [DTK_2INT] = F2(4, 4, XC_S, 4, 4, 4, XC_S),
    [DTK_SHORT_INT] = F2(sizeof(short), 2, XC_S, OFF(x_short_int), 4, 4, XC_S),
    [DTK_LDOUBLE_INT] = F2(LD, 16, XC_LD, OFF(x_ldouble_int), 4, 4, XC_S),
    [DTK_FLOGICAL] = F1(4, 4, XC_S),
    [DTK_2FINT] = F2(4, 4, XC_S, 4, 4, 4, XC_S),
    [DTK_2FREAL] = F2(4, 4, XC_U, 4, 4, 4, XC_U),
    [DTK_2FDOUBLE] = F2(8, 8, XC_U, 8, 8, 8, XC_U),
};

size_t dt_kind_ext_size(dt_kind_t k)
{
    if (k <= DTK_NONE || k >= DTK_COUNT_)
        return 0;
    const xdesc_t *d = &xdesc[k];
    size_t n = 0;
    for (int i = 0; i < d->nf; i++)
        n += d->f[i].esize;
    return n;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

/* Native integer/IEEE value of ns bytes -> es big-endian bytes. */
static void int_out(const unsigned char *src, size_t ns, unsigned char *out, size_t es)
{
    for (size_t j = 0; j < es; j++) /* j: significance, 0 = least */
        out[es - 1 - j] = j < ns ? src[HOST_LE ? j : ns - 1 - j] : 0;
}

static void int_in(const unsigned char *in, size_t es, unsigned char *dst, size_t ns, int sgn)
{
    unsigned char fill = sgn && (in[0] & 0x80) ? 0xff : 0;
    for (size_t j = 0; j < ns; j++)
        dst[HOST_LE ? j : ns - 1 - j] = j < es ? in[es - 1 - j] : fill;
}

/* long double <-> IEEE binary128, big-endian. */
static int ld_out(const unsigned char *src, unsigned char *out)
{
#if LDBL_MANT_DIG == 64 && HOST_LE
    uint64_t m;
    uint16_t se;
    memcpy(&m, src, 8);
    memcpy(&se, src + 8, 2);
    unsigned __int128 q = ((unsigned __int128)se << 112) |
                          ((unsigned __int128)(m & 0x7fffffffffffffffULL) << 49);
    for (int j = 0; j < 16; j++)
        out[15 - j] = (unsigned char)(q >> (8 * j));
    return 0;
#elif LDBL_MANT_DIG == 113
    int_out(src, 16, out, 16);
    return 0;
#else
    (void)src;
    (void)out;
    return -1;
#endif
}

static int ld_in(const unsigned char *in, unsigned char *dst)
{
#if LDBL_MANT_DIG == 64 && HOST_LE
    unsigned __int128 q = 0;
    for (int j = 0; j < 16; j++)
        q |= (unsigned __int128)in[15 - j] << (8 * j);
    uint16_t se = (uint16_t)(q >> 112);
    uint64_t m = (uint64_t)(q >> 49) & 0x7fffffffffffffffULL;
    if (se & 0x7fff)
        m |= 1ULL << 63; /* the explicit integer bit of normal numbers */
    memset(dst, 0, sizeof(long double));
    memcpy(dst, &m, 8);
    memcpy(dst + 8, &se, 2);
    return 0;
#elif LDBL_MANT_DIG == 113
    int_in(in, 16, dst, 16, 0);
    return 0;
#else
    (void)in;
    (void)dst;
    return -1;
#endif
}

typedef struct {
    unsigned char *stream;
    char *buf;
    int packing;
} xctx_t;

static int convert_run(void *arg, MPI_Aint disp, dt_kind_t k, size_t n)
{
    xctx_t *x = arg;
    const xdesc_t *d = &xdesc[k];
    if (d->nf == 0)
        return MPI_ERR_TYPE;
    MPI_Aint ext = dt_kind_extent(k);
    unsigned char *u = (unsigned char *)x->buf + disp;
    for (size_t i = 0; i < n; i++, u += ext) {
        for (int f = 0; f < d->nf; f++) {
            const xfield_t *fd = &d->f[f];
            unsigned char *nat = u + fd->off;
            int rc = 0;
            if (fd->cls == XC_LD)
                rc = x->packing ? ld_out(nat, x->stream) : ld_in(x->stream, nat);
            else if (x->packing)
                int_out(nat, fd->nsize, x->stream, fd->esize);
            else
                int_in(x->stream, fd->esize, nat, fd->nsize, fd->cls == XC_S);
            if (rc)
                return MPI_ERR_TYPE;
            x->stream += fd->esize;
        }
    }
    return 0;
}

int dt_pack_external(const dt_t *dt, size_t count, const void *buf, void *out)
{
    xctx_t x = {.stream = out, .buf = (char *)buf, .packing = 1};
    return dt_foreach_run(dt, count, convert_run, &x);
}

int dt_unpack_external(const dt_t *dt, size_t count, const void *in, void *buf)
{
    xctx_t x = {.stream = (unsigned char *)in, .buf = buf, .packing = 0};
    return dt_foreach_run(dt, count, convert_run, &x);
}
