/*
 * mpi.h: the MPI C interface of FT-MPI.
 *
 * Handles are ints: (kind << 26) | index. Index 0 of every kind is the
 * kind's null handle; predefined objects have small fixed indices. A zeroed
 * handle variable is therefore invalid and is reported as such.
 *
 * MPI_VERSION/MPI_SUBVERSION say which standard level is complete; see
 * docs/coverage.md for what beyond it is available.
 */
#ifndef FTMPI_MPI_H
#define FTMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 1
#define MPI_SUBVERSION 2
#define FTMPI_VERSION_STRING "0.1.0"

/* ---- basic types ---------------------------------------------------- */
typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef int MPI_Win;
typedef int MPI_Message;
typedef int MPI_File;
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int ftmpi_cancelled;
    long long ftmpi_count; /* bytes received */
} MPI_Status;

#define FTMPI_HANDLE(kind, idx) ((int)(((unsigned)(kind) << 26) | (unsigned)(idx)))
#define FTMPI_KIND_COMM 1
#define FTMPI_KIND_GROUP 2
#define FTMPI_KIND_DATATYPE 3
#define FTMPI_KIND_OP 4
#define FTMPI_KIND_REQUEST 5
#define FTMPI_KIND_ERRHANDLER 6
#define FTMPI_KIND_INFO 7
#define FTMPI_KIND_WIN 8
#define FTMPI_KIND_MESSAGE 9
#define FTMPI_KIND_FILE 10

/* ---- communicators and groups ---------------------------------------- */
#define MPI_COMM_NULL FTMPI_HANDLE(FTMPI_KIND_COMM, 0)
#define MPI_COMM_WORLD FTMPI_HANDLE(FTMPI_KIND_COMM, 1)
#define MPI_COMM_SELF FTMPI_HANDLE(FTMPI_KIND_COMM, 2)
#define FT_MPI_CHECK_RECOVER FTMPI_HANDLE(FTMPI_KIND_COMM, 0x3ffffff)
#define MPI_GROUP_NULL FTMPI_HANDLE(FTMPI_KIND_GROUP, 0)
#define MPI_GROUP_EMPTY FTMPI_HANDLE(FTMPI_KIND_GROUP, 1)
#define MPI_REQUEST_NULL FTMPI_HANDLE(FTMPI_KIND_REQUEST, 0)
#define MPI_MESSAGE_NULL FTMPI_HANDLE(FTMPI_KIND_MESSAGE, 0)
#define MPI_MESSAGE_NO_PROC FTMPI_HANDLE(FTMPI_KIND_MESSAGE, 1)
#define MPI_ERRHANDLER_NULL FTMPI_HANDLE(FTMPI_KIND_ERRHANDLER, 0)
#define MPI_ERRORS_ARE_FATAL FTMPI_HANDLE(FTMPI_KIND_ERRHANDLER, 1)
#define MPI_ERRORS_RETURN FTMPI_HANDLE(FTMPI_KIND_ERRHANDLER, 2)
#define MPI_ERRORS_ABORT FTMPI_HANDLE(FTMPI_KIND_ERRHANDLER, 3)
#define MPI_INFO_NULL FTMPI_HANDLE(FTMPI_KIND_INFO, 0)
#define MPI_INFO_ENV FTMPI_HANDLE(FTMPI_KIND_INFO, 1)
#define MPI_WIN_NULL FTMPI_HANDLE(FTMPI_KIND_WIN, 0)
#define MPI_FILE_NULL FTMPI_HANDLE(FTMPI_KIND_FILE, 0)

