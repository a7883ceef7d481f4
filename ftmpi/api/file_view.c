/* MPI-IO views, file pointers and data representations (MPI-4.0 14.3,
 * 14.4.3-14.4.4, 14.5). */
#include "api/file_api.h"

#include <stdio.h>

API_WEAK(File_set_view)
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char *datarep, MPI_Info info)
{
    API_BEGIN("MPI_File_set_view");
    io_file_t *f = NULL;
    dt_t *et, *ft;
    info_t *in;
    CHECK_FILE(fh, f);
    CHECK_DT(etype, et);
    CHECK_DT(filetype, ft);
    CHECK_PTR(datarep);
    CHECK_INFO_OR_NULL(info, in);
    if (f->split)
        API_FAIL(err_cause(MPI_ERR_OTHER, "a split collective is active on this file"));
    rc = io_set_view(f, disp, et, ft, datarep, in);
    API_END_CLEANUP(FILE_RAISE(f));
}

/* A type of the view for the user: predefined ones as they are, derived
 * ones as a new handle of a duplicate (the user frees it). */
static int type_out(dt_t *dt, MPI_Datatype *h)
{
    if (dt->predefined) {
        *h = dt->handle;
        return MPI_SUCCESS;
    }
    dt_t *n = NULL;
    int rc = dt_create_dup(dt, &n);
    if (rc == MPI_SUCCESS && (rc = dt_commit(n)) == MPI_SUCCESS)
        rc = dt_publish(n);
    if (rc != MPI_SUCCESS) {
        if (n)
            dt_release(n);
        return rc;
    }
    *h = n->handle;
    return MPI_SUCCESS;
}

API_WEAK(File_get_view)
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                       MPI_Datatype *filetype, char *datarep)
{
    API_BEGIN("MPI_File_get_view");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_PTR(disp);
    CHECK_PTR(etype);
    CHECK_PTR(filetype);
    CHECK_PTR(datarep);
    *disp = f->disp;
    if ((rc = type_out(f->etype, etype)) != MPI_SUCCESS)
        goto fail;
    if ((rc = type_out(f->filetype, filetype)) != MPI_SUCCESS)
        goto fail;
    snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", f->drep->name);
    API_END_CLEANUP(FILE_RAISE(f));
}

#define CHECK_NOT_SEQUENTIAL(f)                                                      \
    do {                                                                             \
        if ((f)->amode & MPI_MODE_SEQUENTIAL)                                        \
            API_FAIL(err_cause(MPI_ERR_UNSUPPORTED_OPERATION,                        \
                               "the file was opened MPI_MODE_SEQUENTIAL"));          \
    } while (0)

API_WEAK(File_seek)
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    API_BEGIN("MPI_File_seek");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_NOT_SEQUENTIAL(f);
    rc = io_seek(f, f->pos, offset, whence, &f->pos);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_position)
int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    API_BEGIN("MPI_File_get_position");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_NOT_SEQUENTIAL(f);
    CHECK_PTR(offset);
    *offset = f->pos;
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_byte_offset)
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    API_BEGIN("MPI_File_get_byte_offset");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_NOT_SEQUENTIAL(f);
    CHECK_PTR(disp);
    if (offset < 0)
        API_FAIL(err_cause(MPI_ERR_ARG, "offset %lld is negative", (long long)offset));
    *disp = io_view_byte(f, offset * f->esize);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_seek_shared)
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    API_BEGIN("MPI_File_seek_shared");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    rc = io_shared_seek(f, offset, whence);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_position_shared)
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    API_BEGIN("MPI_File_get_position_shared");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_PTR(offset);
    rc = io_shared_fetch_add(f, 0, offset);
    API_END_CLEANUP(FILE_RAISE(f));
}

static int type_extent(const char *fname, MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    API_BEGIN(fname);
    io_file_t *f = NULL;
    dt_t *dt;
    CHECK_FILE(fh, f);
    CHECK_DT(datatype, dt);
    CHECK_PTR(extent);
    rc = io_drep_extent(f->drep, dt, extent);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_type_extent)
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    return type_extent("MPI_File_get_type_extent", fh, datatype, extent);
}

API_WEAK(File_get_type_extent_c)
int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    MPI_Aint e = 0;
    int rc = type_extent("MPI_File_get_type_extent_c", fh, datatype, extent ? &e : NULL);
    if (rc == MPI_SUCCESS)
        *extent = (MPI_Count)e;
    return rc;
}

static int reg(const char *fname, const char *datarep, MPI_Datarep_conversion_function *rd,
               MPI_Datarep_conversion_function *wr, MPI_Datarep_conversion_function_c *rd_c,
               MPI_Datarep_conversion_function_c *wr_c, MPI_Datarep_extent_function *extent,
               void *extra)
{
    API_BEGIN(fname);
    io_file_t *f = NULL;
    CHECK_PTR(datarep);
    if (!extent)
        API_FAIL(err_cause(MPI_ERR_ARG, "a data representation needs an extent function"));
    rc = io_drep_register(datarep, rd, wr, rd_c, wr_c, extent, extra);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(Register_datarep)
int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_fn,
                          MPI_Datarep_conversion_function *write_fn,
                          MPI_Datarep_extent_function *extent_fn, void *extra_state)
{
    return reg("MPI_Register_datarep", datarep, read_fn, write_fn, NULL, NULL, extent_fn,
               extra_state);
}

API_WEAK(Register_datarep_c)
int PMPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *read_fn,
                            MPI_Datarep_conversion_function_c *write_fn,
                            MPI_Datarep_extent_function *extent_fn, void *extra_state)
{
    return reg("MPI_Register_datarep_c", datarep, NULL, NULL, read_fn, write_fn, extent_fn,
               extra_state);
}
