/*
 * ftmpi.h: the FT-MPI extensions (docs/ft.md, contract section 1).
 * Included by mpi.h; may also be included on its own after mpi.h.
 */
#ifndef FTMPI_FTMPI_H
#define FTMPI_FTMPI_H

#include "mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exported from libftmpi.so (see mpi.h). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* communicator modes */
#define FTMPI_COMM_MODE_ABORT 0
#define FTMPI_COMM_MODE_BLANK 1
#define FTMPI_COMM_MODE_SHRINK 2
#define FTMPI_COMM_MODE_REBUILD 3
#define FTMPI_COMM_MODE_ULFM 4    /* the ULFM semantics (mpi-ext.h, docs/ulfm.md) */
/* message modes */
#define FTMPI_MSG_MODE_RESET 0
#define FTMPI_MSG_MODE_NOP FTMPI_MSG_MODE_RESET
#define FTMPI_MSG_MODE_CONT 1
/* collective modes */
#define FTMPI_COLL_MODE_ATOMIC 0
#define FTMPI_COLL_MODE_NONATOMIC 1
/* recovery modes */
#define FTMPI_RECOVERY_MODE_AUTO 0
#define FTMPI_RECOVERY_MODE_MANUAL 1
#define FTMPI_RECOVERY_MODE_NONE 2

/* predefined attribute keys (read-only, on MPI_COMM_WORLD and MPI_COMM_SELF) */
#define FTMPI_COMM_MODE 16
#define FTMPI_MSG_MODE 17
#define FTMPI_COLL_MODE 18
#define FTMPI_RECOVERY_MODE 19
#define FTMPI_NUM_FAILED_PROCS 20
#define FTMPI_ERROR_FAILURE 21

/* returned by MPI_Init/MPI_Init_thread in a replacement process */
#define MPI_INIT_RESTARTED_NODE 64

/* The host a process runs on (docs/ftmpi.md, "Hosts"): *host is the index
 * of the host (0, 1, ... in the order of ftmpirun's host list) of rank
 * `rank` of comm (its remote group for an intercommunicator):
 * FTMPI_HOST_NOW for its current process (a REBUILD replacement may have
 * moved), FTMPI_HOST_AT_LAUNCH for where the rank was placed at launch.
 * Local: no communication. Errors: MPI_ERR_COMM, MPI_ERR_RANK, MPI_ERR_ARG. */
#define FTMPI_HAVE_HOST_OF 1
#define FTMPI_HOST_NOW 0
#define FTMPI_HOST_AT_LAUNCH 1
int FTMPI_Host_of(MPI_Comm comm, int rank, int which, int *host);
int PFTMPI_Host_of(MPI_Comm comm, int rank, int which, int *host);

/* The cause of the last error an MPI call of this thread raised (returned
 * or passed to an error handler): "MPI_Recv: MPI_ERR_TRUNCATE: ...: 800
 * bytes from rank 2 into a 400-byte buffer"; the class string alone where
 * the library knows no more; "" before any error. At most
 * MPI_MAX_ERROR_STRING - 1 characters. Local; callable at any time. */
#define FTMPI_HAVE_ERROR_CAUSE 1
int FTMPI_Error_cause(char *string, int *resultlen);
int PFTMPI_Error_cause(char *string, int *resultlen);

/* Fault injection point: the launcher may kill this process here
 * (ftmpirun --kill-at NAME[=VALUE]@RANK). Returns MPI_SUCCESS otherwise. */
int FTMPI_Fault_point(const char *name, long value);
int PFTMPI_Fault_point(const char *name, long value);

/* An event for ftmpirun's event log and monitor: NAME and the N KEYS are
 * lower-case words ([a-z_], at most 31 characters), N <= 16; the line is
 * {"event":NAME,"rank":R,"incarnation":I,KEY:VALUE,...}. A name or key the
 * head does not accept is dropped there. MPI_ERR_ARG for a NULL name or
 * N out of range. (docs/tools.md) */
int FTMPI_Note(const char *name, int n, const char *const keys[],
               const double values[]);
int PFTMPI_Note(const char *name, int n, const char *const keys[],
                const double values[]);

/* The algorithm the collectives chose for the last call of a kind
 * ("barrier", "bcast", "reduce", "allreduce", "gather", "scatter",
 * "allgather", "allgatherv", "alltoall", "alltoallv", "reduce_scatter",
 * "scan") made by this process: its name ("ring", "sm", ...; "" before
 * any) in alg (at most len bytes with the NUL), and in *count how many
 * choices of that kind were made so far, so that a caller can tell whether
 * a call made one. MPI_ERR_ARG for an unknown kind or a NULL argument.
 * Read-only; for tools (libftmpi_trace, docs/tools.md). */
int FTMPI_Coll_last_algorithm(const char *kind, char *alg, int len,
                              unsigned long *count);
int PFTMPI_Coll_last_algorithm(const char *kind, char *alg, int len,
                               unsigned long *count);

/* Microseconds to add to this process's CLOCK_MONOTONIC to get ftmpirun's
 * (the head's), measured now with round trips through the runtime, and the
 * bound of its error (half the shortest round trip). 0 and 0 in a
 * singleton; MPI_ERR_OTHER outside MPI_Init..MPI_Finalize or when the
 * runtime cannot be reached. For tools (libftmpi_trace, docs/tools.md). */
int FTMPI_Clock_offset(double *offset_us, double *error_us);
int PFTMPI_Clock_offset(double *offset_us, double *error_us);

/* For tools (libftmpi_trace, docs/tools.md): fn is called, in the thread
 * where it happens and inside the library, for what this process sees:
 * "failure" (rank, incarnation, signal: a failure detected),
 * "recovery_round" (generation: a round waits for this process),
 * "recovery_begin" (generation), "recovery_end" (generation, ok),
 * "restore_begin" and "restore_end" (the recovery callbacks, where a
 * program restores its data), and each FTMPI_Note of this process (its
 * name, keys and values). fn must not call MPI. NULL: none. */
typedef void FTMPI_Observer_fn(const char *what, int n, const char *const keys[],
                               const double values[]);
int FTMPI_Observe(FTMPI_Observer_fn *fn);
int PFTMPI_Observe(FTMPI_Observer_fn *fn);

/* The messages and bytes this process handed to point-to-point for world
 * ranks 0..n-1 (collectives' traffic included), counted under ftmpirun
 * --monitor or --trace; *size: the world's size. MPI_ERR_OTHER when the
 * library does not count, MPI_ERR_ARG for a NULL argument. */
int FTMPI_Msg_counts(int n, unsigned long long msgs[], unsigned long long bytes[],
                     int *size);
int PFTMPI_Msg_counts(int n, unsigned long long msgs[], unsigned long long bytes[],
                      int *size);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
