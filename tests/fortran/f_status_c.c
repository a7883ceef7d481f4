/*
 * f_status_c.c: the C side of fortran.status_ignore. A Fortran program
 * passes its MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE and real statuses to
 * these functions, which tell them apart with mpi.h's MPI_F_STATUS_IGNORE,
 * MPI_F_STATUSES_IGNORE, MPI_F08_STATUS_IGNORE and MPI_F08_STATUSES_IGNORE,
 * and check that the status conversions refuse the sentinels (MPI_ERR_ARG,
 * through MPI_COMM_WORLD's error handler) and convert a real status.
 */
#include <string.h>
#include "mpi.h"

/* 1: MPI_F_STATUS_IGNORE, 2: MPI_F_STATUSES_IGNORE, 0: a status */
int fstat_which(MPI_Fint *f)
{
    return f == MPI_F_STATUS_IGNORE ? 1 : f == MPI_F_STATUSES_IGNORE ? 2 : 0;
}

int fstat_which08(MPI_F08_status *f)
{
    return f == MPI_F08_STATUS_IGNORE ? 1 : f == MPI_F08_STATUSES_IGNORE ? 2 : 0;
}

static int nraised;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    int cls;
    (void)comm;
    MPI_Error_class(*code, &cls);
    if (cls == MPI_ERR_ARG)
        nraised++;
}

/* f: a Fortran status (mpif.h/`mpi`) of a message from src with tag;
 * returns the number of checks that failed */
int fstat_conversions(MPI_Fint *f, int src, int tag)
{
    enum { N = sizeof(MPI_Status) / sizeof(MPI_Fint) };
    MPI_Status c;
    MPI_F08_status s08;
    MPI_Fint back[N];
    MPI_Errhandler eh, old;
    int bad = 0;

    if (MPI_Status_f2c(f, &c) != MPI_SUCCESS || c.MPI_SOURCE != src || c.MPI_TAG != tag)
        bad++;
    if (MPI_Status_c2f(&c, back) != MPI_SUCCESS || memcmp(back, f, sizeof back) != 0)
        bad++;
    if (MPI_Status_f2f08(f, &s08) != MPI_SUCCESS || s08.MPI_SOURCE != src)
        bad++;
    /* MPI-4.0's C names of the Fortran status layout */
    if (MPI_F_STATUS_SIZE != N || f[MPI_F_SOURCE] != src || f[MPI_F_TAG] != tag ||
        f[MPI_F_ERROR] != c.MPI_ERROR)
        bad++;

    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &old);
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    nraised = 0;
    bad += MPI_Status_f2c(MPI_F_STATUS_IGNORE, &c) != MPI_ERR_ARG;
    bad += MPI_Status_f2c(MPI_F_STATUSES_IGNORE, &c) != MPI_ERR_ARG;
    bad += MPI_Status_c2f(&c, MPI_F_STATUS_IGNORE) != MPI_ERR_ARG;
    bad += MPI_Status_c2f(MPI_STATUS_IGNORE, back) != MPI_ERR_ARG;
    bad += MPI_Status_c2f(MPI_STATUSES_IGNORE, back) != MPI_ERR_ARG;
    bad += MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &c) != MPI_ERR_ARG;
    bad += MPI_Status_c2f08(&c, MPI_F08_STATUSES_IGNORE) != MPI_ERR_ARG;
    bad += MPI_Status_f2f08(MPI_F_STATUS_IGNORE, &s08) != MPI_ERR_ARG;
    bad += MPI_Status_f082f(&s08, MPI_F_STATUSES_IGNORE) != MPI_ERR_ARG;
    bad += nraised != 9;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, old);
    MPI_Errhandler_free(&eh);
    return bad;
}
