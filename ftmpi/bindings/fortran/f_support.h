/*
 * f_support.h: what the generated Fortran wrappers (f_wrappers.c) use:
 * the Fortran sentinels, string, status and LOGICAL conversions.
 * Part of libftmpi_f, above the MPI C interface: uses mpi.h only.
 */
#ifndef FTMPI_F_SUPPORT_H
#define FTMPI_F_SUPPORT_H

#include <stddef.h>
#include "mpi.h"

/* A second exported name for a wrapper. */
#define FTMPI_F_ALIAS(target, name)                                            \
    extern __typeof__(target) name                                             \
        __attribute__((alias(#target), visibility("default")));
/* A weak exported name: a profiling tool's own definition takes its place. */
#define FTMPI_F_WEAK(target, name)                                             \
    extern __typeof__(target) name                                             \
        __attribute__((weak, alias(#target), visibility("default")));

/* The profiling interface (docs/fortran.md, "Profiling"): the body of the
 * Fortran binding of MPI_X is pmpi_x_ (gfortran's name for PMPI_X) and
 * mpi_x_ is a weak alias of it, so a tool that defines mpi_x_ can call
 * pmpi_x_. FTMPI_F_NAMES(mpi_x) gives mpif.h's and `mpi`'s names;
 * FTMPI_F_NAMES_F08(mpi_x) adds mpi_f08's specific procedure names:
 * pmpi_x_f08_ (PMPI_X_f08, a strong alias) and the weak mpi_x_f08_. */
#define FTMPI_F_NAMES(n) FTMPI_F_WEAK(p##n##_, n##_)
#define FTMPI_F_NAMES_F08(n)                                                   \
    FTMPI_F_NAMES(n)                                                           \
    FTMPI_F_ALIAS(p##n##_, p##n##_f08_)                                        \
    FTMPI_F_WEAK(p##n##_, n##_f08_)

/* The Fortran sentinels: common blocks of mpif.h and the modules (gfortran
 * names a common block /x/ x_). Their addresses are what a Fortran program
 * passes for MPI_BOTTOM, MPI_STATUS_IGNORE, ... */
extern MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_;
/* (mpi_fortran_status_ignore_ and mpi_fortran_statuses_ignore_: mpi.h) */
extern MPI_Fint mpi_fortran_errcodes_ignore_[], mpi_fortran_unweighted_[],
    mpi_fortran_weights_empty_[];
extern char mpi_fortran_argv_null_[], mpi_fortran_argvs_null_[];

/* choice buffers: MPI_BOTTOM and MPI_IN_PLACE become mpi.h's values */
void *ftmpi_f_buf(void *p);
/* graph weights: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY */
int *ftmpi_f_weights(MPI_Fint *p);
/* MPI_ERRCODES_IGNORE, MPI_ARGV_NULL and MPI_ARGVS_NULL (the
 * process-creation functions: f_spawn.c) */
int *ftmpi_f_errcodes(MPI_Fint *p);
int ftmpi_f_is_argv_null(const char *p);
int ftmpi_f_is_argvs_null(const char *p);

/* LOGICAL: gfortran's .TRUE. is 1 */
static inline MPI_Fint ftmpi_f_logical(int c) { return c ? 1 : 0; }

/* Strings: a Fortran string has a length and no NUL; trailing blanks are
 * not part of its value. _in returns a malloc'd C copy, _alloc a zeroed
 * buffer for n characters and the NUL, _out copies a C string into a
 * Fortran one, blank-padded or truncated. NULL: out of memory. */
char *ftmpi_f_str_in(const char *f, size_t len);
char *ftmpi_f_str_alloc(long n);
void ftmpi_f_str_out(char *f, size_t len, const char *c);

/* Statuses: a Fortran status is MPI_STATUS_SIZE integers with the C
 * struct's layout, but only 4-byte aligned, so the wrappers work on an
 * aligned copy. _in: MPI_STATUS_IGNORE, or local filled from f.
 * _statuses_in: MPI_STATUSES_IGNORE, or a malloc'd copy (NULL: no memory);
 * n < 0 is left for the C function to report. */
MPI_Status *ftmpi_f_status_in(MPI_Fint *f, MPI_Status *local);
void ftmpi_f_status_out(MPI_Fint *f, const MPI_Status *c);
MPI_Status *ftmpi_f_statuses_in(MPI_Fint *f, long n);
void ftmpi_f_statuses_out(MPI_Fint *f, const MPI_Status *c, long n);
void ftmpi_f_statuses_free(MPI_Status *c);

/* An attribute value as Fortran sees it: the value stored, except for the
 * predefined attributes, whose C value is a pointer to the int. */
MPI_Aint ftmpi_f_attr_value(int keyval, void *v);

/* A wrapper could not allocate its copy of an argument: MPI_ERR_NO_MEM,
 * raised on MPI_COMM_WORLD's error handler. */
int ftmpi_f_nomem(const char *fname);

#endif
