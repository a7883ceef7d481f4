/* Data access: memory to the file's representation, then pread/pwrite over
 * the view's byte runs (under an fcntl lock of the range in atomic mode). */
#include "io/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err_cause.h"

typedef struct {
    io_file_t *f;
    int write;
    char *data;
    MPI_Offset got;     /* data bytes moved, from the start, in order */
    int rc;
} xfer_t;

enum { XF_EOF = 1, XF_ERR = 2 };

static int piece(void *arg, MPI_Offset off, MPI_Offset len, MPI_Offset data_off)
{
    xfer_t *x = arg;
    char *p = x->data + data_off;
    while (len > 0) {
        ssize_t n = x->write ? pwrite(x->f->fd, p, (size_t)len, (off_t)off)
                             : pread(x->f->fd, p, (size_t)len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            x->rc = io_errno_class(errno, x->write ? "write to" : "read from", x->f->path);
            return XF_ERR;
        }
        if (n == 0)
            return XF_EOF; /* a read at the end of the file */
        p += n;
        off += n;
        len -= n;
        x->got = (MPI_Offset)(p - x->data);
    }
    return 0;
}

/* Atomic mode: lock (or unlock) the bytes [first, last] the access touches. */
static int range_lock(io_file_t *f, int write, MPI_Offset b, MPI_Offset len, int type)
{
    struct flock fl = {0};
    MPI_Offset first = io_view_byte(f, b), last = io_view_byte(f, b + len - 1);
    fl.l_type = (short)(type == F_UNLCK ? F_UNLCK : write ? F_WRLCK : F_RDLCK);
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t)first;
    fl.l_len = (off_t)(last - first + 1);
    while (fcntl(f->fd, F_SETLKW, &fl) != 0) {
        if (errno != EINTR)
            return io_errno_class(errno, "lock a range of", f->path);
    }
    return MPI_SUCCESS;
}

int io_access_etypes(const io_file_t *f, size_t count, const dt_t *dt, MPI_Offset *etypes)
{
    MPI_Offset bytes;
    int rc = io_drep_bytes(f->drep, dt, count, &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    if (bytes % f->esize)
        return err_cause(MPI_ERR_ARG, "%lld bytes are not whole etypes of %lld bytes",
                         (long long)bytes, (long long)f->esize);
    *etypes = bytes / f->esize;
    return MPI_SUCCESS;
}

static void status_bytes(MPI_Status *st, MPI_Offset bytes)
{
    if (st && st != MPI_STATUS_IGNORE) {
        st->MPI_SOURCE = MPI_ANY_SOURCE;
        st->MPI_TAG = MPI_ANY_TAG;
        st->ftmpi_count = (MPI_Count)bytes;
        st->ftmpi_cancelled = 0;
    }
}

int io_access(io_file_t *f, int write, MPI_Offset off, void *buf, size_t count, dt_t *dt,
              MPI_Status *st, MPI_Offset *etypes)
{
    int acc = f->amode & (MPI_MODE_RDONLY | MPI_MODE_WRONLY);
    if (write && acc == MPI_MODE_RDONLY)
        return err_cause(MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY");
    if (!write && acc == MPI_MODE_WRONLY)
        return err_cause(MPI_ERR_ACCESS, "the file was opened MPI_MODE_WRONLY");
    if (off < 0)
        return err_cause(MPI_ERR_ARG, "offset %lld is negative", (long long)off);
    MPI_Offset len;
    int rc = io_access_etypes(f, count, dt, etypes);
    if (rc != MPI_SUCCESS)
        return rc;
    len = *etypes * f->esize;
    status_bytes(st, 0);
    if (len == 0)
        return MPI_SUCCESS;
    /* the bytes as the file holds them: the user's own when they are */
    int direct = f->drep->kind == IO_DREP_NATIVE && dt_is_contig(dt, count);
    char *tmp = NULL, *data;
    if (direct) {
        data = (char *)buf + dt->true_lb;
    } else {
        size_t need = (size_t)len > dt->size * count ? (size_t)len : dt->size * count;
        if (!(tmp = malloc(need)))
            return MPI_ERR_NO_MEM;
        data = tmp;
        if (write && (rc = io_drep_to_file(f->drep, dt, count, buf, tmp)) != MPI_SUCCESS) {
            free(tmp);
            return rc;
        }
    }
    MPI_Offset b = off * f->esize;
    if (f->atomic && (rc = range_lock(f, write, b, len, 0)) != MPI_SUCCESS) {
        free(tmp);
        return rc;
    }
    xfer_t x = {.f = f, .write = write, .data = data};
    int how = io_view_pieces(f, b, len, piece, &x);
    if (f->atomic)
        range_lock(f, write, b, len, F_UNLCK);
    rc = how == XF_ERR ? x.rc : MPI_SUCCESS;
    MPI_Offset moved = x.got;
    if (rc == MPI_SUCCESS && !write && !direct) {
        size_t elems;
        rc = io_drep_from_file(f->drep, dt, count, buf, tmp, x.got, &elems);
        if (f->drep->kind != IO_DREP_NATIVE)
            moved = (MPI_Offset)(elems * dt->size);
    } else if (write && f->drep->kind != IO_DREP_NATIVE) {
        moved = (MPI_Offset)(dt->size * count); /* memory bytes taken */
        if (x.got < len)
            moved = 0;
    }
    free(tmp);
    if (rc == MPI_SUCCESS)
        status_bytes(st, moved);
    return rc;
}