/* ---- datatypes (indices are fixed; see core/datatype_predef.c) -------- */
#define FTMPI_DT(i) FTMPI_HANDLE(FTMPI_KIND_DATATYPE, i)
#define MPI_DATATYPE_NULL FTMPI_DT(0)
#define MPI_CHAR FTMPI_DT(1)
#define MPI_SIGNED_CHAR FTMPI_DT(2)
#define MPI_UNSIGNED_CHAR FTMPI_DT(3)
#define MPI_BYTE FTMPI_DT(4)
#define MPI_WCHAR FTMPI_DT(5)
#define MPI_SHORT FTMPI_DT(6)
#define MPI_UNSIGNED_SHORT FTMPI_DT(7)
#define MPI_INT FTMPI_DT(8)
#define MPI_UNSIGNED FTMPI_DT(9)
#define MPI_LONG FTMPI_DT(10)
#define MPI_UNSIGNED_LONG FTMPI_DT(11)
#define MPI_LONG_LONG_INT FTMPI_DT(12)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG FTMPI_DT(13)
#define MPI_FLOAT FTMPI_DT(14)
#define MPI_DOUBLE FTMPI_DT(15)
#define MPI_LONG_DOUBLE FTMPI_DT(16)
#define MPI_PACKED FTMPI_DT(17)
#define MPI_LB FTMPI_DT(18)
#define MPI_UB FTMPI_DT(19)
#define MPI_INT8_T FTMPI_DT(20)
#define MPI_INT16_T FTMPI_DT(21)
#define MPI_INT32_T FTMPI_DT(22)
#define MPI_INT64_T FTMPI_DT(23)
#define MPI_UINT8_T FTMPI_DT(24)
#define MPI_UINT16_T FTMPI_DT(25)
#define MPI_UINT32_T FTMPI_DT(26)
#define MPI_UINT64_T FTMPI_DT(27)
#define MPI_C_BOOL FTMPI_DT(28)
#define MPI_C_FLOAT_COMPLEX FTMPI_DT(29)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX FTMPI_DT(30)
#define MPI_C_LONG_DOUBLE_COMPLEX FTMPI_DT(31)
#define MPI_AINT FTMPI_DT(32)
#define MPI_OFFSET FTMPI_DT(33)
#define MPI_COUNT FTMPI_DT(34)
#define MPI_FLOAT_INT FTMPI_DT(35)
#define MPI_DOUBLE_INT FTMPI_DT(36)
#define MPI_LONG_INT FTMPI_DT(37)
#define MPI_2INT FTMPI_DT(38)
#define MPI_SHORT_INT FTMPI_DT(39)
#define MPI_LONG_DOUBLE_INT FTMPI_DT(40)
/* Fortran types, usable from C for interoperable buffers */
#define MPI_CHARACTER FTMPI_DT(41)
#define MPI_LOGICAL FTMPI_DT(42)
#define MPI_INTEGER FTMPI_DT(43)
#define MPI_REAL FTMPI_DT(44)
#define MPI_DOUBLE_PRECISION FTMPI_DT(45)
#define MPI_COMPLEX FTMPI_DT(46)
#define MPI_DOUBLE_COMPLEX FTMPI_DT(47)
#define MPI_2INTEGER FTMPI_DT(48)
#define MPI_2REAL FTMPI_DT(49)
#define MPI_2DOUBLE_PRECISION FTMPI_DT(50)
#define MPI_INTEGER1 FTMPI_DT(51)
#define MPI_INTEGER2 FTMPI_DT(52)
#define MPI_INTEGER4 FTMPI_DT(53)
#define MPI_INTEGER8 FTMPI_DT(54)
#define MPI_REAL4 FTMPI_DT(55)
#define MPI_REAL8 FTMPI_DT(56)
#define MPI_CXX_BOOL FTMPI_DT(57)
#define MPI_CXX_FLOAT_COMPLEX FTMPI_DT(58)
#define MPI_CXX_DOUBLE_COMPLEX FTMPI_DT(59)
#define MPI_CXX_LONG_DOUBLE_COMPLEX FTMPI_DT(60)
#define FTMPI_DT_PREDEFINED_COUNT 61

