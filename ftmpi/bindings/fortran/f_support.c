/*
 * f_support.c: sentinels and conversions of the Fortran bindings
 * (f_support.h).
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "mpi.h"
#include "f_support.h"

/* The storage of the Fortran sentinels. A program's own common block of
 * the same name takes precedence (the executable's copy), and these
 * references, through the GOT, then see its address. gfortran aligns
 * common blocks to 16 bytes; so do these. */
#define FTMPI_F_SENTINEL __attribute__((visibility("default"), aligned(16)))
FTMPI_F_SENTINEL MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_;
/* (MPI_STATUS(ES)_IGNORE's are in libftmpi: mpi.h's MPI_F_STATUS_IGNORE) */
FTMPI_F_SENTINEL MPI_Fint mpi_fortran_errcodes_ignore_[1], mpi_fortran_unweighted_[1],
    mpi_fortran_weights_empty_[1];
FTMPI_F_SENTINEL char mpi_fortran_argv_null_[1], mpi_fortran_argvs_null_[1];

void *ftmpi_f_buf(void *p)
{
    if (p == (void *)&mpi_fortran_bottom_)
        return MPI_BOTTOM;
    if (p == (void *)&mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    return p;
}

int *ftmpi_f_weights(MPI_Fint *p)
{
    if (p == mpi_fortran_unweighted_)
        return MPI_UNWEIGHTED;
    if (p == mpi_fortran_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return p;
}

int *ftmpi_f_errcodes(MPI_Fint *p)
{
    return p == mpi_fortran_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : p;
}

int ftmpi_f_is_argv_null(const char *p)
{
    return p == mpi_fortran_argv_null_;
}

int ftmpi_f_is_argvs_null(const char *p)
{
    return p == mpi_fortran_argvs_null_;
}

char *ftmpi_f_str_in(const char *f, size_t len)
{
    while (len > 0 && f[len - 1] == ' ')
        len--;
    char *c = malloc(len + 1);
    if (!c)
        return NULL;
    memcpy(c, f, len);
    c[len] = '\0';
    return c;
}

char *ftmpi_f_str_alloc(long n)
{
    return calloc((size_t)(n > 0 ? n : 0) + 1, 1);
}

void ftmpi_f_str_out(char *f, size_t len, const char *c)
{
    size_t n = strlen(c);
    if (n > len)
        n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

MPI_Status *ftmpi_f_status_in(MPI_Fint *f, MPI_Status *local)
{
    if (f == mpi_fortran_status_ignore_ || f == mpi_fortran_statuses_ignore_)
        return MPI_STATUS_IGNORE;
    memcpy(local, f, sizeof *local);
    return local;
}

void ftmpi_f_status_out(MPI_Fint *f, const MPI_Status *c)
{
    if (c != MPI_STATUS_IGNORE)
        memcpy(f, c, sizeof *c);
}

MPI_Status *ftmpi_f_statuses_in(MPI_Fint *f, long n)
{
    if (f == mpi_fortran_statuses_ignore_ || f == mpi_fortran_status_ignore_)
        return MPI_STATUSES_IGNORE;
    size_t k = n > 0 ? (size_t)n : 0;
    MPI_Status *c = malloc((k ? k : 1) * sizeof *c);
    if (c && k)
        memcpy(c, f, k * sizeof *c);
    return c;
}

void ftmpi_f_statuses_out(MPI_Fint *f, const MPI_Status *c, long n)
{
    if (c && c != MPI_STATUSES_IGNORE && n > 0)
        memcpy(f, c, (size_t)n * sizeof *c);
}

void ftmpi_f_statuses_free(MPI_Status *c)
{
    if (c != MPI_STATUSES_IGNORE)
        free(c);
}

MPI_Aint ftmpi_f_attr_value(int keyval, void *v)
{
    switch (keyval) {
    case MPI_TAG_UB: case MPI_HOST: case MPI_IO: case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE: case MPI_LASTUSEDCODE: case MPI_APPNUM:
    case FTMPI_COMM_MODE: case FTMPI_MSG_MODE: case FTMPI_COLL_MODE:
    case FTMPI_RECOVERY_MODE: case FTMPI_NUM_FAILED_PROCS: case FTMPI_ERROR_FAILURE:
        return v ? (MPI_Aint) * (int *)v : 0;
    case MPI_WIN_DISP_UNIT: case MPI_WIN_CREATE_FLAVOR: case MPI_WIN_MODEL: /* int * in C */
        return v ? (MPI_Aint) * (int *)v : 0;
    case MPI_WIN_SIZE: /* MPI_Aint * in C */
        return v ? *(MPI_Aint *)v : 0;
    default:
        return (MPI_Aint)v;
    }
}

int ftmpi_f_nomem(const char *fname)
{
    fprintf(stderr, "ftmpi: %s (Fortran binding): out of memory for a copy of an argument\n",
            fname);
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    return MPI_ERR_NO_MEM;
}
