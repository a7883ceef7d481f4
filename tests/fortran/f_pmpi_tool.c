/*
 * f_pmpi_tool.c: the C half of a profiling tool (fortran.pmpi): it
 * defines the Fortran names of mpif.h and `mpi` (mpi_send_, mpi_recv_,
 * mpi_barrier_: gfortran's MPI_SEND, ...) and the C names (MPI_Send, ...),
 * counts every call and forwards it to the profiling name (pmpi_send_,
 * PMPI_Send, ...). f_pmpi_tool_f08.f90 is the mpi_f08 half, written in
 * Fortran. The library's MPI_ and mpi_ names are weak, so the tool's take
 * their place, also when the program is linked with the static libraries.
 */
#include "mpi.h"

/* counts[style * 3 + call]: style 0 mpif.h/`mpi`, 1 mpi_f08, 2 C;
 * call 0 send, 1 recv, 2 barrier */
static int counts[9];

void ftool_bump(int what)
{
    if (what >= 0 && what < 9)
        counts[what]++;
}

void ftool_counts(int out[9])
{
    for (int i = 0; i < 9; i++)
        out[i] = counts[i];
}

/* the profiling names of the library (gfortran's PMPI_SEND, ...) */
void pmpi_send_(void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest, MPI_Fint *tag,
                MPI_Fint *comm, MPI_Fint *ierror);
void pmpi_recv_(void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *src, MPI_Fint *tag,
                MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierror);
void pmpi_barrier_(MPI_Fint *comm, MPI_Fint *ierror);

void mpi_send_(void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest, MPI_Fint *tag,
               MPI_Fint *comm, MPI_Fint *ierror)
{
    counts[0]++;
    pmpi_send_(buf, count, type, dest, tag, comm, ierror);
}

void mpi_recv_(void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *src, MPI_Fint *tag,
               MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierror)
{
    counts[1]++;
    pmpi_recv_(buf, count, type, src, tag, comm, status, ierror);
}

void mpi_barrier_(MPI_Fint *comm, MPI_Fint *ierror)
{
    counts[2]++;
    pmpi_barrier_(comm, ierror);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    counts[6]++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    counts[7]++;
    return PMPI_Recv(buf, count, type, src, tag, comm, status);
}

int MPI_Barrier(MPI_Comm comm)
{
    counts[8]++;
    return PMPI_Barrier(comm);
}
