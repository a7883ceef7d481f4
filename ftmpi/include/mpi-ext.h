/*
 * mpi-ext.h: the ULFM (User-Level Failure Mitigation) interface of ftmpi,
 * beside the FT-MPI modes of ftmpi.h (docs/ulfm.md). mpi.h includes it, so
 * `#include <mpi.h>` alone is enough; programs written for Open MPI 5 or
 * MPICH that include <mpi-ext.h> as well compile unchanged.
 *
 * The semantics apply when the job is started in the ULFM mode:
 * `mpirun --with-ft ulfm`, `--comm-mode=ulfm` or FTMPI_COMM_MODE=ulfm.
 */
#ifndef FTMPI_MPI_EXT_H
#define FTMPI_MPI_EXT_H

#include "mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* How programs detect the interface (Open MPI's and MPICH's names). */
#define OMPI_HAVE_MPI_EXT_FTMPI 1
#define OMPI_HAVE_MPI_EXT_ULFM 1
#define MPIX_FT_ULFM 1
#define FTMPI_HAVE_ULFM 1

/* The error classes (MPIX_ERR_PROC_FAILED, MPIX_ERR_PROC_FAILED_PENDING,
 * MPIX_ERR_REVOKED) are defined in mpi.h. */

/* Attribute on MPI_COMM_WORLD: its value (int *) is non-zero when the job
 * runs with the ULFM semantics. */
#define MPIX_FT 22

#define FTMPI_XFN(ret, name, args) ret MPIX_##name args; ret PMPIX_##name args;
FTMPI_XFN(int, Comm_revoke, (MPI_Comm comm))
FTMPI_XFN(int, Comm_is_revoked, (MPI_Comm comm, int *flag))
FTMPI_XFN(int, Comm_shrink, (MPI_Comm comm, MPI_Comm *newcomm))
FTMPI_XFN(int, Comm_ishrink, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
FTMPI_XFN(int, Comm_agree, (MPI_Comm comm, int *flag))
FTMPI_XFN(int, Comm_iagree, (MPI_Comm comm, int *flag, MPI_Request *request))
FTMPI_XFN(int, Comm_failure_ack, (MPI_Comm comm))
FTMPI_XFN(int, Comm_failure_get_acked, (MPI_Comm comm, MPI_Group *failedgrp))
FTMPI_XFN(int, Comm_get_failed, (MPI_Comm comm, MPI_Group *failedgrp))
FTMPI_XFN(int, Comm_ack_failed, (MPI_Comm comm, int num_to_ack, int *num_acked))
FTMPI_XFN(int, Win_revoke, (MPI_Win win))
FTMPI_XFN(int, Win_get_failed, (MPI_Win win, MPI_Group *failedgrp))
#undef FTMPI_XFN

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
