/*
 * Datatypes: the object, the constructors, the compact representation
 * built at commit, and the packing interface that point-to-point and
 * collectives use (docs/datatypes.md).
 *
 * Representation. A constructor records what the user asked for (the
 * envelope: combiner, integers, addresses, child types) and computes the
 * type's bounds, size and element counts. Commit turns the constructor tree
 * into two small loop programs (dt_prog_t) for one element of the type:
 *
 *   raw    untyped byte runs, adjacent runs merged, regular runs folded
 *          into strided leaves, nested types flattened into nested loops.
 *          Packing, unpacking and iovec building walk this one.
 *   typed  the same shape, but every leaf holds units of one basic kind
 *          (pairs such as MPI_DOUBLE_INT are one unit). Reductions,
 *          external32 conversion and MPI_Get_elements walk this one.
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
#include <sys/uio.h>
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

/* One instruction of a loop program (see the top of this file).
 *   LEAF: `count` blocks, block i at disp + i*stride; a block is `n`
 *         units (raw program: n bytes; typed program: n units of `kind`,
 *         dt_kind_extent(kind) apart) and `bytes` packed bytes.
 *   LOOP: `count` iterations of the `body` instructions that follow it,
 *         iteration i displaced by disp + i*stride; `bytes` packed bytes
 *         per iteration. */
enum { DT_OP_LEAF = 0, DT_OP_LOOP = 1 };
typedef struct dt_op {
    uint32_t code;
    uint32_t kind;
    size_t body;
    size_t count;
    MPI_Aint disp;
    MPI_Aint stride;
    size_t n;
    size_t bytes;
} dt_op_t;

typedef struct {
    dt_op_t *ops;
    size_t nops;
} dt_prog_t;

typedef struct dt {
    int handle;          /* MPI_DATATYPE_NULL for internal (unpublished) types */
    int refcount;        /* user handles + requests/types that use it */
    int urefs;           /* user references (Type_free, get_contents) */
    int predefined;
    int committed;
    int freed;           /* user called Type_free; object lives while refcount > 0 */
    dt_kind_t kind;      /* predefined element kind; DTK_NONE for derived */
    size_t size;         /* bytes of data in one element */
    MPI_Aint lb, ub, extent;
    MPI_Aint true_lb, true_ub;
    int has_lb, has_ub;  /* sticky lower/upper bound markers (MPI_LB/MPI_UB, resized) */
    int empty;           /* no entries at all: no data and no markers */
    int count_wrap;      /* contiguous type the large-count API made to carry a
                          * count beyond int (api/count_c.c): user reduction
                          * functions see its element type and count instead */
    size_t align;        /* alignment used to pad struct extents */
    int contig;          /* one element is `size` bytes at true_lb and extent == size */
    int dense1;          /* one element is one run of `size` bytes at true_lb */
    dt_kind_t elem_kind; /* the single basic kind all data has, or DTK_NONE */
    size_t elem_count;   /* basic elements in one element (for Get_elements) */
    size_t ext_size;     /* bytes of one element in "external32" */
    /* Built at commit (predefined: at start-up). */
    dt_prog_t raw;       /* byte runs: packing and iovecs */
    dt_prog_t typed;     /* runs of basic units: reductions, external32, elements */
    size_t nruns;        /* byte runs in one element after merging */
    size_t min_run;      /* shortest of them, bytes (0 when size == 0) */
    void *envelope;      /* constructor record (dt_env_t, dt_envelope.c) */
    void *attrs;         /* attribute list */
    char name[MPI_MAX_OBJECT_NAME];
} dt_t;

/* ---- the handle table and predefined objects (datatype_predef.c) ---- */
int dt_module_init(void);
void dt_module_fini(void);
dt_t *dt_get(MPI_Datatype h);        /* NULL if not a valid handle */
/* Size, extent and basic elements of one unit of a predefined kind. */
size_t dt_kind_size(dt_kind_t k);
MPI_Aint dt_kind_extent(dt_kind_t k);
size_t dt_kind_elems(dt_kind_t k);

