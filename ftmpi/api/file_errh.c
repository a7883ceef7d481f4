/* Error handlers of files (MPI-4.0 9.3.4). A new file starts with the
 * handler set on MPI_FILE_NULL, which is MPI_ERRORS_RETURN at first. */
#include "api/file_api.h"

/* The handler slot of fh: an open file's, or MPI_FILE_NULL's. */
#define FILE_SLOT(fh, f, slot)                                                \
    do {                                                                      \
        (f) = io_file_get(fh);                                                \
        if (!(f) && (fh) != MPI_FILE_NULL)                                    \
            API_FAIL(err_cause(MPI_ERR_FILE, "%d is not a file", (int)(fh)));  \
        (slot) = (f) ? &(f)->errh : io_null_errh();                           \
    } while (0)

API_WEAK(File_set_errhandler)
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    API_BEGIN("MPI_File_set_errhandler");
    io_file_t *f = NULL;
    errh_t **slot;
    FILE_SLOT(file, f, slot);
    errh_t *e = errh_get_kind(errhandler, ERRH_FILE);
    if (!e)
        API_FAIL(err_cause(MPI_ERR_ARG, "not an error handler for files"));
    errh_replace(slot, e);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_errhandler)
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    API_BEGIN("MPI_File_get_errhandler");
    io_file_t *f = NULL;
    errh_t **slot;
    FILE_SLOT(file, f, slot);
    CHECK_PTR(errhandler);
    errh_retain(*slot); /* the user frees the handle it gets */
    *errhandler = (*slot)->handle;
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_call_errhandler)
int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    API_BEGIN("MPI_File_call_errhandler");
    io_file_t *f = NULL;
    errh_t **slot;
    FILE_SLOT(fh, f, slot);
    errh_invoke(*slot, f ? f->handle : MPI_FILE_NULL, errorcode, FNAME);
    API_END_CLEANUP(FILE_RAISE(f));
}
