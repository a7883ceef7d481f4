/* The MPI-IO data access calls (MPI-4.0 14.4): explicit offsets, the
 * individual pointer, the shared pointer; blocking, non-blocking,
 * collective and split collective. Each is api_file_rw (api/file_rw.c)
 * with its place, direction and form. */
#include "api/file_api.h"

#define CALL(NAME, WHERE, W, COLL, SPLIT, NB, REQ) \
    io_call_t call = {.fname = "MPI_File_" #NAME, .where = WHERE, .write = W, .coll = COLL, \
                      .split = SPLIT, .nb = NB, .request = REQ}

/* Blocking (NB 0: LAST is the status) or non-blocking (NB 1: the request). */
#define LAST_REQ(NB, last) ((NB) ? (MPI_Request *)(void *)(last) : (MPI_Request *)NULL)
#define LAST_ST(NB, last) ((NB) ? MPI_STATUS_IGNORE : (MPI_Status *)(void *)(last))
/* (fh, offset, buf, count, datatype, LAST) */
#define AT(NAME, CONST, W, COLL, NB, LAST_T)                                                  \
    API_WEAK(File_##NAME)                                                                     \
    int PMPI_File_##NAME(MPI_File fh, MPI_Offset offset, CONST void *buf, int count,          \
                         MPI_Datatype datatype, LAST_T last)                                  \
    {                                                                                         \
        CALL(NAME, IO_AT, W, COLL, 0, NB, LAST_REQ(NB, last));                                \
        return api_file_rw(&call, fh, offset, buf, count, datatype, LAST_ST(NB, last));       \
    }
/* (fh, buf, count, datatype, LAST) */
#define PTR(NAME, WHERE, CONST, W, COLL, NB, LAST_T)                                          \
    API_WEAK(File_##NAME)                                                                     \
    int PMPI_File_##NAME(MPI_File fh, CONST void *buf, int count, MPI_Datatype datatype,      \
                         LAST_T last)                                                         \
    {                                                                                         \
        CALL(NAME, WHERE, W, COLL, 0, NB, LAST_REQ(NB, last));                                \
        return api_file_rw(&call, fh, 0, buf, count, datatype, LAST_ST(NB, last));            \
    }
#define ST MPI_Status *
#define RQ MPI_Request *

AT(read_at, , 0, 0, 0, ST)
AT(write_at, const, 1, 0, 0, ST)
AT(read_at_all, , 0, 1, 0, ST)
AT(write_at_all, const, 1, 1, 0, ST)
AT(iread_at, , 0, 0, 1, RQ)
AT(iwrite_at, const, 1, 0, 1, RQ)
AT(iread_at_all, , 0, 1, 1, RQ)
AT(iwrite_at_all, const, 1, 1, 1, RQ)

PTR(read, IO_INDIV, , 0, 0, 0, ST)
PTR(write, IO_INDIV, const, 1, 0, 0, ST)
PTR(read_all, IO_INDIV, , 0, 1, 0, ST)
PTR(write_all, IO_INDIV, const, 1, 1, 0, ST)
PTR(iread, IO_INDIV, , 0, 0, 1, RQ)
PTR(iwrite, IO_INDIV, const, 1, 0, 1, RQ)
PTR(iread_all, IO_INDIV, , 0, 1, 1, RQ)
PTR(iwrite_all, IO_INDIV, const, 1, 1, 1, RQ)

PTR(read_shared, IO_SHARED, , 0, 0, 0, ST)
PTR(write_shared, IO_SHARED, const, 1, 0, 0, ST)
PTR(iread_shared, IO_SHARED, , 0, 0, 1, RQ)
PTR(iwrite_shared, IO_SHARED, const, 1, 0, 1, RQ)
PTR(read_ordered, IO_ORDERED, , 0, 1, 0, ST)
PTR(write_ordered, IO_ORDERED, const, 1, 1, 0, ST)

/* Split collectives: the _begin does the access, the _end returns it. */
#define BEGIN_AT(NAME, CONST, W, KIND)                                                        \
    API_WEAK(File_##NAME##_begin)                                                             \
    int PMPI_File_##NAME##_begin(MPI_File fh, MPI_Offset offset, CONST void *buf, int count,  \
                                 MPI_Datatype datatype)                                       \
    {                                                                                         \
        CALL(NAME##_begin, IO_AT, W, 1, KIND, 0, (MPI_Request *)NULL);                           \
        return api_file_rw(&call, fh, offset, buf, count, datatype, MPI_STATUS_IGNORE);       \
    }
#define BEGIN_PTR(NAME, WHERE, CONST, W, KIND)                                                \
    API_WEAK(File_##NAME##_begin)                                                             \
    int PMPI_File_##NAME##_begin(MPI_File fh, CONST void *buf, int count,                     \
                                 MPI_Datatype datatype)                                       \
    {                                                                                         \
        CALL(NAME##_begin, WHERE, W, 1, KIND, 0, (MPI_Request *)NULL);                           \
        return api_file_rw(&call, fh, 0, buf, count, datatype, MPI_STATUS_IGNORE);            \
    }
#define END(NAME, CONST, KIND)                                                                \
    API_WEAK(File_##NAME##_end)                                                               \
    int PMPI_File_##NAME##_end(MPI_File fh, CONST void *buf, MPI_Status *status)              \
    {                                                                                         \
        return api_file_split_end("MPI_File_" #NAME "_end", KIND, fh, buf, status);           \
    }

BEGIN_AT(read_at_all, , 0, IO_SPLIT_READ_AT)
BEGIN_AT(write_at_all, const, 1, IO_SPLIT_WRITE_AT)
BEGIN_PTR(read_all, IO_INDIV, , 0, IO_SPLIT_READ)
BEGIN_PTR(write_all, IO_INDIV, const, 1, IO_SPLIT_WRITE)
BEGIN_PTR(read_ordered, IO_ORDERED, , 0, IO_SPLIT_READ_ORDERED)
BEGIN_PTR(write_ordered, IO_ORDERED, const, 1, IO_SPLIT_WRITE_ORDERED)
END(read_at_all, , IO_SPLIT_READ_AT)
END(write_at_all, const, IO_SPLIT_WRITE_AT)
END(read_all, , IO_SPLIT_READ)
END(write_all, const, IO_SPLIT_WRITE)
END(read_ordered, , IO_SPLIT_READ_ORDERED)
END(write_ordered, const, IO_SPLIT_WRITE_ORDERED)