static inline void dt_retain(dt_t *dt) { if (!dt->predefined) dt->refcount++; }
void dt_release(dt_t *dt);           /* frees when the last user is gone */
/* Give an internal type a user handle (urefs = 1). 0 or MPI_ERR_NO_MEM. */
int dt_publish(dt_t *dt);
/* The user frees one handle reference: attributes are deleted when the
 * last user reference goes, the object when the last use goes. */
int dt_user_free(dt_t *dt);

/* ---- constructors (dt_create.c, dt_subarray.c) ----------------------
 * All return MPI_SUCCESS or an MPI error class; *out is a new internal
 * type (refcount 1, no handle, not committed). Children are retained. */
int dt_create_contiguous(size_t count, dt_t *old, dt_t **out);
/* count elements of old as one element: a committed contiguous type marked
 * count_wrap, for interfaces that take an int count (NULL: out of memory). */
dt_t *dt_count_wrap_new(size_t count, dt_t *old);
/* VECTOR: stride in units of old's extent; HVECTOR: in bytes. */
int dt_create_vector(int combiner, size_t count, size_t blocklen, MPI_Aint stride, dt_t *old,
                     dt_t **out);
/* INDEXED (blocklens[count], idisps), HINDEXED (blocklens[count], adisps),
 * INDEXED_BLOCK (blocklens[0], idisps), HINDEXED_BLOCK (blocklens[0],
 * adisps); idisps are in units of old's extent, adisps in bytes. */
int dt_create_indexed(int combiner, size_t count, const int *blocklens, const int *idisps,
                      const MPI_Aint *adisps, dt_t *old, dt_t **out);
int dt_create_struct(size_t count, const int *blocklens, const MPI_Aint *disps,
                     dt_t *const *types, dt_t **out);
int dt_create_resized(dt_t *old, MPI_Aint lb, MPI_Aint extent, dt_t **out);
int dt_create_dup(dt_t *old, dt_t **out);
/* MPI_Type_create_f90_real/complex/integer: a committed type with base's
 * layout whose envelope is the F90 combiner with (p, r), or (r) for
 * integers, and no child types (base is kept as the record's impl). */
int dt_create_f90(int combiner, int p, int r, dt_t *base, dt_t **out);
/* The library's own release of such a type (MPI_Finalize). */
void dt_f90_free(dt_t *dt);
int dt_create_subarray(int ndims, const int *sizes, const int *subsizes, const int *starts,
                       int order, dt_t *old, dt_t **out);
int dt_create_darray(int size, int rank, int ndims, const int *gsizes, const int *distribs,
                     const int *dargs, const int *psizes, int order, dt_t *old, dt_t **out);

/* Build the loop programs (idempotent). MPI_SUCCESS or MPI_ERR_NO_MEM. */
int dt_commit(dt_t *dt);

/* ---- envelope (dt_envelope.c) ---- */
int dt_get_envelope(const dt_t *dt, int *ni, int *na, int *nd, int *combiner);
/* Portable (MPI-4.0 2.4): predefined, or made from portable types by
 * contiguous, vector, indexed, indexed_block, subarray, darray and dup
 * only (no byte displacements): a file view scales its layout to the
 * data representation's sizes (io/io_datarep.c). */
int dt_is_portable(const dt_t *dt);
/* Copies the constructor arguments; child types get one more user
 * reference each (the caller frees them). */
int dt_get_contents(dt_t *dt, int max_i, int max_a, int max_d, int *ints, MPI_Aint *aints,
                    MPI_Datatype *types);
/* The large-count forms: nl/counts are the counts a constructor given a value
 * beyond int keeps (the int forms above return MPI_ERR_TYPE for those). */
int dt_get_envelope_c(const dt_t *dt, MPI_Count *ni, MPI_Count *na, MPI_Count *nl,
                      MPI_Count *nd, int *combiner);
