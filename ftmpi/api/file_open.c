/* MPI-IO file manipulation (MPI-4.0 14.2): open, close, delete, size,
 * group, access mode, hints, atomicity, sync. */
#include "api/file_api.h"

#define MODES_ALL                                                                 \
    (MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR |        \
     MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND | \
     MPI_MODE_SEQUENTIAL)

static int check_amode(int amode)
{
    int acc = amode & (MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR);
    if (amode & ~MODES_ALL)
        return err_cause(MPI_ERR_AMODE, "unknown bits 0x%x", amode & ~MODES_ALL);
    if (acc != MPI_MODE_RDONLY && acc != MPI_MODE_WRONLY && acc != MPI_MODE_RDWR)
        return err_cause(MPI_ERR_AMODE, "exactly one of MPI_MODE_RDONLY, _WRONLY, _RDWR");
    if (acc == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return err_cause(MPI_ERR_AMODE, "MPI_MODE_RDONLY with MPI_MODE_CREATE or _EXCL");
    if (acc == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
        return err_cause(MPI_ERR_AMODE, "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL");
    return MPI_SUCCESS;
}

API_WEAK(File_open)
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    API_BEGIN("MPI_File_open");
    io_file_t *f = NULL;
    comm_t *c;
    info_t *in;
    CHECK_PTR(fh);
    *fh = MPI_FILE_NULL;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_PTR(filename);
    CHECK_INFO_OR_NULL(info, in);
    if ((rc = check_amode(amode)) != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    rc = io_open(c, filename, amode, in, &f);
    if (rc == MPI_SUCCESS)
        *fh = f->handle;
    f = NULL; /* errors of the open go to MPI_FILE_NULL's handler */
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_close)
int PMPI_File_close(MPI_File *fh)
{
    API_BEGIN("MPI_File_close");
    io_file_t *f = NULL;
    CHECK_PTR(fh);
    CHECK_FILE(*fh, f);
    errh_t *e = f->errh;
    int h = f->handle;
    errh_retain(e);
    rc = io_close(f); /* f is gone, also when rc reports a failure */
    f = NULL;
    *fh = MPI_FILE_NULL;
    if (rc != MPI_SUCCESS) {
        ft_auto_recover(rc);
        rc = errh_invoke(e, h, ulfm_code(rc), FNAME);
        rc_raised = 1;
    }
    errh_release(e);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_delete)
int PMPI_File_delete(const char *filename, MPI_Info info)
{
    API_BEGIN("MPI_File_delete");
    io_file_t *f = NULL;
    info_t *in;
    CHECK_PTR(filename);
    CHECK_INFO_OR_NULL(info, in);
    (void)in;
    rc = io_delete(filename);
    API_END_CLEANUP(FILE_RAISE(f));
}

static int size_call(const char *fname, MPI_File fh, MPI_Offset size, int grow)
{
    API_BEGIN(fname);
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    if (size < 0)
        API_FAIL(err_cause(MPI_ERR_ARG, "size %lld is negative", (long long)size));
    if ((f->amode & MPI_MODE_RDONLY) || (f->amode & MPI_MODE_SEQUENTIAL))
        API_FAIL(err_cause(f->amode & MPI_MODE_RDONLY ? MPI_ERR_READ_ONLY
                                                      : MPI_ERR_UNSUPPORTED_OPERATION,
                           "the file's access mode does not allow resizing"));
    rc = grow ? io_preallocate(f, size) : io_set_size(f, size);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_set_size)
int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    return size_call("MPI_File_set_size", fh, size, 0);
}

API_WEAK(File_preallocate)
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    return size_call("MPI_File_preallocate", fh, size, 1);
}

API_WEAK(File_get_size)
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    API_BEGIN("MPI_File_get_size");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_PTR(size);
    rc = io_get_size(f, size);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_group)
int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    API_BEGIN("MPI_File_get_group");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_PTR(group);
    group_t *g = group_new(f->comm->group->size, f->comm->group->world);
    if (!g)
        API_FAIL(MPI_ERR_NO_MEM);
    rc = api_group_out(g, group);
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_amode)
int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    API_BEGIN("MPI_File_get_amode");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_PTR(amode);
    *amode = f->amode;
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_set_info)
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    API_BEGIN("MPI_File_set_info");
    io_file_t *f = NULL;
    info_t *in;
    CHECK_FILE(fh, f);
    CHECK_INFO_OR_NULL(info, in);
    if (in) {
        info_t *n = info_dup(in);
        if (!n)
            API_FAIL(MPI_ERR_NO_MEM);
        if (f->info)
            info_release(f->info);
        f->info = n;
    }
    rc = io_barrier(f); /* collective */
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_info)
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    API_BEGIN("MPI_File_get_info");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_PTR(info_used);
    info_t *i = info_dup(f->info);
    if (!i)
        API_FAIL(MPI_ERR_NO_MEM);
    if ((rc = info_make_handle(i)) != MPI_SUCCESS) {
        info_release(i);
        goto fail;
    }
    *info_used = i->handle;
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_set_atomicity)
int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    API_BEGIN("MPI_File_set_atomicity");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    rc = io_same(f, flag != 0, "atomicity flags");
    if (rc == MPI_SUCCESS)
        f->atomic = flag != 0;
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_get_atomicity)
int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    API_BEGIN("MPI_File_get_atomicity");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    CHECK_PTR(flag);
    *flag = f->atomic;
    API_END_CLEANUP(FILE_RAISE(f));
}

API_WEAK(File_sync)
int PMPI_File_sync(MPI_File fh)
{
    API_BEGIN("MPI_File_sync");
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    rc = io_sync(f);
    API_END_CLEANUP(FILE_RAISE(f));
}