/* ---- reduction operations -------------------------------------------- */
#define MPI_OP_NULL FTMPI_HANDLE(FTMPI_KIND_OP, 0)
#define MPI_MAX FTMPI_HANDLE(FTMPI_KIND_OP, 1)
#define MPI_MIN FTMPI_HANDLE(FTMPI_KIND_OP, 2)
#define MPI_SUM FTMPI_HANDLE(FTMPI_KIND_OP, 3)
#define MPI_PROD FTMPI_HANDLE(FTMPI_KIND_OP, 4)
#define MPI_LAND FTMPI_HANDLE(FTMPI_KIND_OP, 5)
#define MPI_BAND FTMPI_HANDLE(FTMPI_KIND_OP, 6)
#define MPI_LOR FTMPI_HANDLE(FTMPI_KIND_OP, 7)
#define MPI_BOR FTMPI_HANDLE(FTMPI_KIND_OP, 8)
#define MPI_LXOR FTMPI_HANDLE(FTMPI_KIND_OP, 9)
#define MPI_BXOR FTMPI_HANDLE(FTMPI_KIND_OP, 10)
#define MPI_MINLOC FTMPI_HANDLE(FTMPI_KIND_OP, 11)
#define MPI_MAXLOC FTMPI_HANDLE(FTMPI_KIND_OP, 12)
#define MPI_REPLACE FTMPI_HANDLE(FTMPI_KIND_OP, 13)
#define MPI_NO_OP FTMPI_HANDLE(FTMPI_KIND_OP, 14)
#define FTMPI_OP_PREDEFINED_COUNT 15

/* ---- special values --------------------------------------------------- */
#define MPI_ANY_SOURCE (-1)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-2)
#define MPI_ROOT (-3)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID 0
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
/* Sentinels for the distributed-graph weights: addresses of objects in the
 * library, so compilers see valid pointers. */
extern int ftmpi_unweighted_sentinel, ftmpi_weights_empty_sentinel;
#define MPI_UNWEIGHTED (&ftmpi_unweighted_sentinel)
#define MPI_WEIGHTS_EMPTY (&ftmpi_weights_empty_sentinel)
#define MPI_BSEND_OVERHEAD 64
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 256
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_PORT_NAME 256
#define MPI_MAX_DATAREP_STRING 128

#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

#define MPI_COMM_TYPE_SHARED 1

#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57

#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

enum {
    MPI_COMBINER_NAMED = 1, MPI_COMBINER_DUP, MPI_COMBINER_CONTIGUOUS,
    MPI_COMBINER_VECTOR, MPI_COMBINER_HVECTOR_INTEGER, MPI_COMBINER_HVECTOR,
    MPI_COMBINER_INDEXED, MPI_COMBINER_HINDEXED_INTEGER, MPI_COMBINER_HINDEXED,
    MPI_COMBINER_INDEXED_BLOCK, MPI_COMBINER_STRUCT_INTEGER, MPI_COMBINER_STRUCT,
    MPI_COMBINER_SUBARRAY, MPI_COMBINER_DARRAY, MPI_COMBINER_F90_REAL,
    MPI_COMBINER_F90_COMPLEX, MPI_COMBINER_F90_INTEGER, MPI_COMBINER_RESIZED,
    MPI_COMBINER_HINDEXED_BLOCK
};

/* ---- predefined attribute keys ---------------------------------------- */
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_LASTUSEDCODE 6
#define MPI_APPNUM 7
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
/* FT-MPI keys 16..21 are in ftmpi.h */

/* ---- error classes ------------------------------------------------------ */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_ASSERT 22
#define MPI_ERR_BAD_FILE 23
#define MPI_ERR_BASE 24
#define MPI_ERR_CONVERSION 25
#define MPI_ERR_DISP 26
#define MPI_ERR_DUP_DATAREP 27
#define MPI_ERR_FILE_EXISTS 28
#define MPI_ERR_FILE_IN_USE 29
#define MPI_ERR_FILE 30
#define MPI_ERR_INFO_KEY 31
#define MPI_ERR_INFO_NOKEY 32
#define MPI_ERR_INFO_VALUE 33
#define MPI_ERR_INFO 34
#define MPI_ERR_IO 35
#define MPI_ERR_KEYVAL 36
#define MPI_ERR_LOCKTYPE 37
#define MPI_ERR_NAME 38
#define MPI_ERR_NO_MEM 39
#define MPI_ERR_NOT_SAME 40
#define MPI_ERR_NO_SPACE 41
#define MPI_ERR_NO_SUCH_FILE 42
#define MPI_ERR_PORT 43
#define MPI_ERR_QUOTA 44
#define MPI_ERR_READ_ONLY 45
#define MPI_ERR_RMA_CONFLICT 46
#define MPI_ERR_RMA_SYNC 47
#define MPI_ERR_SERVICE 48
#define MPI_ERR_SIZE 49
#define MPI_ERR_SPAWN 50
#define MPI_ERR_UNSUPPORTED_DATAREP 51
#define MPI_ERR_UNSUPPORTED_OPERATION 52
#define MPI_ERR_WIN 53
#define MPI_ERR_RMA_RANGE 54
#define MPI_ERR_RMA_ATTACH 55
#define MPI_ERR_RMA_SHARED 56
#define MPI_ERR_RMA_FLAVOR 57
#define MPIX_ERR_PROC_FAILED 58
#define MPIX_ERR_PROC_FAILED_PENDING 59
#define MPIX_ERR_REVOKED 60
#define MPI_ERR_LASTCODE 63

