/* The large-count MPI-IO data access calls (the _c forms): each runs its int
 * function with the count expressed by api/count_c.h (docs/largecount.md). */
#include "api/count_c.h"

#include "api/file_api.h"

#define CNT_FILE(NAME, CALL)                                                  \
    do {                                                                      \
        cnt_t c;                                                              \
        int rc = cnt_make(count, datatype, &c);                               \
        if (rc != MPI_SUCCESS)                                                \
            return api_file_fail_early(fh, rc, "MPI_File_" #NAME "_c");       \
        rc = CALL;                                                            \
        cnt_done(&c);                                                         \
        return rc;                                                            \
    } while (0)

/* (fh, offset, buf, count, datatype, LAST) */
#define AT_C(NAME, CONST, LAST_T)                                                         \
    API_WEAK(File_##NAME##_c)                                                             \
    int PMPI_File_##NAME##_c(MPI_File fh, MPI_Offset offset, CONST void *buf,             \
                             MPI_Count count, MPI_Datatype datatype, LAST_T last)         \
    {                                                                                     \
        CNT_FILE(NAME, PMPI_File_##NAME(fh, offset, buf, c.n, c.t, last));                \
    }
/* (fh, buf, count, datatype, LAST) */
#define PTR_C(NAME, CONST, LAST_T)                                                        \
    API_WEAK(File_##NAME##_c)                                                             \
    int PMPI_File_##NAME##_c(MPI_File fh, CONST void *buf, MPI_Count count,               \
                             MPI_Datatype datatype, LAST_T last)                          \
    {                                                                                     \
        CNT_FILE(NAME, PMPI_File_##NAME(fh, buf, c.n, c.t, last));                        \
    }
/* split _begin: (fh, [offset,] buf, count, datatype) */
#define BEGIN_AT_C(NAME, CONST)                                                           \
    API_WEAK(File_##NAME##_c)                                                             \
    int PMPI_File_##NAME##_c(MPI_File fh, MPI_Offset offset, CONST void *buf,             \
                             MPI_Count count, MPI_Datatype datatype)                      \
    {                                                                                     \
        CNT_FILE(NAME, PMPI_File_##NAME(fh, offset, buf, c.n, c.t));                      \
    }
#define BEGIN_PTR_C(NAME, CONST)                                                          \
    API_WEAK(File_##NAME##_c)                                                             \
    int PMPI_File_##NAME##_c(MPI_File fh, CONST void *buf, MPI_Count count,               \
                             MPI_Datatype datatype)                                       \
    {                                                                                     \
        CNT_FILE(NAME, PMPI_File_##NAME(fh, buf, c.n, c.t));                              \
    }

AT_C(read_at, , MPI_Status *)
AT_C(write_at, const, MPI_Status *)
AT_C(read_at_all, , MPI_Status *)
AT_C(write_at_all, const, MPI_Status *)
AT_C(iread_at, , MPI_Request *)
AT_C(iwrite_at, const, MPI_Request *)
AT_C(iread_at_all, , MPI_Request *)
AT_C(iwrite_at_all, const, MPI_Request *)
PTR_C(read, , MPI_Status *)
PTR_C(write, const, MPI_Status *)
PTR_C(read_all, , MPI_Status *)
PTR_C(write_all, const, MPI_Status *)
PTR_C(iread, , MPI_Request *)
PTR_C(iwrite, const, MPI_Request *)
PTR_C(iread_all, , MPI_Request *)
PTR_C(iwrite_all, const, MPI_Request *)
PTR_C(read_shared, , MPI_Status *)
PTR_C(write_shared, const, MPI_Status *)
PTR_C(iread_shared, , MPI_Request *)
PTR_C(iwrite_shared, const, MPI_Request *)
PTR_C(read_ordered, , MPI_Status *)
PTR_C(write_ordered, const, MPI_Status *)
BEGIN_AT_C(read_at_all_begin, )
BEGIN_AT_C(write_at_all_begin, const)
BEGIN_PTR_C(read_all_begin, )
BEGIN_PTR_C(write_all_begin, const)
BEGIN_PTR_C(read_ordered_begin, )
BEGIN_PTR_C(write_ordered_begin, const)
