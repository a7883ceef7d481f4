/*
 * f_datarep.c: MPI_Register_datarep and MPI_Register_datarep_c for
 * Fortran (mpi.api marks them @custom). The library calls C trampolines
 * that call the Fortran procedures: the buffers go as addresses (a choice
 * argument of mpif.h/`mpi` and mpi_f08's TYPE(C_PTR), VALUE are both the
 * address itself), every other argument by reference, the extra_state as
 * the INTEGER(KIND=MPI_ADDRESS_KIND) the program gave. The C extra_state
 * is a record of the procedures; a representation lives as long as the
 * process (the standard has no way to remove one), and so does its record.
 * MPI_CONVERSION_FN_NULL(_C) is a Fortran procedure (gen_c.py writes it):
 * given for a conversion, C gets a NULL function, as in C.
 */
#include <stdlib.h>

#include "mpi.h"
#include "f_support.h"

void mpi_conversion_fn_null_(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Offset *, MPI_Aint *,
                             MPI_Fint *);
void mpi_conversion_fn_null_c_(void *, MPI_Fint *, MPI_Count *, void *, MPI_Offset *,
                               MPI_Aint *, MPI_Fint *);

typedef void f_conv_fn(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Offset *, MPI_Aint *,
                       MPI_Fint *);
typedef void f_conv_c_fn(void *, MPI_Fint *, MPI_Count *, void *, MPI_Offset *, MPI_Aint *,
                         MPI_Fint *);
typedef void f_extent_fn(MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);

typedef struct {
    void (*rd)(void), (*wr)(void); /* f_conv_fn or f_conv_c_fn */
    f_extent_fn *extent;
    MPI_Aint extra;
} fdrep_t;

static int conv(void (*fn)(void), void *ubuf, MPI_Datatype t, int count, void *fbuf,
                MPI_Offset pos, fdrep_t *r)
{
    MPI_Fint ft = MPI_Type_c2f(t), n = count, ierr = MPI_SUCCESS;
    MPI_Aint x = r->extra; /* the value registered, whatever a call made of it */
    ((f_conv_fn *)fn)(ubuf, &ft, &n, fbuf, &pos, &x, &ierr);
    return ierr;
}

static int conv_c(void (*fn)(void), void *ubuf, MPI_Datatype t, MPI_Count count, void *fbuf,
                  MPI_Offset pos, fdrep_t *r)
{
    MPI_Fint ft = MPI_Type_c2f(t), ierr = MPI_SUCCESS;
    MPI_Aint x = r->extra;
    ((f_conv_c_fn *)fn)(ubuf, &ft, &count, fbuf, &pos, &x, &ierr);
    return ierr;
}

static int tramp_read(void *u, MPI_Datatype t, int n, void *f, MPI_Offset pos, void *x)
{
    return conv(((fdrep_t *)x)->rd, u, t, n, f, pos, x);
}
static int tramp_write(void *u, MPI_Datatype t, int n, void *f, MPI_Offset pos, void *x)
{
    return conv(((fdrep_t *)x)->wr, u, t, n, f, pos, x);
}
static int tramp_read_c(void *u, MPI_Datatype t, MPI_Count n, void *f, MPI_Offset pos, void *x)
{
    return conv_c(((fdrep_t *)x)->rd, u, t, n, f, pos, x);
}
static int tramp_write_c(void *u, MPI_Datatype t, MPI_Count n, void *f, MPI_Offset pos, void *x)
{
    return conv_c(((fdrep_t *)x)->wr, u, t, n, f, pos, x);
}

static int tramp_extent(MPI_Datatype t, MPI_Aint *extent, void *rec)
{
    fdrep_t *r = rec;
    MPI_Fint ft = MPI_Type_c2f(t), ierr = MPI_SUCCESS;
    MPI_Aint x = r->extra;
    r->extent(&ft, extent, &x, &ierr);
    return ierr;
}

/* The record, and the C functions for the conversions that are not null. */
static fdrep_t *record(void (*rd)(void), void (*wr)(void), void (*extent)(void),
                       MPI_Aint *extra, void (*null)(void))
{
    fdrep_t *r = malloc(sizeof *r);
    if (r) {
        r->rd = rd == null ? NULL : rd;
        r->wr = wr == null ? NULL : wr;
        r->extent = (f_extent_fn *)extent;
        r->extra = *extra;
    }
    return r;
}

static int reg(const char *fname, char *name, size_t len, fdrep_t *r, int large)
{
    char *c = ftmpi_f_str_in(name, len);
    int rc;
    if (!c || !r) {
        rc = ftmpi_f_nomem(fname);
    } else if (large) {
        rc = MPI_Register_datarep_c(c, r->rd ? tramp_read_c : MPI_CONVERSION_FN_NULL_C,
                                    r->wr ? tramp_write_c : MPI_CONVERSION_FN_NULL_C,
                                    tramp_extent, r);
    } else {
        rc = MPI_Register_datarep(c, r->rd ? tramp_read : MPI_CONVERSION_FN_NULL,
                                  r->wr ? tramp_write : MPI_CONVERSION_FN_NULL, tramp_extent,
                                  r);
    }
    if (rc != MPI_SUCCESS)
        free(r); /* not registered: nothing refers to it */
    free(c);
    return rc;
}

void pmpi_register_datarep_(char *name, void (*rd)(void), void (*wr)(void),
                            void (*extent)(void), MPI_Aint *extra, MPI_Fint *ierror,
                            size_t len)
{
    fdrep_t *r = record(rd, wr, extent, extra, (void (*)(void))mpi_conversion_fn_null_);
    int rc = reg("MPI_Register_datarep", name, len, r, 0);
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_register_datarep)

void pmpi_register_datarep_c_(char *name, void (*rd)(void), void (*wr)(void),
                              void (*extent)(void), MPI_Aint *extra, MPI_Fint *ierror,
                              size_t len)
{
    fdrep_t *r = record(rd, wr, extent, extra, (void (*)(void))mpi_conversion_fn_null_c_);
    int rc = reg("MPI_Register_datarep_c", name, len, r, 1);
    if (ierror)
        *ierror = rc;
}
FTMPI_F_NAMES_F08(mpi_register_datarep_c)