/* ---- callback types ----------------------------------------------------- */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *dt);
typedef void MPI_Handler_function(MPI_Comm *comm, int *code, ...);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef void MPI_File_errhandler_function(MPI_File *file, int *code, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype type, int keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int keyval, void *attribute_val,
                                         void *extra_state);
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* Predefined attribute callbacks (real functions in the library). */
int MPI_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *);
int MPI_NULL_DELETE_FN(MPI_Comm, int, void *, void *);
int MPI_DUP_FN(MPI_Comm, int, void *, void *, void *, int *);
int MPI_COMM_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *);
int MPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void *, void *);
int MPI_COMM_DUP_FN(MPI_Comm, int, void *, void *, void *, int *);
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void *, void *, void *, int *);
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void *, void *);
int MPI_TYPE_DUP_FN(MPI_Datatype, int, void *, void *, void *, int *);
int MPI_WIN_NULL_COPY_FN(MPI_Win, int, void *, void *, void *, int *);
int MPI_WIN_NULL_DELETE_FN(MPI_Win, int, void *, void *);
int MPI_WIN_DUP_FN(MPI_Win, int, void *, void *, void *, int *);

/* ---- functions ------------------------------------------------------------
 * Each is declared twice: MPI_x and its profiling twin PMPI_x. */
#define FTMPI_FN(ret, name, args) ret MPI_##name args; ret PMPI_##name args;

