/*
 * Datatypes: the object, the predefined table, and the packing interface
 * that point-to-point and collectives use.
 *
 * Packing is by segment: any byte range [offset, offset+len) of the packed
 * stream of (buf, count, type) can be produced or consumed on its own, so
 * transports can pack into fragments as they go out and unpack as they
 * arrive, without a full intermediate copy.
 */
#ifndef FTMPI_CORE_DATATYPE_H
#define FTMPI_CORE_DATATYPE_H

#include <stddef.h>
#include <stdint.h>
#include "mpi.h"

/* Element kinds of the predefined types, for reduction operations. */
typedef enum {
    DTK_NONE = 0,
    DTK_CHAR, DTK_SCHAR, DTK_UCHAR, DTK_BYTE, DTK_WCHAR,
    DTK_SHORT, DTK_USHORT, DTK_INT, DTK_UINT, DTK_LONG, DTK_ULONG,
    DTK_LLONG, DTK_ULLONG, DTK_FLOAT, DTK_DOUBLE, DTK_LDOUBLE,
    DTK_INT8, DTK_INT16, DTK_INT32, DTK_INT64,
    DTK_UINT8, DTK_UINT16, DTK_UINT32, DTK_UINT64,
    DTK_BOOL, DTK_FCOMPLEX, DTK_DCOMPLEX, DTK_LDCOMPLEX,
    DTK_AINT, DTK_OFFSET, DTK_COUNT,
    DTK_FLOAT_INT, DTK_DOUBLE_INT, DTK_LONG_INT, DTK_2INT, DTK_SHORT_INT,
    DTK_LDOUBLE_INT,
    DTK_FLOGICAL, DTK_2FINT, DTK_2FREAL, DTK_2FDOUBLE,
    DTK_PACKED, DTK_LBUB,
    DTK_COUNT_
} dt_kind_t;

/* One contiguous run of bytes of one element, relative to the buffer. */
typedef struct {
    MPI_Aint disp;
    size_t len;
} dt_block_t;

typedef struct dt {
    int handle;
    int refcount;        /* user handle + requests/types that use it */
    int predefined;
    int committed;
    int freed;           /* user called Type_free; object lives while refcount > 0 */
    dt_kind_t kind;      /* predefined element kind; DTK_NONE for derived */
    size_t size;         /* bytes of data in one element */
    MPI_Aint lb, ub, extent;
    MPI_Aint true_lb, true_ub;
    int has_lb, has_ub;  /* explicit MPI_LB / MPI_UB markers (MPI-1) */
    int contig;          /* one element is `size` bytes at true_lb and extent == size */
    /* Derived-type representation: owned by the datatype engine. */
    dt_block_t *blocks;  /* flattened, merged blocks of one element */
    size_t nblocks;
    size_t *prefix;      /* prefix[i] = packed bytes before block i */
    dt_kind_t elem_kind; /* the single basic kind all data has, or DTK_NONE */
    size_t elem_count;   /* basic elements in one element (for Get_elements) */
    void *envelope;      /* constructor record for get_envelope/contents */
    void *attrs;         /* attribute list */
    char name[MPI_MAX_OBJECT_NAME];
} dt_t;

/* The handle table and predefined objects (datatype_predef.c). */
int dt_module_init(void);
void dt_module_fini(void);
dt_t *dt_get(MPI_Datatype h);        /* NULL if not a valid handle */
dt_t *dt_get_predef(MPI_Datatype h);

static inline void dt_retain(dt_t *dt) { if (!dt->predefined) dt->refcount++; }
void dt_release(dt_t *dt);           /* frees when the last user is gone */

/* Is (count, dt) one contiguous byte run starting at buf + true_lb? */
static inline int dt_is_contig(const dt_t *dt, size_t count)
{
    return dt->contig || (count == 1 && dt->nblocks == 1);
}

/* Pack bytes [offset, offset+len) of the packed stream of (buf, count, dt)
 * into out. Returns the number of bytes written (len unless the stream is
 * shorter). */
size_t dt_pack(const dt_t *dt, size_t count, const void *buf, size_t offset,
               void *out, size_t len);
/* The reverse: store bytes [offset, offset+len) of the stream into buf. */
size_t dt_unpack(const dt_t *dt, size_t count, void *buf, size_t offset,
                 const void *in, size_t len);

/* Number of basic elements in `bytes` bytes of packed data of dt, or
 * MPI_UNDEFINED when bytes does not end on a basic element boundary. */
MPI_Count dt_elements_in(const dt_t *dt, size_t bytes);

#endif