int dt_get_contents_c(dt_t *dt, MPI_Count max_i, MPI_Count max_a, MPI_Count max_l,
                      MPI_Count max_d, int *ints, MPI_Aint *aints, MPI_Count *counts,
                      MPI_Datatype *types);
/* A count_wrap type: 1 and its element type and count; else 0. */
int dt_count_wrap_parts(const dt_t *dt, dt_t **child, size_t *n);

/* ---- packing (dt_pack.c) --------------------------------------------- */

/* Is (count, dt) one contiguous byte run starting at buf + true_lb? */
static inline int dt_is_contig(const dt_t *dt, size_t count)
{
    return dt->contig || (count == 1 && dt->dense1);
}

/* Pack bytes [offset, offset+len) of the packed stream of (buf, count, dt)
 * into out. Returns the number of bytes written (len unless the stream is
 * shorter). */
size_t dt_pack(const dt_t *dt, size_t count, const void *buf, size_t offset,
               void *out, size_t len);
/* The reverse: store bytes [offset, offset+len) of the stream into buf. */
size_t dt_unpack(const dt_t *dt, size_t count, void *buf, size_t offset,
                 const void *in, size_t len);

/* Describe bytes [offset, offset+len) of the packed stream of (buf, count,
 * dt) as memory runs: fills up to `max` entries of iov (adjacent runs
 * merged) and returns how many; *bytes_p gets the stream bytes they cover
 * (less than len when iov filled up: call again from offset + *bytes_p).
 * For single-copy transports (process_vm_readv/writev straight into or out
 * of the user's buffer). Worth it when runs are long: see dt_iov_worthwhile;
 * for short runs packing is faster than the kernel's per-run cost. */
int dt_iov(const dt_t *dt, size_t count, const void *buf, size_t offset, size_t len,
           struct iovec *iov, int max, size_t *bytes_p);

/* Do (count, dt)'s runs average at least DT_IOV_MIN_RUN bytes? */
#define DT_IOV_MIN_RUN 2048
static inline int dt_iov_worthwhile(const dt_t *dt, size_t count)
{
    (void)count;
    return dt->nruns && dt->size / dt->nruns >= DT_IOV_MIN_RUN;
}

/* Number of basic elements in `bytes` bytes of packed data of dt, or
 * MPI_UNDEFINED when bytes does not end on a basic element boundary. */
MPI_Count dt_elements_in(const dt_t *dt, size_t bytes);
/* Packed bytes of the first `elements` basic elements of (count, dt)
 * (MPI_Status_set_elements); SIZE_MAX when there are not that many. */
size_t dt_bytes_of_elements(const dt_t *dt, MPI_Count elements);

/* ---- walking a type (dt_walk.c) ---------------------------------------
 * Callbacks return 0 to go on; any other value stops the walk and is
 * returned. Displacements are from the buffer address, in typemap order. */

/* n consecutive units of one basic kind at disp (units dt_kind_extent
 * apart); for reductions: kernel(kind, in + disp, inout + disp, n). */
typedef int dt_run_fn(void *arg, MPI_Aint disp, dt_kind_t kind, size_t n);
int dt_foreach_run(const dt_t *dt, size_t count, dt_run_fn *fn, void *arg);
/* Contiguous byte runs of data (the raw program). */
typedef int dt_block_fn(void *arg, MPI_Aint disp, size_t len);
int dt_foreach_block(const dt_t *dt, size_t count, dt_block_fn *fn, void *arg);

/* ---- external32 (dt_external.c) ---------------------------------------- */
/* Convert (buf, count, dt) to external32 at out (dt->ext_size * count
 * bytes), and back. MPI_SUCCESS or MPI_ERR_TYPE (a kind without a
 * representation). */
int dt_pack_external(const dt_t *dt, size_t count, const void *buf, void *out);
int dt_unpack_external(const dt_t *dt, size_t count, const void *in, void *buf);
size_t dt_kind_ext_size(dt_kind_t k);

#endif