/* environment */
FTMPI_FN(int, Init, (int *argc, char ***argv))
FTMPI_FN(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
FTMPI_FN(int, Finalize, (void))
FTMPI_FN(int, Initialized, (int *flag))
FTMPI_FN(int, Finalized, (int *flag))
FTMPI_FN(int, Abort, (MPI_Comm comm, int errorcode))
FTMPI_FN(double, Wtime, (void))
FTMPI_FN(double, Wtick, (void))
FTMPI_FN(int, Get_processor_name, (char *name, int *resultlen))
FTMPI_FN(int, Get_version, (int *version, int *subversion))
FTMPI_FN(int, Get_library_version, (char *version, int *resultlen))
FTMPI_FN(int, Query_thread, (int *provided))
FTMPI_FN(int, Is_thread_main, (int *flag))
FTMPI_FN(int, Pcontrol, (const int level, ...))
FTMPI_FN(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
FTMPI_FN(int, Free_mem, (void *base))

/* errors and error handlers */
FTMPI_FN(int, Error_string, (int errorcode, char *string, int *resultlen))
FTMPI_FN(int, Error_class, (int errorcode, int *errorclass))
FTMPI_FN(int, Add_error_class, (int *errorclass))
FTMPI_FN(int, Add_error_code, (int errorclass, int *errorcode))
FTMPI_FN(int, Add_error_string, (int errorcode, const char *string))
FTMPI_FN(int, Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler))
FTMPI_FN(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))
FTMPI_FN(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler))
FTMPI_FN(int, Errhandler_free, (MPI_Errhandler *errhandler))
FTMPI_FN(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler))
FTMPI_FN(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
FTMPI_FN(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
FTMPI_FN(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
FTMPI_FN(int, Win_create_errhandler, (MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler))
FTMPI_FN(int, File_create_errhandler, (MPI_File_errhandler_function *function, MPI_Errhandler *errhandler))

/* point-to-point */
FTMPI_FN(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_FN(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_FN(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_FN(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
FTMPI_FN(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
FTMPI_FN(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Start, (MPI_Request *request))
FTMPI_FN(int, Startall, (int count, MPI_Request array_of_requests[]))
FTMPI_FN(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
FTMPI_FN(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
FTMPI_FN(int, Buffer_attach, (void *buffer, int size))
FTMPI_FN(int, Buffer_detach, (void *buffer_addr, int *size))
FTMPI_FN(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
FTMPI_FN(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
FTMPI_FN(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status))
FTMPI_FN(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status))
FTMPI_FN(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
FTMPI_FN(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))
FTMPI_FN(int, Cancel, (MPI_Request *request))
FTMPI_FN(int, Test_cancelled, (const MPI_Status *status, int *flag))
FTMPI_FN(int, Request_free, (MPI_Request *request))
FTMPI_FN(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
FTMPI_FN(int, Wait, (MPI_Request *request, MPI_Status *status))
FTMPI_FN(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
FTMPI_FN(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
FTMPI_FN(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
FTMPI_FN(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses))
FTMPI_FN(int, Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status *array_of_statuses))
FTMPI_FN(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status *array_of_statuses))
FTMPI_FN(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status *array_of_statuses))
FTMPI_FN(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
FTMPI_FN(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
FTMPI_FN(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
FTMPI_FN(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
FTMPI_FN(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count))
FTMPI_FN(int, Status_set_cancelled, (MPI_Status *status, int flag))
FTMPI_FN(int, Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request))
FTMPI_FN(int, Grequest_complete, (MPI_Request request))

/* datatypes */
FTMPI_FN(int, Type_size, (MPI_Datatype datatype, int *size))
FTMPI_FN(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
FTMPI_FN(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent))
FTMPI_FN(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement))
FTMPI_FN(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement))
FTMPI_FN(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
FTMPI_FN(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
FTMPI_FN(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent))
FTMPI_FN(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
FTMPI_FN(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_indexed, (int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_hindexed, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_create_hindexed, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_create_indexed_block, (int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_create_hindexed_block, (int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
FTMPI_FN(int, Type_create_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
FTMPI_FN(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype))
FTMPI_FN(int, Type_create_subarray, (int ndims, const int array_of_sizes[], const int array_of_subsizes[], const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_FN(int, Type_commit, (MPI_Datatype *datatype))
FTMPI_FN(int, Type_free, (MPI_Datatype *datatype))
FTMPI_FN(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner))
FTMPI_FN(int, Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
FTMPI_FN(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
FTMPI_FN(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
FTMPI_FN(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
FTMPI_FN(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state))
FTMPI_FN(int, Type_free_keyval, (int *type_keyval))
FTMPI_FN(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
FTMPI_FN(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
FTMPI_FN(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
FTMPI_FN(int, Address, (void *location, MPI_Aint *address))
FTMPI_FN(int, Get_address, (const void *location, MPI_Aint *address))
FTMPI_FN(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
FTMPI_FN(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))
FTMPI_FN(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position, MPI_Comm comm))
FTMPI_FN(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype, MPI_Comm comm))
FTMPI_FN(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
FTMPI_FN(int, Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position))
FTMPI_FN(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype))
FTMPI_FN(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size))

/* groups */
FTMPI_FN(int, Group_size, (MPI_Group group, int *size))
FTMPI_FN(int, Group_rank, (MPI_Group group, int *rank))
FTMPI_FN(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]))
FTMPI_FN(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
FTMPI_FN(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_FN(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_FN(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_FN(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
FTMPI_FN(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
FTMPI_FN(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
FTMPI_FN(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
FTMPI_FN(int, Group_free, (MPI_Group *group))

/* communicators */
FTMPI_FN(int, Comm_size, (MPI_Comm comm, int *size))
FTMPI_FN(int, Comm_rank, (MPI_Comm comm, int *rank))
FTMPI_FN(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
FTMPI_FN(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
FTMPI_FN(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
FTMPI_FN(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
FTMPI_FN(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
FTMPI_FN(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
FTMPI_FN(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
FTMPI_FN(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
FTMPI_FN(int, Comm_free, (MPI_Comm *comm))
FTMPI_FN(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
FTMPI_FN(int, Comm_test_inter, (MPI_Comm comm, int *flag))
FTMPI_FN(int, Comm_remote_size, (MPI_Comm comm, int *size))
FTMPI_FN(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
FTMPI_FN(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm *newintercomm))
FTMPI_FN(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))
FTMPI_FN(int, Comm_set_name, (MPI_Comm comm, const char *comm_name))
FTMPI_FN(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
FTMPI_FN(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
FTMPI_FN(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
FTMPI_FN(int, Comm_get_parent, (MPI_Comm *parent))

/* attributes */
FTMPI_FN(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state))
FTMPI_FN(int, Keyval_free, (int *keyval))
FTMPI_FN(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
FTMPI_FN(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
FTMPI_FN(int, Attr_delete, (MPI_Comm comm, int keyval))
FTMPI_FN(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval, void *extra_state))
FTMPI_FN(int, Comm_free_keyval, (int *comm_keyval))
FTMPI_FN(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
FTMPI_FN(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
FTMPI_FN(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))

/* info */
FTMPI_FN(int, Info_create, (MPI_Info *info))
FTMPI_FN(int, Info_set, (MPI_Info info, const char *key, const char *value))
FTMPI_FN(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
FTMPI_FN(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
FTMPI_FN(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
FTMPI_FN(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
FTMPI_FN(int, Info_delete, (MPI_Info info, const char *key))
FTMPI_FN(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
FTMPI_FN(int, Info_free, (MPI_Info *info))

/* topologies */
FTMPI_FN(int, Dims_create, (int nnodes, int ndims, int dims[]))
FTMPI_FN(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart))
FTMPI_FN(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
FTMPI_FN(int, Cartdim_get, (MPI_Comm comm, int *ndims))
FTMPI_FN(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
FTMPI_FN(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
FTMPI_FN(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
FTMPI_FN(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
FTMPI_FN(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
FTMPI_FN(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *comm_graph))
FTMPI_FN(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
FTMPI_FN(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
FTMPI_FN(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
FTMPI_FN(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
FTMPI_FN(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
FTMPI_FN(int, Topo_test, (MPI_Comm comm, int *status))
FTMPI_FN(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[], const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
FTMPI_FN(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree, const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
FTMPI_FN(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
FTMPI_FN(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree, int destinations[], int destweights[]))

/* collectives */
FTMPI_FN(int, Barrier, (MPI_Comm comm))
FTMPI_FN(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
FTMPI_FN(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_FN(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_FN(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_FN(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
FTMPI_FN(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_FN(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_FN(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_FN(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_FN(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
FTMPI_FN(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm))
FTMPI_FN(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_FN(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op))
FTMPI_FN(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_FN(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_FN(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_FN(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
FTMPI_FN(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
FTMPI_FN(int, Op_free, (MPI_Op *op))
FTMPI_FN(int, Op_commutative, (MPI_Op op, int *commute))
FTMPI_FN(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
FTMPI_FN(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_FN(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_FN(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_FN(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
FTMPI_FN(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))

/* handle conversion (C <-> Fortran integers: identical here) */
#define MPI_Comm_c2f(c) ((MPI_Fint)(c))
#define MPI_Comm_f2c(f) ((MPI_Comm)(f))
#define MPI_Type_c2f(c) ((MPI_Fint)(c))
#define MPI_Type_f2c(f) ((MPI_Datatype)(f))
#define MPI_Group_c2f(c) ((MPI_Fint)(c))
#define MPI_Group_f2c(f) ((MPI_Group)(f))
#define MPI_Request_c2f(c) ((MPI_Fint)(c))
#define MPI_Request_f2c(f) ((MPI_Request)(f))
#define MPI_Op_c2f(c) ((MPI_Fint)(c))
#define MPI_Op_f2c(f) ((MPI_Op)(f))
#define MPI_Info_c2f(c) ((MPI_Fint)(c))
#define MPI_Info_f2c(f) ((MPI_Info)(f))
#define MPI_Errhandler_c2f(c) ((MPI_Fint)(c))
#define MPI_Errhandler_f2c(f) ((MPI_Errhandler)(f))

#undef FTMPI_FN

#ifdef __cplusplus
}
#endif

#include "ftmpi.h"

#endif
